/** Wall of Fame: every enshrinee, names in upper case. */
import { Link } from "react-router";
import type { Route } from "./+types/enshrinees";
import { enshrineePath } from "~/shared/exhibit-links";
import { softLoad } from "~/lib/load.server";
import { publicUrlOf, seoMeta } from "~/lib/meta";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ context }: Route.LoaderArgs) {
  const enshrinees = await softLoad(context, "enshrinees", () => context.services.catalog.listEnshrinees(), []);
  return { enshrinees, canonical: `${context.settings.publicUrl}/enshrinees` };
}

export default function Enshrinees({ loaderData }: Route.ComponentProps) {
  const { enshrinees } = loaderData;
  return (
    <article className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Wall of Fame</h1>
      <p className="mt-2 text-gray-700">{enshrinees.length} enshrinees</p>
      <ul className="mt-6 grid gap-3 sm:grid-cols-2 md:grid-cols-3" data-testid="enshrinee-list">
        {enshrinees.map((p) => (
          <li key={p._id}>
            <Link to={enshrineePath(p)} className="block rounded border-l-4 border-gold bg-white px-4 py-3 font-display text-lg font-bold tracking-wide shadow-sm hover:bg-gold/20">
              {p.fullName.toUpperCase()}
            </Link>
          </li>
        ))}
      </ul>
    </article>
  );
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return seoMeta({
    title: "Wall of Fame",
    description: "The players, coaches, builders and pioneers enshrined in the Pittsburgh Sports Hall of Fame.",
    canonical: loaderData?.canonical,
    publicUrl: publicUrlOf(matches),
    card: { kind: "pages", page: "enshrinees" },
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
