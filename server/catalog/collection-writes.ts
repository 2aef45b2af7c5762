/**
 * The catalog's writes, as staff make them from the console: teams, categories, exhibits,
 * enshrinees and the home banner's slides. Every change runs in one transaction that also writes
 * its audit row and the change notification (server/catalog/change-feed.ts), so every
 * instance's catalog and page caches forget the old collection the moment it commits, and a
 * rolled-back change tells nobody.
 * Deleting something another record depends on is refused with a message saying what.
 * Lists are paged, sorted and searched in SQL.
 */
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { slugify } from "../../app/shared/text";
import type { Database } from "../db/client";
import { bannerSlides, categories, enshrineeExhibits, enshrinees, exhibitPhotos, exhibits, teams } from "../db/schema";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import { plainTextOf, sanitizeRichText } from "./rich-text";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface CollectionDeps {
  db: Database;
  now?: () => Date;
  /**
   * Tells every instance that the collection changed: inside `tx`, delivered when it commits;
   * without, at once and this process's caches cleared without waiting for the echo.
   */
  notifyChange: (tx?: Database) => Promise<void>;
}

export interface ListQuery {
  q?: string;
  sort?: string;
  dir?: "asc" | "desc";
  page: number;
  pageSize: number;
}

export interface TeamInput {
  name: string;
  league: string;
  logo: string;
  headline: string;
  description: string;
  sortOrder: number;
}
export interface CategoryInput {
  categoryName: string;
  sortOrder: number;
}
export interface ExhibitInput {
  teamId: string;
  categoryId: string;
  title: string;
  shortTitle: string;
  descriptionHtml: string;
  thumbnail: string;
  thumbnailAlt: string;
  matchingPhoto: string | null;
  matchingPhotoAlt: string | null;
  active: boolean;
  year: number;
  favoriteStory: boolean;
  enshrineeIds: string[];
}
export interface EnshrineeInput {
  fullName: string;
  firstName: string;
  lastName: string;
  /** As typed: rich text (HTML) or plain paragraphs; stored sanitized, with its plain text (decision 033). */
  biography: string;
}

/** The stored columns of a biography as typed: the sanitized HTML and the plain text search reads. */
export function biographyColumns(typed: string): { biography: string; biographyHtml: string } {
  const biographyHtml = sanitizeRichText(typed);
  return { biography: plainTextOf(biographyHtml), biographyHtml };
}
export interface BannerSlideInput {
  variant: "desktop" | "mobile";
  file: string;
  alt: string;
  width: number;
  height: number;
}

