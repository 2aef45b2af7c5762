/** About (spec section 2): anchored sections with Back to Top links. */
import type { Route } from "./+types/about";
import { AboutText } from "~/content/AboutText";
import { staticPageMeta } from "~/lib/meta";
import type { HydrationHandle } from "~/lib/hydration";

export default function About() {
  return (
    <article className="prose-museum mx-auto max-w-3xl px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">About the Museum</h1>
      <AboutText />
    </article>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "About",
    description: "Who we are, what our exhibits cover, who is eligible for the Hall of Fame, and how the museum began.",
    path: "/about",
    card: "about",
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
