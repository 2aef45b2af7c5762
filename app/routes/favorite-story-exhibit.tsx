/** /favoritestories/exhibit/{id}: an exhibit reached from the favorite stories list. */
import type { Route } from "./+types/favorite-story-exhibit";
import { ExhibitPage, exhibitMeta } from "~/components/ExhibitPage";
import { publicUrlOf } from "~/lib/meta";
import { loadExhibitPage } from "~/lib/exhibit-page.server";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadExhibitPage(context, params.id, { kind: "favorites" });
}

export default function FavoriteStoryExhibit({ loaderData }: Route.ComponentProps) {
  return <ExhibitPage {...loaderData} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return exhibitMeta(loaderData, publicUrlOf(matches));
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
