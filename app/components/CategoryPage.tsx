/** The category page's body (routes/category.tsx), also shown by the console's preview. */
import { Link } from "react-router";
import { ExhibitList } from "~/components/ExhibitList";
import { exhibitPath, teamPath } from "~/shared/exhibit-links";
import type { CategoryView, ExhibitView, TeamView } from "~/shared/catalog-types";

export function CategoryPage({ team, category, exhibits, member }: { team: TeamView; category: CategoryView; exhibits: ExhibitView[]; member: boolean }) {
  return (
    <article className="mx-auto max-w-6xl px-4 py-8">
      <p>
        <Link to={teamPath(team._id)} className="font-semibold text-blue-800 underline">
          Back to {team.name}
        </Link>
      </p>
      <h1 className="mt-4 font-display text-3xl font-bold uppercase">
        {team.name}: {category.categoryName}
      </h1>
      <ExhibitList exhibits={exhibits} member={member} linkTo={exhibitPath} />
    </article>
  );
}
