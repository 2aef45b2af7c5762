/** The team page's body (routes/team.tsx), also shown by the console's preview. */
import { Link } from "react-router";
import { BackToTop } from "~/components/BackToTop";
import { categoryPath } from "~/shared/exhibit-links";
import { paragraphs } from "~/shared/text";
import type { CategoryView, TeamView } from "~/shared/catalog-types";
import { LOGO_HEIGHT } from "~/shared/images";

export const TEAM_BACK_TO_TOP_AFTER = 7;

export function TeamPage({ team, categories }: { team: TeamView; categories: CategoryView[] }) {
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
