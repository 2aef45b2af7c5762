/** Privacy policy (last modified March 20, 2023). */
import type { Route } from "./+types/privacy";
import { PrivacyText } from "~/content/PrivacyText";
import { staticPageMeta } from "~/lib/meta";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ context }: Route.LoaderArgs) {
  return { contactEmail: context.settings.contactEmail, countVisits: context.settings.countVisits };
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <article className="prose-museum mx-auto max-w-3xl px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Privacy Policy</h1>
      <PrivacyText contactEmail={loaderData.contactEmail} countVisits={loaderData.countVisits} />
    </article>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "Privacy Policy",
    description: "What personal information the museum website collects, why, and the choices you have.",
    path: "/privacypolicy",
    card: "privacypolicy",
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
