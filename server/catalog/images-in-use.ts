/**
 * The renditions the public pages ask for, most visible first: the first slide of each home
 * banner at every height of its srcset (the home page's largest paint), team logos, the other slides, exhibit thumbnails (with their 2x companions), then exhibit and
 * matching photos with the photo strip under the carousel. The rendition warmer
 * (server/images/rendition-warmer.ts) makes the missing ones before a visitor asks.
 */
import { asc } from "drizzle-orm";
import { bannerHeights, LOGO_HEIGHT, PHOTO_HEIGHT, PHOTO_STRIP_HEIGHT, renditionHeight, THUMBNAIL_HEIGHT } from "../../app/shared/images";
import type { Database } from "../db/client";
import { bannerSlides, exhibitPhotos, exhibits, teams } from "../db/schema";

export interface WantedRendition {
  file: string;
  height: number;
  /** On the home page (banners, logos): the first visitor after a start waits for these, so they go first and at once (decision 041). */
  home?: boolean;
}

export async function imagesInUse(db: Database): Promise<WantedRendition[]> {
  const [slides, logos, exhibitRows, photos] = await Promise.all([
    db.select({ file: bannerSlides.file, height: bannerSlides.height, variant: bannerSlides.variant }).from(bannerSlides).orderBy(asc(bannerSlides.position)),
    db.select({ file: teams.logo }).from(teams).orderBy(asc(teams.sortOrder)),
    db.select({ thumbnail: exhibits.thumbnail, matchingPhoto: exhibits.matchingPhoto }).from(exhibits).orderBy(asc(exhibits.id)),
    db.select({ file: exhibitPhotos.file }).from(exhibitPhotos).orderBy(asc(exhibitPhotos.exhibitId), asc(exhibitPhotos.position)),
  ]);
  // Every height of a slide's srcset (the browser picks by its width) and the slide's own.
  const slideRenditions = (s: (typeof slides)[number]) => [...bannerHeights(s.height), renditionHeight(s.height)].map((height) => ({ file: s.file, height, home: true }));
  const firsts = new Set([slides.find((s) => s.variant === "desktop"), slides.find((s) => s.variant === "mobile")]);
  const wanted: WantedRendition[] = [
    // The first slide of each banner is the home page's largest paint.
    ...slides.filter((s) => firsts.has(s)).flatMap(slideRenditions),
    ...logos.map((t) => ({ file: t.file, height: LOGO_HEIGHT, home: true })),
    ...slides.filter((s) => !firsts.has(s)).flatMap(slideRenditions),
    ...exhibitRows.flatMap((e) => [
      { file: e.thumbnail, height: THUMBNAIL_HEIGHT },
      { file: e.thumbnail, height: THUMBNAIL_HEIGHT * 2 },
    ]),
    ...photos.flatMap((p) => [
      { file: p.file, height: PHOTO_HEIGHT },
      { file: p.file, height: PHOTO_STRIP_HEIGHT },
    ]),
    ...exhibitRows.flatMap((e) => (e.matchingPhoto ? [{ file: e.matchingPhoto, height: PHOTO_HEIGHT }] : [])),
  ];
  const seen = new Set<string>();
  return wanted.filter((w) => {
    const key = `${w.file}@${w.height}`;
    if (!w.file || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
