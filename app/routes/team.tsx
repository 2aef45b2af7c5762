/** Team page: headline, logo, Summary and description, buttons to categories with active exhibits. */
import { TeamPage } from "~/components/TeamPage";
import type { Route } from "./+types/team";
import { teamPath } from "~/shared/exhibit-links";
import { namePagePath, notFoundUnless, requireId, softLoad } from "~/lib/load.server";
import { publicUrlOf, seoMeta } from "~/lib/meta";
import type { HydrationHandle } from "~/lib/hydration";


export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireId(params.id);
  const { catalog } = context.services;
  const team = notFoundUnless(await catalog.getTeam(id));
  namePagePath(context, teamPath(team._id));
  const categories = await softLoad(context, "team categories", () => catalog.categoriesWithActiveExhibits(id), []);
  return { team, categories, canonical: `${context.settings.publicUrl}/teams/${id}` };
}

export default function Team({ loaderData }: Route.ComponentProps) {
  const { team, categories } = loaderData;
  return <TeamPage team={team} categories={categories} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { team, canonical } = loaderData;
  return seoMeta({ title: team.name, description: team.headline, canonical, publicUrl: publicUrlOf(matches), card: { kind: "teams", id: team._id } });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
