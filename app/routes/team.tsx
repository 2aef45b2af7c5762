/** Team page: headline, logo, Summary and description, buttons to categories with active exhibits. */
import { Link } from "react-router";
import type { Route } from "./+types/team";
import { BackToTop } from "~/components/BackToTop";
import { categoryPath, teamPath } from "~/lib/exhibit-links";
import { LOGO_HEIGHT } from "~/shared/images";
import { namePagePath, notFoundUnless, requireId, softLoad } from "~/lib/load.server";
import { seoMeta } from "~/lib/meta";
import { paragraphs } from "~/lib/text";
import type { HydrationHandle } from "~/lib/hydration";

export const TEAM_BACK_TO_TOP_AFTER = 7;

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
  return (
    <article className="mx-auto max-w-5xl px-4 py-8">
      <div className="flex flex-col items-center gap-6 md:flex-row">
        <img src={team.logo} alt={team.logoAlt} width={LOGO_HEIGHT} height={LOGO_HEIGHT} className="h-36 w-36" />
        <div>
          <p className="font-semibold uppercase tracking-wide text-gold-deep">{team.name}</p>
          <h1 className="font-display text-3xl font-bold uppercase md:text-4xl">{team.headline}</h1>
          <p className="text-gray-600">{team.league}</p>
        </div>
      </div>
      <section className="prose-museum mt-8">
        <h2>Summary</h2>
        {paragraphs(team.description).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </section>
      <section className="mt-8">
        <h2 className="font-display text-2xl font-bold uppercase">Exhibit Categories</h2>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 md:grid-cols-3">
          {categories.map((c) => (
            <li key={c._id}>
              <Link to={categoryPath(team._id, c._id)} className="block rounded bg-ink px-4 py-3 text-center font-semibold uppercase tracking-wide text-gold hover:bg-steel">
                {c.categoryName}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      {categories.length > TEAM_BACK_TO_TOP_AFTER ? <BackToTop /> : null}
    </article>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { team, canonical } = loaderData;
  return seoMeta({ title: team.name, description: team.headline, canonical });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
