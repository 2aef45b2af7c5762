/** Terms of use (last modified June 15, 2023); the ticket price and days come from config. */
import type { Route } from "./+types/terms";
import { TermsText } from "~/content/TermsText";
import { staticPageMeta } from "~/lib/meta";
import { formatPrice } from "~/shared/money";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ context }: Route.LoaderArgs) {
  const s = context.settings;
  return { ticketDays: s.ticketDays, priceLabel: formatPrice(s.ticketPriceCents), contactEmail: s.contactEmail };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  return (
    <article className="prose-museum mx-auto max-w-3xl px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Terms and Conditions</h1>
      <TermsText {...loaderData} />
    </article>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "Terms and Conditions",
    description: "The terms of use of the museum website and of its paid admission ticket.",
    path: "/termsandconditions",
    card: "termsandconditions",
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
