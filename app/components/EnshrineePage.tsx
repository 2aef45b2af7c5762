/**
 * The enshrinee page's body (routes/enshrinee.tsx): the portrait for everyone (decision 033),
 * the biography for members (its formatting: HTML sanitized when staff saved it), Exhibits and
 * Mentions; also shown by the console's preview.
 */
import { Link } from "react-router";
import { BackToTop } from "~/components/BackToTop";
import { TicketBanner } from "~/components/TicketBanner";
import { enshrineeExhibitPath } from "~/shared/exhibit-links";
import { imageSrcSet, PORTRAIT_HEIGHT } from "~/shared/images";
import { paragraphs } from "~/shared/text";
import type { EnshrineeView } from "~/shared/catalog-types";

export function EnshrineePage({ enshrinee }: { enshrinee: EnshrineeView }) {
  return (
    <article className="mx-auto max-w-4xl px-4 py-8">
      <p>
        <Link to="/enshrinees" className="font-semibold text-blue-800 underline">
          Back to the Wall of Fame
        </Link>
      </p>
      <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-end">
        {enshrinee.portrait ? (
          <img
            src={enshrinee.portrait}
            srcSet={imageSrcSet(enshrinee.portrait, PORTRAIT_HEIGHT)}
            alt={enshrinee.portraitAlt ?? ""}
            height={PORTRAIT_HEIGHT}
            width={PORTRAIT_HEIGHT * 0.75}
            className="h-64 w-48 shrink-0 rounded-lg bg-stone-200 object-cover shadow-sm"
            data-testid="portrait"
          />
        ) : null}
        <h1 className="font-display text-4xl font-bold uppercase tracking-wide break-words">{enshrinee.fullName}</h1>
      </div>
      {enshrinee.biography !== undefined ? (
        <section className="prose-museum paywall mt-6" data-testid="biography">
          <h2>Biography</h2>
          {enshrinee.biographyHtml ? (
            <div dangerouslySetInnerHTML={{ __html: enshrinee.biographyHtml }} />
          ) : (
            paragraphs(enshrinee.biography).map((p, i) => <p key={i}>{p}</p>)
          )}
        </section>
      ) : (
        <TicketBanner what={`${enshrinee.fullName}'s biography, exhibit photos and full exhibit texts`} />
      )}
      <section className="mt-8">
        <h2 id="exhibits" className="scroll-mt-24 font-display text-2xl font-bold uppercase">
          Exhibits and Mentions ({enshrinee.exhibits.length})
        </h2>
        <ol className="mt-4 space-y-2" data-testid="enshrinee-exhibits">
          {enshrinee.exhibits.map((e) => (
            <li key={e._id}>
              <Link to={enshrineeExhibitPath(enshrinee, e._id)} className="flex gap-4 rounded bg-white px-4 py-3 shadow-sm hover:bg-gold/20">
                <span className="w-14 font-semibold text-gold-deep">{e.year}</span>
                <span className="font-semibold">{e.title}</span>
              </Link>
            </li>
          ))}
        </ol>
      </section>
      {enshrinee.exhibits.length > 3 ? <BackToTop /> : null}
    </article>
  );
}
