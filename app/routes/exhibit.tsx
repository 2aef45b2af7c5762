/** /teams/{teamId}/{title}/{exhibitId}: an exhibit reached from its team. */
import type { Route } from "./+types/exhibit";
import { ExhibitPage, exhibitMeta } from "~/components/ExhibitPage";
import { loadExhibitPage } from "~/lib/exhibit-page.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadExhibitPage(context, params.exhibitId, { kind: "team" });
}

export default function Exhibit({ loaderData }: Route.ComponentProps) {
  return <ExhibitPage {...loaderData} />;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return exhibitMeta(loaderData);
}
