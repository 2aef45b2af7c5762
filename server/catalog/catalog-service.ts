/**
 * The collection: teams, categories, exhibits, enshrinees and home banners. Every read takes
 * `member` and returns records already gated (server/catalog/gating.ts), and only the records
 * visible to the public at the injected clock's time (drafts and scheduled records are left out,
 * server/catalog/publication.ts).
 */
import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import type {
  BannerSlideView,
  CategoryView,
  EnshrineeSummary,
  EnshrineeView,
  ExhibitView,
  TeamView,
} from "../../app/shared/catalog-types";
import { imageUrl, logoUrl, PHOTO_HEIGHT, PORTRAIT_HEIGHT, THUMBNAIL_HEIGHT } from "../../app/shared/images";
import type { Database } from "../db/client";
import {
  bannerSlides,
  categories,
  enshrineeExhibits,
  enshrinees,
  exhibitPhotos,
  exhibits,
  teams,
} from "../db/schema";
import { gateEnshrinee, gateExhibit } from "./gating";
import { visibleAt } from "./publication";

export interface ExhibitFilter {
  team?: string;
  category?: string;
  active?: boolean;
  favoriteStory?: boolean;
}

type TeamRow = typeof teams.$inferSelect;

/** A team row as the public pages show it (also the console's preview). */
export function teamView(t: Omit<TeamRow, "updatedAt" | "version">): TeamView {
  return {
    _id: t.id,
    name: t.name,
    league: t.league,
    logo: logoUrl(imageUrl(t.logo)),
    logoAlt: `${t.name} badge`,
    headline: t.headline,
    description: t.description,
  };
}

export interface CatalogOptions {
  /** The clock that decides which scheduled records have appeared (tests inject one). */
  now?: () => Date;
  /** Staff preview only: drafts and scheduled records are read too. */
  unpublished?: boolean;
}

