/** The whole demo collection: both content parts, checked for broken references. */
import { collectionPartA } from "./collection-part-a";
import { collectionPartB } from "./collection-part-b";
import { CATEGORY_NAMES, type SeedCollectionPart } from "./collection-types";

export const HOME_BANNERS = [
  { title: "City of Champions", subtitle: "A century of Pittsburgh sports under one roof" },
  { title: "The Wall of Fame", subtitle: "Meet the players, builders and pioneers we honor" },
  { title: "Favorite Stories", subtitle: "The moments our visitors come back for" },
  { title: "Black and Gold", subtitle: "Steelers, Pirates and Penguins through the decades" },
  { title: "The Hill and the Homestead", subtitle: "The Grays and the Crawfords, giants of Black baseball" },
] as const;

export function demoCollection(): SeedCollectionPart {
  const all: SeedCollectionPart = {
    teams: [...collectionPartA.teams, ...collectionPartB.teams],
    exhibits: [...collectionPartA.exhibits, ...collectionPartB.exhibits],
    enshrinees: [...collectionPartA.enshrinees, ...collectionPartB.enshrinees],
  };
  const teams = new Set(all.teams.map((t) => t.slug));
  const exhibits = new Set<string>();
  for (const e of all.exhibits) {
    if (exhibits.has(e.slug)) throw new Error(`duplicate exhibit slug ${e.slug}`);
    exhibits.add(e.slug);
    if (!teams.has(e.team)) throw new Error(`exhibit ${e.slug}: unknown team ${e.team}`);
    if (!(e.category in CATEGORY_NAMES)) throw new Error(`exhibit ${e.slug}: unknown category ${e.category}`);
  }
  for (const p of all.enshrinees) {
    for (const slug of p.exhibits) {
      if (!exhibits.has(slug)) throw new Error(`enshrinee ${p.slug}: unknown exhibit ${slug}`);
    }
  }
  return all;
}
