/** Category page: the team's active exhibits in one category, with a count. */
import { CategoryPage } from "~/components/CategoryPage";
import type { Route } from "./+types/category";
import { categoryPath } from "~/shared/exhibit-links";
import { namePagePath, notFoundUnless, requireId, softLoad } from "~/lib/load.server";
import { seesMemberContent } from "~/lib/guards.server";
import { publicUrlOf, seoMeta } from "~/lib/meta";
import type { HydrationHandle } from "~/lib/hydration";
import { plural } from "~/shared/plural";

export async function loader({ params, context }: Route.LoaderArgs) {
  const teamId = requireId(params.teamId);
  const categoryId = requireId(params.categoryId);
  const { catalog } = context.services;
  const [team, category] = await Promise.all([catalog.getTeam(teamId), catalog.getCategory(categoryId)]);
  const member = seesMemberContent(context);
  const exhibits = await softLoad(
    context,
    "category exhibits",
    () => catalog.listExhibits({ team: teamId, category: categoryId, active: true }, member),
    [],
  );
  namePagePath(context, categoryPath(notFoundUnless(team)._id, notFoundUnless(category)._id));
  return {
    team: notFoundUnless(team),
    category: notFoundUnless(category),
    exhibits,
    member,
    canonical: `${context.settings.publicUrl}/teams/${teamId}/${categoryId}`,
  };
}

export default function Category({ loaderData }: Route.ComponentProps) {
  const { team, category, exhibits, member } = loaderData;
  return <CategoryPage team={team} category={category} exhibits={exhibits} member={member} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { team, category, exhibits, canonical } = loaderData;
  return seoMeta({
    title: `${team.name}: ${category.categoryName}`,
    description: `${plural(exhibits.length, "exhibit")} about ${team.name} in ${category.categoryName}.`,
    publicUrl: publicUrlOf(matches),
    canonical,
    card: { kind: "categories", teamId: team._id, categoryId: category._id },
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
