/** /{fullName}/{enshrineeID}/exhibit/{id}: an exhibit reached from an enshrinee's page. */
import type { Route } from "./+types/enshrinee-exhibit";
import { ExhibitPage, exhibitMeta } from "~/components/ExhibitPage";
import { publicUrlOf } from "~/lib/meta";
import { loadExhibitPage } from "~/lib/exhibit-page.server";
import { notFoundUnless, requireId } from "~/lib/load.server";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ params, context }: Route.LoaderArgs) {
  const enshrineeId = requireId(params.enshrineeID);
  const enshrinee = notFoundUnless(await context.services.catalog.getEnshrinee(enshrineeId, false));
  return loadExhibitPage(context, params.id, { kind: "enshrinee", enshrinee });
}

export default function EnshrineeExhibit({ loaderData }: Route.ComponentProps) {
  return <ExhibitPage {...loaderData} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return exhibitMeta(loaderData, publicUrlOf(matches));
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