/** `%term%` for ILIKE, with the user's own wildcards taken literally. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function order(column: AnyPgColumn, dir: "asc" | "desc" | undefined) {
  return dir === "desc" ? desc(column) : asc(column);
}

export function createCollectionWrites({ db, now = () => new Date(), notifyChange }: CollectionDeps) {
  /** Runs a change with its audit row and the change notification, in one transaction. */
  async function change<T extends Saved>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await db.transaction(async (tx) => {
      const outcome = await fn(tx);
      if (outcome.ok) await notifyChange(tx as unknown as Database);
      return outcome;
    });
    // The staff member's next page comes from this process: clear its caches now rather than
    // when the notification's echo arrives (the other instances clear on the echo).
    if (result.ok) await notifyChange();
    return result;
  }

  /** A slug for `text` not used by another row of `table` (the readable part of addresses). */
  async function freeSlug(tx: Tx, table: typeof teams | typeof categories | typeof exhibits | typeof enshrinees, text: string, id: string | null): Promise<string> {
    const base = slugify(text);
    for (let i = 1; i < 50; i++) {
      const slug = i === 1 ? base : `${base}-${i}`;
      const where = id ? and(eq(table.slug, slug), ne(table.id, id)) : eq(table.slug, slug);
      const [taken] = await tx.select({ id: table.id }).from(table).where(where).limit(1);
      if (!taken) return slug;
    }
    return `${base}-${crypto.randomUUID().slice(0, 8)}`;
  }

  async function paged<Row>(rowsQuery: Promise<Row[]>, countQuery: Promise<{ total: number }[]>) {
    const [rows, [{ total }]] = await Promise.all([rowsQuery, countQuery]);
    return { rows, total };
  }

  // ---- teams ---------------------------------------------------------------------------------

  const teamSorts = { name: teams.name, league: teams.league, order: teams.sortOrder } as const;

  const teamsAdmin = {
    async list(query: ListQuery) {
      const where = query.q ? or(ilike(teams.name, likeTerm(query.q)), ilike(teams.league, likeTerm(query.q))) : undefined;
      const sortColumn = teamSorts[(query.sort ?? "order") as keyof typeof teamSorts] ?? teams.sortOrder;
      const exhibitCount = db.$count(exhibits, eq(exhibits.teamId, teams.id));
      return paged(
        db
          .select({ id: teams.id, name: teams.name, league: teams.league, sortOrder: teams.sortOrder, exhibits: exhibitCount })
          .from(teams)
          .where(where)
          .orderBy(order(sortColumn, query.dir), asc(teams.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(teams).where(where),
      );
    },
    async options() {
      return db.select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.sortOrder), asc(teams.name));
    },
    async get(id: string) {
      const [row] = await db.select().from(teams).where(eq(teams.id, id)).limit(1);
      return row ?? null;
    },
    save(actor: Actor, id: string | null, input: TeamInput): Promise<Saved> {
      return change(async (tx) => {
        const [before] = id ? await tx.select().from(teams).where(eq(teams.id, id)).for("update") : [undefined];
        if (id && !before) return { ok: false, message: "This team no longer exists." };
        const slug = await freeSlug(tx, teams, input.name, id);
        const [after] = before
          ? await tx.update(teams).set({ ...input, slug }).where(eq(teams.id, before.id)).returning()
          : await tx.insert(teams).values({ id: crypto.randomUUID(), slug, ...input }).returning();
        await recordAudit(tx, actor, { action: before ? "team.update" : "team.create", entityType: "team", entityId: after.id, summary: `${before ? "Edited" : "Created"} team ${after.name}`, before, after }, now());
        return { ok: true, id: after.id, message: `Team ${after.name} saved.` };
      });
    },
    remove(actor: Actor, id: string): Promise<Saved> {
      return change(async (tx) => {
        const [before] = await tx.select().from(teams).where(eq(teams.id, id)).for("update");
        if (!before) return { ok: false, message: "This team no longer exists." };
        const n = await tx.$count(exhibits, eq(exhibits.teamId, id));
        if (n > 0) return { ok: false, message: `${before.name} still has ${n} exhibit${n === 1 ? "" : "s"}: move or delete them first.` };
        await tx.delete(teams).where(eq(teams.id, id));
        await recordAudit(tx, actor, { action: "team.delete", entityType: "team", entityId: id, summary: `Deleted team ${before.name}`, before }, now());
        return { ok: true, id, message: `Team ${before.name} deleted.` };
      });
    },
  };

  // ---- categories ------------------------------------------------------------------------------

  const categorySorts = { name: categories.categoryName, order: categories.sortOrder } as const;

  const categoriesAdmin = {
    async list(query: ListQuery) {
      const where = query.q ? ilike(categories.categoryName, likeTerm(query.q)) : undefined;
      const sortColumn = categorySorts[(query.sort ?? "order") as keyof typeof categorySorts] ?? categories.sortOrder;
      const exhibitCount = db.$count(exhibits, eq(exhibits.categoryId, categories.id));
      return paged(
        db
          .select({ id: categories.id, categoryName: categories.categoryName, sortOrder: categories.sortOrder, exhibits: exhibitCount })
          .from(categories)
          .where(where)
          .orderBy(order(sortColumn, query.dir), asc(categories.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(categories).where(where),
      );
    },
    async options() {
      return db.select({ id: categories.id, name: categories.categoryName }).from(categories).orderBy(asc(categories.sortOrder));
    },
    async get(id: string) {
      const [row] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
      return row ?? null;
    },
    save(actor: Actor, id: string | null, input: CategoryInput): Promise<Saved> {
      return change(async (tx) => {
        const [before] = id ? await tx.select().from(categories).where(eq(categories.id, id)).for("update") : [undefined];
        if (id && !before) return { ok: false, message: "This category no longer exists." };
        const slug = await freeSlug(tx, categories, input.categoryName, id);
        const [after] = before
          ? await tx.update(categories).set({ ...input, slug }).where(eq(categories.id, before.id)).returning()
          : await tx.insert(categories).values({ id: crypto.randomUUID(), slug, ...input }).returning();
        await recordAudit(tx, actor, { action: before ? "category.update" : "category.create", entityType: "category", entityId: after.id, summary: `${before ? "Edited" : "Created"} category ${after.categoryName}`, before, after }, now());
        return { ok: true, id: after.id, message: `Category ${after.categoryName} saved.` };
      });
    },
    remove(actor: Actor, id: string): Promise<Saved> {
      return change(async (tx) => {
        const [before] = await tx.select().from(categories).where(eq(categories.id, id)).for("update");
        if (!before) return { ok: false, message: "This category no longer exists." };
        const n = await tx.$count(exhibits, eq(exhibits.categoryId, id));
        if (n > 0) return { ok: false, message: `${before.categoryName} still has ${n} exhibit${n === 1 ? "" : "s"}: move or delete them first.` };
        await tx.delete(categories).where(eq(categories.id, id));
        await recordAudit(tx, actor, { action: "category.delete", entityType: "category", entityId: id, summary: `Deleted category ${before.categoryName}`, before }, now());
        return { ok: true, id, message: `Category ${before.categoryName} deleted.` };
      });
    },
  };

  // ---- exhibits --------------------------------------------------------------------------------

  const exhibitSorts = { title: exhibits.title, year: exhibits.year, team: teams.name, category: categories.categoryName } as const;

  /** The exhibit with what the audit row and the edit page need: photos and linked enshrinees. */
  async function exhibitRecord(tx: Pick<Database, "select">, id: string) {
    const [row] = await tx.select().from(exhibits).where(eq(exhibits.id, id)).limit(1);
    if (!row) return null;
    const [photos, links] = await Promise.all([
      tx.select({ position: exhibitPhotos.position, file: exhibitPhotos.file, alt: exhibitPhotos.alt }).from(exhibitPhotos).where(eq(exhibitPhotos.exhibitId, id)).orderBy(asc(exhibitPhotos.position)),
      tx.select({ id: enshrineeExhibits.enshrineeId }).from(enshrineeExhibits).where(eq(enshrineeExhibits.exhibitId, id)),
    ]);
    return { ...row, photos, enshrineeIds: links.map((l) => l.id).sort() };
  }

  const exhibitsAdmin = {
    async list(query: ListQuery & { team?: string; category?: string; active?: boolean }) {
      const where: SQL[] = [];
      if (query.q) where.push(or(ilike(exhibits.title, likeTerm(query.q)), ilike(exhibits.shortTitle, likeTerm(query.q)))!);
      if (query.team) where.push(eq(exhibits.teamId, query.team));
      if (query.category) where.push(eq(exhibits.categoryId, query.category));
      if (query.active !== undefined) where.push(eq(exhibits.active, query.active));
      const condition = where.length ? and(...where) : undefined;
      const sortColumn = exhibitSorts[(query.sort ?? "title") as keyof typeof exhibitSorts] ?? exhibits.title;
      return paged(
        db
          .select({
            id: exhibits.id,
            title: exhibits.title,
            shortTitle: exhibits.shortTitle,
            year: exhibits.year,
            active: exhibits.active,
            favoriteStory: exhibits.favoriteStory,
            team: teams.name,
            category: categories.categoryName,
          })
          .from(exhibits)
          .innerJoin(teams, eq(teams.id, exhibits.teamId))
          .innerJoin(categories, eq(categories.id, exhibits.categoryId))
          .where(condition)
          .orderBy(order(sortColumn, query.dir), asc(exhibits.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(exhibits).where(condition),
      );
    },
    get: (id: string) => exhibitRecord(db, id),
    save(actor: Actor, id: string | null, input: ExhibitInput): Promise<Saved> {
      return change(async (tx) => {
        const before = id ? await exhibitRecord(tx, id) : null;
        if (id && !before) return { ok: false, message: "This exhibit no longer exists." };
        if (id) await tx.select({ id: exhibits.id }).from(exhibits).where(eq(exhibits.id, id)).for("update");
        const [team] = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, input.teamId));
        const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
        if (!team || !category) return { ok: false, message: "Please choose a team and a category that exist.", errors: { ...(team ? {} : { teamId: "Please choose a team" }), ...(category ? {} : { categoryId: "Please choose a category" }) } };
        const descriptionHtml = sanitizeRichText(input.descriptionHtml);
        const { enshrineeIds, ...fields } = input;
        const values = { ...fields, descriptionHtml, description: plainTextOf(descriptionHtml), slug: await freeSlug(tx, exhibits, input.title, id) };
        const exhibitId = before ? before.id : crypto.randomUUID();
        if (before) await tx.update(exhibits).set(values).where(eq(exhibits.id, exhibitId));
        else await tx.insert(exhibits).values({ id: exhibitId, ...values });
        const known = enshrineeIds.length ? await tx.select({ id: enshrinees.id }).from(enshrinees).where(inArray(enshrinees.id, enshrineeIds)) : [];
        await tx.delete(enshrineeExhibits).where(eq(enshrineeExhibits.exhibitId, exhibitId));
        if (known.length) await tx.insert(enshrineeExhibits).values(known.map((e) => ({ enshrineeId: e.id, exhibitId })));
        const after = await exhibitRecord(tx, exhibitId);
        await recordAudit(tx, actor, { action: before ? "exhibit.update" : "exhibit.create", entityType: "exhibit", entityId: exhibitId, summary: `${before ? "Edited" : "Created"} exhibit ${input.title}`, before, after }, now());
        return { ok: true, id: exhibitId, message: `Exhibit ${input.title} saved.` };
      });
    },
    remove(actor: Actor, id: string): Promise<Saved> {
      return change(async (tx) => {
        const before = await exhibitRecord(tx, id);
        if (!before) return { ok: false, message: "This exhibit no longer exists." };
        if (before.enshrineeIds.length) {
          const names = await tx.select({ name: enshrinees.fullName }).from(enshrinees).where(inArray(enshrinees.id, before.enshrineeIds));
          return { ok: false, message: `${before.title} is linked to ${names.map((n) => n.name).join(", ")}: unlink ${names.length === 1 ? "that enshrinee" : "those enshrinees"} first.` };
        }
        await tx.delete(exhibits).where(eq(exhibits.id, id));
        await recordAudit(tx, actor, { action: "exhibit.delete", entityType: "exhibit", entityId: id, summary: `Deleted exhibit ${before.title}`, before }, now());
        return { ok: true, id, message: `Exhibit ${before.title} deleted.` };
      });
    },
  };

  // ---- enshrinees ------------------------------------------------------------------------------

  const enshrineeSorts = { fullName: enshrinees.fullName, lastName: enshrinees.lastName } as const;

  const enshrineesAdmin = {
    async list(query: ListQuery) {
      const where = query.q ? ilike(enshrinees.fullName, likeTerm(query.q)) : undefined;
      const sortColumn = enshrineeSorts[(query.sort ?? "lastName") as keyof typeof enshrineeSorts] ?? enshrinees.lastName;
      const exhibitCount = db.$count(enshrineeExhibits, eq(enshrineeExhibits.enshrineeId, enshrinees.id));
      return paged(
        db
          .select({ id: enshrinees.id, fullName: enshrinees.fullName, lastName: enshrinees.lastName, exhibits: exhibitCount })
          .from(enshrinees)
          .where(where)
          .orderBy(order(sortColumn, query.dir), asc(enshrinees.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(enshrinees).where(where),
      );
    },
    async options() {
      return db.select({ id: enshrinees.id, name: enshrinees.fullName }).from(enshrinees).orderBy(asc(enshrinees.lastName), asc(enshrinees.firstName));
    },
    async get(id: string) {
      const [row] = await db.select().from(enshrinees).where(eq(enshrinees.id, id)).limit(1);
      if (!row) return null;
      const linked = await db
        .select({ id: exhibits.id, title: exhibits.title, year: exhibits.year })
        .from(enshrineeExhibits)
        .innerJoin(exhibits, eq(exhibits.id, enshrineeExhibits.exhibitId))
        .where(eq(enshrineeExhibits.enshrineeId, id))
        .orderBy(asc(exhibits.year), asc(exhibits.title));
      return { ...row, exhibits: linked };
    },
    save(actor: Actor, id: string | null, input: EnshrineeInput): Promise<Saved> {
      return change(async (tx) => {
        const [before] = id ? await tx.select().from(enshrinees).where(eq(enshrinees.id, id)).for("update") : [undefined];
        if (id && !before) return { ok: false, message: "This enshrinee no longer exists." };
        const slug = await freeSlug(tx, enshrinees, input.fullName, id);
        const values = { ...input, ...biographyColumns(input.biography), slug };
        const [after] = before
          ? await tx.update(enshrinees).set(values).where(eq(enshrinees.id, before.id)).returning()
          : await tx.insert(enshrinees).values({ id: crypto.randomUUID(), ...values }).returning();
        await recordAudit(tx, actor, { action: before ? "enshrinee.update" : "enshrinee.create", entityType: "enshrinee", entityId: after.id, summary: `${before ? "Edited" : "Created"} enshrinee ${after.fullName}`, before, after }, now());
        return { ok: true, id: after.id, message: `${after.fullName} saved.` };
      });
    },
    /** Deleting an enshrinee removes their links; the exhibits stay. */
    remove(actor: Actor, id: string): Promise<Saved> {
      return change(async (tx) => {
        const [before] = await tx.select().from(enshrinees).where(eq(enshrinees.id, id)).for("update");
        if (!before) return { ok: false, message: "This enshrinee no longer exists." };
        const links = await tx.select({ exhibitId: enshrineeExhibits.exhibitId }).from(enshrineeExhibits).where(eq(enshrineeExhibits.enshrineeId, id));
        await tx.delete(enshrinees).where(eq(enshrinees.id, id));
        await recordAudit(tx, actor, { action: "enshrinee.delete", entityType: "enshrinee", entityId: id, summary: `Deleted enshrinee ${before.fullName}`, before: { ...before, exhibitIds: links.map((l) => l.exhibitId) } }, now());
        return { ok: true, id, message: `${before.fullName} deleted.` };
      });
    },
  };

  // ---- home banner -----------------------------------------------------------------------------

  async function slidesOf(tx: Pick<Database, "select">, variant: "desktop" | "mobile") {
    return tx.select().from(bannerSlides).where(eq(bannerSlides.variant, variant)).orderBy(asc(bannerSlides.position));
  }

  /** Writes a variant's slides anew in the given order (positions 0..n-1). */
  async function rewriteSlides(tx: Tx, variant: "desktop" | "mobile", slides: Omit<typeof bannerSlides.$inferInsert, "variant" | "position">[]) {
    await tx.delete(bannerSlides).where(eq(bannerSlides.variant, variant));
    if (slides.length) await tx.insert(bannerSlides).values(slides.map((s, position) => ({ ...s, variant, position })));
  }

  const bannerAdmin = {
    async list() {
      const [desktop, mobile] = await Promise.all([slidesOf(db, "desktop"), slidesOf(db, "mobile")]);
      return { desktop, mobile };
    },
    /** Adds a slide at the end, edits one (`position` given), moves one up or down, or removes one. */
    edit(actor: Actor, variant: "desktop" | "mobile", op: { kind: "add"; slide: BannerSlideInput } | { kind: "update"; position: number; slide: BannerSlideInput } | { kind: "move"; position: number; by: -1 | 1 } | { kind: "remove"; position: number }): Promise<Saved> {
      return change(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(7172015)`);
        const before = await slidesOf(tx, variant);
        const slides = before.map(({ variant: _v, position: _p, ...rest }) => rest);
        const at = "position" in op ? before.findIndex((s) => s.position === op.position) : -1;
        if (op.kind !== "add" && at < 0) return { ok: false, message: "That slide no longer exists." };
        if (op.kind === "add") slides.push({ file: op.slide.file, alt: op.slide.alt, width: op.slide.width, height: op.slide.height });
        if (op.kind === "update") slides[at] = { file: op.slide.file, alt: op.slide.alt, width: op.slide.width, height: op.slide.height };
        if (op.kind === "remove") slides.splice(at, 1);
        if (op.kind === "move") {
          const to = at + op.by;
          if (to < 0 || to >= slides.length) return { ok: false, message: "That slide cannot move further." };
          [slides[at], slides[to]] = [slides[to], slides[at]];
        }
        await rewriteSlides(tx, variant, slides);
        const after = await slidesOf(tx, variant);
        await recordAudit(tx, actor, { action: `banner.${op.kind}`, entityType: "banner", entityId: variant, summary: `${variant} banner: ${op.kind} slide`, before, after }, now());
        return { ok: true, id: variant, message: `The ${variant} banner is saved.` };
      });
    },
  };

  return { teams: teamsAdmin, categories: categoriesAdmin, exhibits: exhibitsAdmin, enshrinees: enshrineesAdmin, banner: bannerAdmin };
}

export type CollectionWrites = ReturnType<typeof createCollectionWrites>;