export function createCatalog(db: Database, { now = () => new Date(), unpublished = false }: CatalogOptions = {}) {
  const visible = (column: typeof exhibits.publishAt | typeof enshrinees.publishAt | typeof bannerSlides.publishAt) =>
    unpublished ? undefined : visibleAt(column, now());
  const visibleExhibit = () => visible(exhibits.publishAt);
  const visibleEnshrinee = () => visible(enshrinees.publishAt);
  const exhibitColumns = {
    id: exhibits.id,
    title: exhibits.title,
    shortTitle: exhibits.shortTitle,
    description: exhibits.description,
    descriptionHtml: exhibits.descriptionHtml,
    thumbnail: exhibits.thumbnail,
    thumbnailAlt: exhibits.thumbnailAlt,
    matchingPhoto: exhibits.matchingPhoto,
    matchingPhotoAlt: exhibits.matchingPhotoAlt,
    active: exhibits.active,
    year: exhibits.year,
    favoriteStory: exhibits.favoriteStory,
    teamId: teams.id,
    teamName: teams.name,
    categoryId: categories.id,
    categoryName: categories.categoryName,
  };

  async function selectExhibits(where: SQL | undefined, member: boolean): Promise<ExhibitView[]> {
    const rows = await db
      .select(exhibitColumns)
      .from(exhibits)
      .innerJoin(teams, eq(teams.id, exhibits.teamId))
      .innerJoin(categories, eq(categories.id, exhibits.categoryId))
      .where(and(visibleExhibit(), where))
      .orderBy(asc(exhibits.year), asc(exhibits.title));
    // Photos are member-only: visitors never cause them to be read.
    const photos = new Map<string, { file: string; alt: string }[]>();
    if (member && rows.length > 0) {
      const photoRows = await db
        .select()
        .from(exhibitPhotos)
        .where(inArray(exhibitPhotos.exhibitId, rows.map((r) => r.id)))
        .orderBy(asc(exhibitPhotos.exhibitId), asc(exhibitPhotos.position));
      for (const p of photoRows) {
        const list = photos.get(p.exhibitId) ?? [];
        list.push({ file: p.file, alt: p.alt });
        photos.set(p.exhibitId, list);
      }
    }
    return rows.map((r) => {
      const list = photos.get(r.id) ?? [];
      return gateExhibit(
        {
          _id: r.id,
          title: r.title,
          shortTitle: r.shortTitle,
          team: { _id: r.teamId, name: r.teamName },
          category: { _id: r.categoryId, categoryName: r.categoryName },
          active: r.active,
          year: r.year,
          favoriteStory: r.favoriteStory,
          description: r.description,
          descriptionHtml: r.descriptionHtml,
          // An exhibit saved before its photos (or imported without them) has no thumbnail: no image, not a broken one.
          thumbnailURL: r.thumbnail ? imageUrl(r.thumbnail, THUMBNAIL_HEIGHT) : undefined,
          thumbnailAlt: r.thumbnailAlt,
          exhibitPhotos: list.map((p) => imageUrl(p.file, PHOTO_HEIGHT)),
          exhibitPhotoAlts: list.map((p) => p.alt),
          matchingPhoto: r.matchingPhoto ? imageUrl(r.matchingPhoto, PHOTO_HEIGHT) : null,
          matchingPhotoAlt: r.matchingPhotoAlt,
        },
        member,
      );
    });
  }

  return {
    async listTeams(): Promise<TeamView[]> {
      const rows = await db.select().from(teams).orderBy(asc(teams.sortOrder), asc(teams.name));
      return rows.map(teamView);
    },

    async getTeam(id: string): Promise<TeamView | null> {
      const [row] = await db.select().from(teams).where(eq(teams.id, id)).limit(1);
      return row ? teamView(row) : null;
    },

    async listCategories(): Promise<CategoryView[]> {
      const rows = await db.select().from(categories).orderBy(asc(categories.sortOrder));
      return rows.map((c) => ({ _id: c.id, categoryName: c.categoryName }));
    },

    async getCategory(id: string): Promise<CategoryView | null> {
      const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      return row ? { _id: row.id, categoryName: row.categoryName } : null;
    },

    /** Categories in which `teamId` has at least one active exhibit (team page buttons). */
    async categoriesWithActiveExhibits(teamId: string): Promise<CategoryView[]> {
      const rows = await db
        .selectDistinct({ id: categories.id, categoryName: categories.categoryName, sortOrder: categories.sortOrder })
        .from(categories)
        .innerJoin(exhibits, eq(exhibits.categoryId, categories.id))
        .where(and(eq(exhibits.teamId, teamId), eq(exhibits.active, true), visibleExhibit()))
        .orderBy(asc(categories.sortOrder));
      return rows.map((c) => ({ _id: c.id, categoryName: c.categoryName }));
    },

    listExhibits(filter: ExhibitFilter, member: boolean): Promise<ExhibitView[]> {
      const conditions: SQL[] = [];
      if (filter.team) conditions.push(eq(exhibits.teamId, filter.team));
      if (filter.category) conditions.push(eq(exhibits.categoryId, filter.category));
      if (filter.active !== undefined) conditions.push(eq(exhibits.active, filter.active));
      if (filter.favoriteStory !== undefined) conditions.push(eq(exhibits.favoriteStory, filter.favoriteStory));
      return selectExhibits(conditions.length ? and(...conditions) : undefined, member);
    },

    async getExhibit(id: string, member: boolean): Promise<ExhibitView | null> {
      const [row] = await selectExhibits(eq(exhibits.id, id), member);
      return row ?? null;
    },

    async listEnshrinees(): Promise<EnshrineeSummary[]> {
      const rows = await db
        .select({ _id: enshrinees.id, fullName: enshrinees.fullName, firstName: enshrinees.firstName, lastName: enshrinees.lastName, portrait: enshrinees.portrait, portraitAlt: enshrinees.portraitAlt })
        .from(enshrinees)
        .where(visibleEnshrinee())
        .orderBy(asc(enshrinees.lastName), asc(enshrinees.firstName));
      return rows.map((r) => ({ ...r, ...portraitView(r) }));
    },

    async getEnshrinee(id: string, member: boolean): Promise<EnshrineeView | null> {
      const [row] = await db.select().from(enshrinees).where(and(eq(enshrinees.id, id), visibleEnshrinee())).limit(1);
      if (!row) return null;
      const links = await db
        .select({ exhibitId: enshrineeExhibits.exhibitId })
        .from(enshrineeExhibits)
        .where(eq(enshrineeExhibits.enshrineeId, id));
      const linked = links.length
        ? await selectExhibits(inArray(exhibits.id, links.map((l) => l.exhibitId)), member)
        : [];
      return gateEnshrinee(
        {
          _id: row.id,
          fullName: row.fullName,
          firstName: row.firstName,
          lastName: row.lastName,
          ...portraitView(row),
          biography: row.biography,
          biographyHtml: row.biographyHtml,
          exhibits: sortByYear(linked),
        },
        member,
      );
    },

    async bannerSlides(): Promise<{ desktop: BannerSlideView[]; mobile: BannerSlideView[] }> {
      const rows = await db.select().from(bannerSlides).where(visible(bannerSlides.publishAt)).orderBy(asc(bannerSlides.position));
      const view = (variant: "desktop" | "mobile") =>
        rows
          .filter((r) => r.variant === variant)
          .map(bannerSlideView);
      return { desktop: view("desktop"), mobile: view("mobile") };
    },

    /**
     * The photos and portraits (media keys) of the exhibits and enshrinees visible now: a photo or
     * portrait of a draft, a record scheduled for later or one in the trash is not among them, and
     * the image route answers 404 for it to everyone but staff (decision 047).
     */
    async publicRecordMedia(): Promise<Set<string>> {
      const [exhibitRows, photoRows, portraitRows] = await Promise.all([
        db.select({ thumbnail: exhibits.thumbnail, matchingPhoto: exhibits.matchingPhoto }).from(exhibits).where(visibleExhibit()),
        db.select({ file: exhibitPhotos.file }).from(exhibitPhotos).innerJoin(exhibits, eq(exhibits.id, exhibitPhotos.exhibitId)).where(visibleExhibit()),
        db.select({ file: enshrinees.portrait }).from(enshrinees).where(visibleEnshrinee()),
      ]);
      const files = [...exhibitRows.flatMap((e) => [e.thumbnail, e.matchingPhoto]), ...photoRows.map((p) => p.file), ...portraitRows.map((p) => p.file)];
      return new Set(files.filter((f): f is string => Boolean(f)));
    },

    async isEmpty(): Promise<boolean> {
      const [row] = await db.select({ id: teams.id }).from(teams).limit(1);
      return !row;
    },
  };
}

