/**
 * Loader shared by the three exhibit routes: the exhibit (gated), its back link, and one
 * canonical address (the team route) whichever route reached it.
 */
import type { AppLoadContext } from "react-router";
import { enshrineeExhibitPath, exhibitBackLink, exhibitPath, favoriteStoryPath, type ExhibitOrigin } from "~/shared/exhibit-links";
import { seesMemberContent } from "./guards.server";
import { namePagePath, notFoundUnless, requireId } from "./load.server";

export async function loadExhibitPage(context: AppLoadContext, exhibitIdParam: string | undefined, origin: ExhibitOrigin) {
  const id = requireId(exhibitIdParam);
  const member = seesMemberContent(context);
  const exhibit = notFoundUnless(await context.services.catalog.getExhibit(id, member));
  namePagePath(
    context,
    origin.kind === "enshrinee"
      ? enshrineeExhibitPath(origin.enshrinee, exhibit._id)
      : origin.kind === "favorites"
        ? favoriteStoryPath(exhibit._id)
        : exhibitPath(exhibit),
  );
  return {
    exhibit,
    member,
    backLink: exhibitBackLink(exhibit, origin),
    canonical: `${context.settings.publicUrl}${exhibitPath(exhibit)}`,
  };
}
