/** Favorite stories: exhibits flagged as favorites, with a count; access as for categories. */
import type { Route } from "./+types/favorite-stories";
import { ExhibitList } from "~/components/ExhibitList";
import { favoriteStoryPath } from "~/shared/exhibit-links";
import { softLoad } from "~/lib/load.server";
import { seesMemberContent } from "~/lib/guards.server";
import { publicUrlOf, seoMeta } from "~/lib/meta";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ context }: Route.LoaderArgs) {
  const member = seesMemberContent(context);
  const exhibits = await softLoad(
    context,
    "favorite stories",
    () => context.services.catalog.listExhibits({ favoriteStory: true, active: true }, member),
    [],
  );
  return { exhibits, member, canonical: `${context.settings.publicUrl}/favoritestories` };
}

export default function FavoriteStories({ loaderData }: Route.ComponentProps) {
  const { exhibits, member } = loaderData;
  return (
    <article className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Favorite Stories</h1>
      <ExhibitList exhibits={exhibits} member={member} linkTo={(e) => favoriteStoryPath(e._id)} />
    </article>
  );
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return seoMeta({
    title: "Favorite Stories",
    description: "The exhibits our visitors love most, from the Immaculate Reception to the Homestead Grays.",
    canonical: loaderData?.canonical,
    publicUrl: publicUrlOf(matches),
    card: { kind: "pages", page: "favoritestories" },
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
