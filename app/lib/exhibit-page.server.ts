/**
 * Loader shared by the three exhibit routes: the exhibit (gated), its back link, and one
 * canonical address (the team route) whichever route reached it.
 */
import type { AppLoadContext } from "react-router";
import { exhibitBackLink, exhibitPath, type ExhibitOrigin } from "./exhibit-links";
import { notFoundUnless, requireId } from "./load.server";

export async function loadExhibitPage(context: AppLoadContext, exhibitIdParam: string | undefined, origin: ExhibitOrigin) {
  const id = requireId(exhibitIdParam);
  const member = context.viewer?.member === true;
  const exhibit = notFoundUnless(await context.services.catalog.getExhibit(id, member));
  return {
    exhibit,
    member,
    backLink: exhibitBackLink(exhibit, origin),
    canonical: `${context.settings.publicUrl}${exhibitPath(exhibit)}`,
  };
}
