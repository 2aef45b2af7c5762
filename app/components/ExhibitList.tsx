/**
 * The exhibit list of category and favorite-stories pages: a count, then cards with thumbnails
 * for members (3 across) or a ticket banner and short-title buttons for everyone else; Back to
 * Top when there are more than 3.
 */
import type { ExhibitView } from "~/shared/catalog-types";
import { BackToTop } from "./BackToTop";
import { ExhibitCard, ShortTitleButton } from "./ExhibitCard";
import { TicketBanner } from "./TicketBanner";

export const LIST_BACK_TO_TOP_AFTER = 3;

export function ExhibitList({
  exhibits,
  member,
  linkTo,
}: {
  exhibits: ExhibitView[];
  member: boolean;
  linkTo: (e: ExhibitView) => string;
}) {
  return (
    <>
      <p className="mt-2 text-gray-700" data-testid="exhibit-count">
        {exhibits.length} {exhibits.length === 1 ? "exhibit" : "exhibits"}
      </p>
      {member ? (
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {exhibits.map((e) => (
            <li key={e._id}>
              <ExhibitCard exhibit={e} to={linkTo(e)} />
            </li>
          ))}
        </ul>
      ) : (
        <>
          <TicketBanner what="exhibit photos and full exhibit texts" />
          <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {exhibits.map((e) => (
              <li key={e._id}>
                <ShortTitleButton exhibit={e} to={linkTo(e)} />
              </li>
            ))}
          </ul>
        </>
      )}
      {exhibits.length > LIST_BACK_TO_TOP_AFTER ? <BackToTop /> : null}
    </>
  );
}
