/** Wall of Fame: every enshrinee, names in upper case, with their portrait when they have one (decision 033). */
import { Link } from "react-router";
import { imageSrcSet, LOGO_HEIGHT, withImageHeight } from "~/shared/images";
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
            <Link to={enshrineePath(p)} className="flex min-h-16 items-center gap-3 rounded border-l-4 border-gold bg-white px-3 py-2 font-display text-lg font-bold tracking-wide shadow-sm hover:bg-gold/20">
              {p.portrait ? (
                <img
                  src={withImageHeight(p.portrait, LOGO_HEIGHT)}
                  srcSet={imageSrcSet(p.portrait, LOGO_HEIGHT)}
                  alt={p.portraitAlt ?? ""}
                  width={48}
                  height={64}
                  loading="lazy"
                  className="h-16 w-12 shrink-0 rounded bg-stone-200 object-cover"
                  data-testid="wall-portrait"
                />
              ) : null}
              <span className="min-w-0 break-words">{p.fullName.toUpperCase()}</span>
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
