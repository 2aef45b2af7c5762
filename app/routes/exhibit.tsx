/** /teams/{teamId}/{title}/{exhibitId}: an exhibit reached from its team. */
import type { Route } from "./+types/exhibit";
import { ExhibitPage, exhibitMeta } from "~/components/ExhibitPage";
import { publicUrlOf } from "~/lib/meta";
import { loadExhibitPage } from "~/lib/exhibit-page.server";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadExhibitPage(context, params.exhibitId, { kind: "team" });
}

export default function Exhibit({ loaderData }: Route.ComponentProps) {
  return <ExhibitPage {...loaderData} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return exhibitMeta(loaderData, publicUrlOf(matches));
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