/**
 * Whether an exhibit or enshrinee visible at `now` names `file` (photo, thumbnail, matching photo,
 * portrait), read now: the image route asks it for a file missing from the cached
 * `publicRecordMedia`, so a photo just added on another instance is not refused before that
 * instance's cache hears of it (decision 047).
 */
export async function namesVisibleMedia(db: Database, file: string, now: Date): Promise<boolean> {
  const shown = (publishAt: typeof exhibits.publishAt | typeof enshrinees.publishAt) => visibleAt(publishAt, now);
  const [exhibit, photo, portrait] = await Promise.all([
    db.select({ id: exhibits.id }).from(exhibits).where(and(or(eq(exhibits.thumbnail, file), eq(exhibits.matchingPhoto, file)), shown(exhibits.publishAt))).limit(1),
    db.select({ id: exhibits.id }).from(exhibitPhotos).innerJoin(exhibits, eq(exhibits.id, exhibitPhotos.exhibitId)).where(and(eq(exhibitPhotos.file, file), shown(exhibits.publishAt))).limit(1),
    db.select({ id: enshrinees.id }).from(enshrinees).where(and(eq(enshrinees.portrait, file), shown(enshrinees.publishAt))).limit(1),
  ]);
  return exhibit.length + photo.length + portrait.length > 0;
}

/** A banner slide as the home page shows it (also the console's preview). */
/** An enshrinee's portrait address and description (public: decision 033). */
export function portraitView(r: { portrait: string | null; portraitAlt: string | null }): { portrait: string | null; portraitAlt: string } {
  return r.portrait ? { portrait: imageUrl(r.portrait, PORTRAIT_HEIGHT), portraitAlt: r.portraitAlt ?? "" } : { portrait: null, portraitAlt: "" };
}

export function bannerSlideView(r: { file: string; alt: string; width: number; height: number }): BannerSlideView {
  return { src: imageUrl(r.file, r.height), alt: r.alt, width: r.width, height: r.height };
}

/** Exhibits and Mentions order: year ascending, then title. */
export function sortByYear<T extends { year: number; title: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.year - b.year || a.title.localeCompare(b.title));
}

export type Catalog = ReturnType<typeof createCatalog>;
