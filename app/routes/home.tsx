/**
 * Home (spec section 2): banner carousel (desktop and mobile sets), welcome line with the
 * member's first name, Wall of Fame and Favorite Stories, team cards, newsletter link.
 */
import { HomePage, teamCard } from "~/components/HomePage";
import type { Route } from "./+types/home";
import { softLoad } from "~/lib/load.server";
import { seesMemberContent } from "~/lib/guards.server";
import { absoluteUrl, publicUrlOf, seoMeta, shareCardUrl } from "~/lib/meta";
import { SITE_NAME } from "~/shared/site";
import { MUSEUM } from "~/content/museum";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ context }: Route.LoaderArgs) {
  const v = context.viewer;
  const { catalog } = context.services;
  const [teams, banners] = await Promise.all([
    softLoad(context, "teams", () => catalog.listTeams(), []),
    softLoad(context, "banners", () => catalog.bannerSlides(), { desktop: [], mobile: [] }),
  ]);
  return {
    firstName: v?.firstName ?? null,
    member: seesMemberContent(context),
    teams: teams.map(teamCard),
    banners,
    publicUrl: context.settings.publicUrl,
  };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { firstName, member, teams, banners } = loaderData;
  return <HomePage firstName={firstName} member={member} teams={teams} banners={banners} />;
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const url = loaderData?.publicUrl ?? "";
  return seoMeta({
    publicUrl: publicUrlOf(matches),
    title: SITE_NAME,
    description: "Explore a century of Pittsburgh sports history: teams, exhibits, the Wall of Fame and favorite stories.",
    canonical: `${url}/`,
    card: { kind: "pages", page: "home" },
    jsonLd: {
      "@type": "Museum",
      name: SITE_NAME,
      url: `${url}/`,
      logo: absoluteUrl(url, MUSEUM.logo),
      image: shareCardUrl(url, { kind: "pages", page: "home" }),
      address: { "@type": "PostalAddress", ...MUSEUM.address },
      openingHoursSpecification: MUSEUM.openingHours.map((h) => ({ "@type": "OpeningHoursSpecification", ...h })),
    },
  });
}

// Scripts on intent: the banner turns in CSS until they run (decision 016).
export const handle: HydrationHandle = { hydrate: "intent" };
