/** An enshrinee: name, biography (members), Exhibits and Mentions sorted by year ascending. */
import { EnshrineePage } from "~/components/EnshrineePage";
import type { Route } from "./+types/enshrinee";
import { enshrineePath } from "~/shared/exhibit-links";
import { namePagePath, notFoundUnless, requireId } from "~/lib/load.server";
import { seesMemberContent } from "~/lib/guards.server";
import { absoluteUrl, publicUrlOf, seoMeta, shareCardUrl } from "~/lib/meta";
import { truncateAtWord } from "~/shared/text";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireId(params.enshrineeID);
  const member = seesMemberContent(context);
  const enshrinee = notFoundUnless(await context.services.catalog.getEnshrinee(id, member));
  namePagePath(context, enshrineePath(enshrinee));
  return { enshrinee, member, canonical: `${context.settings.publicUrl}/enshrinees/${params.fullName}/${id}` };
}

export default function Enshrinee({ loaderData }: Route.ComponentProps) {
  const { enshrinee } = loaderData;
  return <EnshrineePage enshrinee={enshrinee} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { enshrinee, canonical } = loaderData;
  const card = { kind: "enshrinees", id: enshrinee._id } as const;
  const publicUrl = publicUrlOf(matches);
  // What visitors may read: the JSON-LD never carries the member-only biography.
  const publicDescription = `${enshrinee.fullName}, enshrined in the Pittsburgh Sports Hall of Fame: exhibits and mentions.`;
  return seoMeta({
    title: enshrinee.fullName,
    description: enshrinee.biography ? truncateAtWord(enshrinee.biography, 155).text : publicDescription,
    canonical,
    publicUrl,
    card,
    type: "profile",
    jsonLd: {
      "@type": "Person",
      name: enshrinee.fullName,
      givenName: enshrinee.firstName,
      familyName: enshrinee.lastName,
      url: canonical,
      description: publicDescription,
      // The portrait is public (decision 033); without one, the page's share card.
      image: publicUrl === undefined ? undefined : enshrinee.portrait ? absoluteUrl(publicUrl, enshrinee.portrait) : shareCardUrl(publicUrl, card),
    },
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
