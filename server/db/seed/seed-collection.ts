/**
 * Loads the demo collection: rows upserted by slug (ids derived from slugs, so seeding twice
 * changes nothing) and the generated poster originals written to the media folder.
 */
import { eq } from "drizzle-orm";
import type { Logger } from "../../logger";
import { bannerSvg, exhibitPosterSvg, teamLogoSvg } from "./posters";
import type { Database } from "../client";
import {
  bannerSlides,
  categories,
  enshrineeExhibits,
  enshrinees,
  exhibitPhotos,
  exhibits,
  teams,
} from "../schema";
import { demoCollection, HOME_BANNERS } from "./collection";
import { CATEGORY_NAMES, type SeedTeam } from "./collection-types";
import { stableId } from "./stable-id";
import { sanitizeRichText } from "../../catalog/rich-text";
import { transactionRetrying } from "../retrying";

export interface MediaWriter {
  writeOriginal(file: string, content: string | Buffer): Promise<void>;
}

const BANNER_SIZE = { desktop: { width: 1600, height: 600 }, mobile: { width: 800, height: 1000 } } as const;
const MUSEUM_COLORS = { primary: "#101820", secondary: "#ffb612", text: "#ffffff" };

function monogram(name: string): string {
  const words = name.split(/\s+/).filter((w) => !/^(of|the|university)$/i.test(w));
  return words.map((w) => w[0]).join("").slice(0, 3).toUpperCase();
}

export async function seedCollection({ db, media, logger }: { db: Database; media: MediaWriter; logger?: Logger }) {
  const collection = demoCollection();
  const teamBySlug = new Map<string, SeedTeam>(collection.teams.map((t) => [t.slug, t]));

  // Files first: a row never points at an image that does not exist.
  for (const t of collection.teams) {
    await media.writeOriginal(`logos/${t.slug}.svg`, teamLogoSvg({ name: t.name, monogram: monogram(t.name), colors: t.colors }));
  }
  for (const e of collection.exhibits) {
    const team = teamBySlug.get(e.team)!;
    const poster = (caption: string, index: number) =>
      exhibitPosterSvg({ title: e.title, caption, year: e.year, teamName: team.name, colors: team.colors, index });
    for (const [i, photo] of e.photos.entries()) {
      await media.writeOriginal(`exhibits/${e.slug}/photo-${i + 1}.svg`, poster(photo.caption, i));
    }
    if (e.matchingPhoto) await media.writeOriginal(`exhibits/${e.slug}/matching.svg`, poster(e.matchingPhoto.caption, 7));
  }
  for (const variant of ["desktop", "mobile"] as const) {
    for (const [i, b] of HOME_BANNERS.entries()) {
      await media.writeOriginal(`banners/${variant}-${i + 1}.svg`, bannerSvg({ ...b, colors: MUSEUM_COLORS, variant, index: i }));
    }
  }

  await transactionRetrying(db, async (tx) => {
    for (const [i, t] of collection.teams.entries()) {
      const row = {
        id: stableId("team", t.slug),
        slug: t.slug,
        name: t.name,
        league: t.league,
        logo: `logos/${t.slug}.svg`,
        headline: t.headline,
        description: t.description,
        sortOrder: i,
      };
      await tx.insert(teams).values(row).onConflictDoUpdate({ target: teams.slug, set: row });
    }
    for (const [i, [slug, categoryName]] of Object.entries(CATEGORY_NAMES).entries()) {
      const row = { id: stableId("category", slug), slug, categoryName, sortOrder: i };
      await tx.insert(categories).values(row).onConflictDoUpdate({ target: categories.slug, set: row });
    }
    for (const e of collection.exhibits) {
      const id = stableId("exhibit", e.slug);
      const row = {
        id,
        slug: e.slug,
        teamId: stableId("team", e.team),
        categoryId: stableId("category", e.category),
        title: e.title,
        shortTitle: e.shortTitle,
        description: e.description,
        thumbnail: `exhibits/${e.slug}/photo-1.svg`,
        thumbnailAlt: e.photos[0].caption,
        matchingPhoto: e.matchingPhoto ? `exhibits/${e.slug}/matching.svg` : null,
        matchingPhotoAlt: e.matchingPhoto?.caption ?? null,
        active: e.active,
        year: e.year,
        favoriteStory: e.favoriteStory,
      };
      await tx.insert(exhibits).values(row).onConflictDoUpdate({ target: exhibits.slug, set: row });
      await tx.delete(exhibitPhotos).where(eq(exhibitPhotos.exhibitId, id));
      await tx.insert(exhibitPhotos).values(
        e.photos.map((p, i) => ({ exhibitId: id, position: i, file: `exhibits/${e.slug}/photo-${i + 1}.svg`, alt: p.caption })),
      );
    }
    for (const p of collection.enshrinees) {
      const id = stableId("enshrinee", p.slug);
      const row = { id, slug: p.slug, fullName: p.fullName, firstName: p.firstName, lastName: p.lastName, biography: p.biography, biographyHtml: sanitizeRichText(p.biography) };
      await tx.insert(enshrinees).values(row).onConflictDoUpdate({ target: enshrinees.slug, set: row });
      await tx.delete(enshrineeExhibits).where(eq(enshrineeExhibits.enshrineeId, id));
      await tx
        .insert(enshrineeExhibits)
        .values([...new Set(p.exhibits)].map((slug) => ({ enshrineeId: id, exhibitId: stableId("exhibit", slug) })));
    }
    await tx.delete(bannerSlides);
    for (const variant of ["desktop", "mobile"] as const) {
      await tx.insert(bannerSlides).values(
        HOME_BANNERS.map((b, i) => ({
          variant,
          position: i,
          file: `banners/${variant}-${i + 1}.svg`,
          alt: `${b.title}: ${b.subtitle}`,
          ...BANNER_SIZE[variant],
        })),
      );
    }
  });
  logger?.info(
    { teams: collection.teams.length, exhibits: collection.exhibits.length, enshrinees: collection.enshrinees.length },
    "demo collection loaded",
  );
}
