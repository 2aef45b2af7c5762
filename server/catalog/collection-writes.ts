/**
 * The catalog's writes, as staff make them from the console: teams, categories, exhibits,
 * enshrinees and the home banner's slides. Every change runs in one transaction that also writes
 * its audit row and the change notification (server/catalog/change-feed.ts), so every
 * instance's catalog and page caches forget the old collection the moment it commits, and a
 * rolled-back change tells nobody.
 * Deleting something another record depends on is refused with a message saying what.
 * Lists are paged, sorted and searched in SQL.
 */
import { createHash } from "node:crypto";
import { and, asc, count, desc, eq, gt, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import { auditLog, bannerSlides, categories, enshrineeExhibits, enshrinees, exhibitPhotos, exhibits, teams } from "../db/schema";
import { recordAudit, refusedAsConflict, type Actor, type Saved } from "../audit/audit-trail";
import { CONFLICT_MESSAGE, type FieldValue } from "../../app/shared/edit-conflict";
import { mergeEdit, textDifference } from "./edit-merge";
import { plainTextOf, sanitizeRichText } from "./rich-text";
import { commitChange, freeSlug, type Tx } from "./collection-tx";
import { trashBannerSlide, trashRecord } from "./collection-trash";
import type { Publication } from "../../app/shared/publication";
import { PUBLISHED_ALWAYS, publishAtFor } from "./publication";
import type { MediaStorage } from "../media/media-storage";
import { exhibitCopies } from "../media/library-copies";
import { removeDiskCopies } from "../media/media-release";

export interface CollectionDeps {
  db: Database;
  now?: () => Date;
  /**
   * Tells every instance that the collection changed: inside `tx`, delivered when it commits;
   * without, at once and this process's caches cleared without waiting for the echo.
   */
  notifyChange: (tx?: Database) => Promise<void>;
  /**
   * The media store: a library image saved as an exhibit's thumbnail or matching photo becomes
   * the exhibit's own member-only copy (library-copies.ts). Without it (a version's restore,
   * which keeps the current images) paths are saved as given.
   */
  storage?: MediaStorage;
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
  /** Draft, scheduled or published (decision 032); left as it is when not given. */
  publication?: Publication;
}
export interface EnshrineeInput {
  fullName: string;
  firstName: string;
  lastName: string;
  /** As typed: rich text (HTML) or plain paragraphs; stored sanitized, with its plain text (decision 033). */
  biography: string;
  /** Draft, scheduled or published (decision 032); left as it is when not given. */
  publication?: Publication;
}

/** The stored columns of a biography as typed: the sanitized HTML and the plain text search reads. */
export function biographyColumns(typed: string): { biography: string; biographyHtml: string | null } {
  const biographyHtml = sanitizeRichText(typed);
  // No biography is one state, stored as null (a CSV export and import give it back the same).
  return { biography: plainTextOf(biographyHtml), biographyHtml: biographyHtml || null };
}
export interface BannerSlideInput {
  variant: "desktop" | "mobile";
  file: string;
  alt: string;
  width: number;
  height: number;
  /** Draft, scheduled or published (decision 032); left as it is when not given. */
  publication?: Publication;
}

/** `%term%` for ILIKE, with the user's own wildcards taken literally. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The long texts merged paragraph by paragraph rather than as one value (edit-merge.ts). */
const LONG_TEXTS: ReadonlySet<string> = new Set(["descriptionHtml", "biography", "description"]);

/**
 * A save whose form started from version `expected` while `before` (locked) is at another one
 * (decision 029): merged with what was saved since when the record as the form showed it
 * (`base`, from the audit log) is known (decision 050): the input to save, with the
 * fields whose value came from the other save; else, when both changed a field differently, the
 * refusal, with those fields to choose and the merged ones to carry along. A form that started
 * from the current version saves as it is.
 */
export function staleSave<I extends object>(expected: number | undefined, before: { version: number } & object, input: I, base?: object): { refused: Saved } | { input: I; taken: string[] } {
  if (expected === undefined || expected === before.version) return { input, taken: [] };
  const row = before as unknown as Record<string, unknown>;
  // A draft/schedule choice (decision 032) is not a column: it is applied as chosen, not compared.
  const { publication: _publication, ...fields } = input as Record<string, unknown>;
  const mine = fields as Record<string, FieldValue>;
  const pick = (record: Record<string, unknown>) => Object.fromEntries(Object.keys(mine).map((k) => [k, (record[k] ?? null) as FieldValue]));
  const theirs = pick(row);
  const outcome = mergeEdit(mine, theirs, base ? pick(base as Record<string, unknown>) : undefined, LONG_TEXTS);
  if (outcome.conflicts.length === 0) return { input: { ...input, ...outcome.merged }, taken: outcome.taken };
  const textOf = (v: FieldValue) => (typeof v === "string" ? v : null);
  const fieldsInConflict = outcome.conflicts.map((field) => {
    const m = textOf(mine[field]);
    const t = textOf(theirs[field]);
    return { field, mine: mine[field], theirs: theirs[field], ...(LONG_TEXTS.has(field) && m !== null && t !== null ? { difference: textDifference(m, t) } : {}) };
  });
  const taken = outcome.taken.map((field) => ({ field, theirs: outcome.merged[field] }));
  return { refused: { ok: false, message: CONFLICT_MESSAGE, conflict: { version: String(before.version), fields: fieldsInConflict, ...(taken.length ? { taken } : {}) } } };
}

/**
 * The record as it was at `version` (what a form opened then showed), from the audit log: the
 * save that made that version, or the first change's `before` for the version before it.
 */
async function stateAtVersion(tx: Pick<Database, "select">, kind: "team" | "category" | "exhibit" | "enshrinee", id: string, version: number | undefined, current: number): Promise<Record<string, unknown> | undefined> {
  if (version === undefined || version === current) return undefined;
  const at = (side: typeof auditLog.after | typeof auditLog.before) =>
    tx
      .select({ state: side })
      .from(auditLog)
      // A photo write's rows hold the version before its bump (photo-writes.ts): they name no version.
      .where(and(eq(auditLog.entityType, kind), eq(auditLog.entityId, id), sql`${side}->>'version' = ${String(version)}`, sql`${auditLog.action} not like '%.photos.%'`))
      .orderBy(desc(auditLog.at))
      .limit(1);
  const [made] = await at(auditLog.after);
  if (made?.state) return made.state as Record<string, unknown>;
  const [earlier] = await at(auditLog.before);
  return (earlier?.state as Record<string, unknown> | undefined) ?? undefined;
}

/** What a saved answer says when fields were merged with another person's save. */
const mergedNote = (taken: string[]) => (taken.length ? { merged: taken } : {});

/** An exhibit as its edit form shows it: a seeded text (plain only) as the editor's HTML, enshrinees sorted. */
function exhibitAsShown<T extends { descriptionHtml?: unknown; description?: unknown; enshrineeIds?: unknown }>(x: T): T {
  const ids = Array.isArray(x.enshrineeIds) ? [...(x.enshrineeIds as string[])].sort() : [];
  return { ...x, descriptionHtml: typeof x.descriptionHtml === "string" ? x.descriptionHtml : sanitizeRichText(String(x.description ?? "")), enshrineeIds: ids };
}

/** An enshrinee as its edit form shows it: the biography's HTML (a plain one as paragraphs), not its plain text. */
function enshrineeAsShown<T extends { biographyHtml?: unknown; biography?: unknown }>(e: T): T {
  return { ...e, biography: typeof e.biographyHtml === "string" && e.biographyHtml ? e.biographyHtml : sanitizeRichText(String(e.biography ?? "")) };
}

function order(column: AnyPgColumn, dir: "asc" | "desc" | undefined) {
  return dir === "desc" ? desc(column) : asc(column);
}

export function createCollectionWrites({ db, now = () => new Date(), notifyChange, storage }: CollectionDeps) {
  /** Runs a change with its audit row and the change notification, in one transaction. */
  const change = <T extends Saved>(fn: (tx: Tx) => Promise<T>) => commitChange(db, notifyChange, fn);

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
    save(actor: Actor, id: string | null, typed: TeamInput, expectedVersion?: number): Promise<Saved> {
      return change(async (tx) => {
        const [before] = id ? await tx.select().from(teams).where(eq(teams.id, id)).for("update") : [undefined];
        if (id && !before) return { ok: false, message: "This team no longer exists." };
        const stale = before ? staleSave(expectedVersion, before, typed, await stateAtVersion(tx, "team", before.id, expectedVersion, before.version)) : { input: typed, taken: [] };
        if ("refused" in stale) return stale.refused;
        const input = stale.input;
        const slug = await freeSlug(tx, teams, input.name, id);
        const [after] = before
          ? await tx.update(teams).set({ ...input, slug, version: before.version + 1 }).where(eq(teams.id, before.id)).returning()
          : await tx.insert(teams).values({ id: crypto.randomUUID(), slug, ...input }).returning();
        await recordAudit(tx, actor, { action: before ? "team.update" : "team.create", entityType: "team", entityId: after.id, summary: `${before ? "Edited" : "Created"} team ${after.name}`, before, after }, now());
        return { ok: true, id: after.id, message: `Team ${after.name} saved.`, ...mergedNote(stale.taken) };
      });
    },
    /** Moves the team to the trash (collection-trash.ts), refused while something depends on it. */
    remove(actor: Actor, id: string): Promise<Saved> {
      return change((tx) => trashRecord(tx, actor, "team", id, now()));
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
    save(actor: Actor, id: string | null, typed: CategoryInput, expectedVersion?: number): Promise<Saved> {
      return change(async (tx) => {
        const [before] = id ? await tx.select().from(categories).where(eq(categories.id, id)).for("update") : [undefined];
        if (id && !before) return { ok: false, message: "This category no longer exists." };
        const stale = before ? staleSave(expectedVersion, before, typed, await stateAtVersion(tx, "category", before.id, expectedVersion, before.version)) : { input: typed, taken: [] };
        if ("refused" in stale) return stale.refused;
        const input = stale.input;
        const slug = await freeSlug(tx, categories, input.categoryName, id);
        const [after] = before
          ? await tx.update(categories).set({ ...input, slug, version: before.version + 1 }).where(eq(categories.id, before.id)).returning()
          : await tx.insert(categories).values({ id: crypto.randomUUID(), slug, ...input }).returning();
        await recordAudit(tx, actor, { action: before ? "category.update" : "category.create", entityType: "category", entityId: after.id, summary: `${before ? "Edited" : "Created"} category ${after.categoryName}`, before, after }, now());
        return { ok: true, id: after.id, message: `Category ${after.categoryName} saved.`, ...mergedNote(stale.taken) };
      });
    },
    /** Moves the category to the trash (collection-trash.ts), refused while something depends on it. */
    remove(actor: Actor, id: string): Promise<Saved> {
      return change((tx) => trashRecord(tx, actor, "category", id, now()));
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
    async list(query: ListQuery & { team?: string; category?: string; active?: boolean; publication?: "draft" | "scheduled" }) {
      const where: SQL[] = [];
      if (query.publication === "draft") where.push(isNull(exhibits.publishAt));
      if (query.publication === "scheduled") where.push(gt(exhibits.publishAt, now()));
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
            publishAt: exhibits.publishAt,
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
    async save(actor: Actor, id: string | null, typed: ExhibitInput, expectedVersion?: number): Promise<Saved> {
      const copied: string[] = [];
      const newId = crypto.randomUUID(); // one for every retry of the transaction: a copy made for it is reused
      const saved = await change(async (tx) => {
        if (id) await tx.select({ id: exhibits.id }).from(exhibits).where(eq(exhibits.id, id)).for("update");
        const before = id ? await exhibitRecord(tx, id) : null;
        if (id && !before) return { ok: false, message: "This exhibit no longer exists." };
        const mine = { ...typed, descriptionHtml: sanitizeRichText(typed.descriptionHtml), enshrineeIds: [...typed.enshrineeIds].sort() };
        // Compared as the form showed them: a seeded exhibit has plain text only.
        const base = before ? await stateAtVersion(tx, "exhibit", before.id, expectedVersion, before.version) : undefined;
        const stale = before ? staleSave(expectedVersion, exhibitAsShown(before), mine, base && exhibitAsShown(base)) : { input: mine, taken: [] };
        if ("refused" in stale) return stale.refused;
        const input = stale.input;
        const [team] = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, input.teamId));
        const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
        if (!team || !category) return { ok: false, message: "Please choose a team and a category that exist.", errors: { ...(team ? {} : { teamId: "Please choose a team" }), ...(category ? {} : { categoryId: "Please choose a category" }) } };
        const descriptionHtml = sanitizeRichText(input.descriptionHtml);
        const { enshrineeIds, publication, ...fields } = input;
        const exhibitId = before ? before.id : newId;
        // A library image (public) picked or typed here: the exhibit names its own member-only copy.
        if (storage) {
          const copies = await exhibitCopies(tx, storage, exhibitId, [fields.thumbnail, fields.matchingPhoto], copied);
          fields.thumbnail = copies.get(fields.thumbnail) ?? fields.thumbnail;
          if (fields.matchingPhoto) fields.matchingPhoto = copies.get(fields.matchingPhoto) ?? fields.matchingPhoto;
        }
        const values = {
          ...fields,
          ...(publication ? { publishAt: publishAtFor(publication, before?.publishAt, now()) } : {}),
          descriptionHtml,
          description: plainTextOf(descriptionHtml),
          slug: await freeSlug(tx, exhibits, input.title, id),
          version: (before?.version ?? 0) + 1,
        };
        if (before) await tx.update(exhibits).set(values).where(eq(exhibits.id, exhibitId));
        else await tx.insert(exhibits).values({ id: exhibitId, ...values });
        const known = enshrineeIds.length ? await tx.select({ id: enshrinees.id }).from(enshrinees).where(inArray(enshrinees.id, enshrineeIds)) : [];
        await tx.delete(enshrineeExhibits).where(eq(enshrineeExhibits.exhibitId, exhibitId));
        if (known.length) await tx.insert(enshrineeExhibits).values(known.map((e) => ({ enshrineeId: e.id, exhibitId })));
        const after = await exhibitRecord(tx, exhibitId);
        await recordAudit(tx, actor, { action: before ? "exhibit.update" : "exhibit.create", entityType: "exhibit", entityId: exhibitId, summary: `${before ? "Edited" : "Created"} exhibit ${input.title}`, before, after }, now());
        return { ok: true, id: exhibitId, message: `Exhibit ${input.title} saved.`, ...mergedNote(stale.taken) };
      }).catch(async (error: unknown) => {
        if (storage) await removeDiskCopies(storage, copied);
        throw error;
      });
      return saved;
    },
    /** Moves the exhibit to the trash (collection-trash.ts), refused while something depends on it. */
    remove(actor: Actor, id: string): Promise<Saved> {
      return change((tx) => trashRecord(tx, actor, "exhibit", id, now()));
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
          .select({ id: enshrinees.id, fullName: enshrinees.fullName, lastName: enshrinees.lastName, exhibits: exhibitCount, publishAt: enshrinees.publishAt })
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
    save(actor: Actor, id: string | null, typed: EnshrineeInput, expectedVersion?: number): Promise<Saved> {
      return change(async (tx) => {
        const [before] = id ? await tx.select().from(enshrinees).where(eq(enshrinees.id, id)).for("update") : [undefined];
        if (id && !before) return { ok: false, message: "This enshrinee no longer exists." };
        // Compared as the form showed it: the biography's HTML, never its plain text.
        const mine = { ...typed, biography: sanitizeRichText(typed.biography) };
        const base = before ? await stateAtVersion(tx, "enshrinee", before.id, expectedVersion, before.version) : undefined;
        const stale = before ? staleSave(expectedVersion, enshrineeAsShown(before), mine, base && enshrineeAsShown(base)) : { input: typed, taken: [] };
        if ("refused" in stale) return stale.refused;
        const input = stale.input;
        const slug = await freeSlug(tx, enshrinees, input.fullName, id);
        const { publication, ...fields } = input;
        const values = { ...fields, ...biographyColumns(input.biography), ...(publication ? { publishAt: publishAtFor(publication, before?.publishAt, now()) } : {}), slug };
        const [after] = before
          ? await tx.update(enshrinees).set({ ...values, version: before.version + 1 }).where(eq(enshrinees.id, before.id)).returning()
          : await tx.insert(enshrinees).values({ id: crypto.randomUUID(), ...values }).returning();
        await recordAudit(tx, actor, { action: before ? "enshrinee.update" : "enshrinee.create", entityType: "enshrinee", entityId: after.id, summary: `${before ? "Edited" : "Created"} enshrinee ${after.fullName}`, before, after }, now());
        return { ok: true, id: after.id, message: `${after.fullName} saved.`, ...mergedNote(stale.taken) };
      });
    },
    /** Moves the enshrinee to the trash with their links (collection-trash.ts); the exhibits stay. */
    remove(actor: Actor, id: string): Promise<Saved> {
      return change((tx) => trashRecord(tx, actor, "enshrinee", id, now()));
    },
  };

  // ---- home banner -----------------------------------------------------------------------------

  async function slidesOf(tx: Pick<Database, "select">, variant: "desktop" | "mobile") {
    return tx.select().from(bannerSlides).where(eq(bannerSlides.variant, variant)).orderBy(asc(bannerSlides.position));
  }

  /**
   * A variant's version (decision 029): a digest of its slides in order, ids included, so any
   * change (an edit, a move, a removal, a slide back from the Trash) makes another.
   */
  function slidesVersion(slides: { id: string; file: string; alt: string; width: number; height: number; publishAt: Date | null }[]): string {
    return createHash("sha256")
      .update(JSON.stringify(slides.map((s) => [s.id, s.file, s.alt, s.width, s.height, s.publishAt?.toISOString() ?? null])))
      .digest("base64url")
      .slice(0, 16);
  }

  /** Writes a variant's slides anew in the given order (positions 0..n-1), each keeping its id (a new one gets one). */
  async function rewriteSlides(tx: Tx, variant: "desktop" | "mobile", slides: Omit<typeof bannerSlides.$inferInsert, "variant" | "position">[]) {
    await tx.delete(bannerSlides).where(eq(bannerSlides.variant, variant));
    if (slides.length) await tx.insert(bannerSlides).values(slides.map((s, position) => ({ ...s, variant, position })));
  }

  /** A slide's typed fields, as its form sends them: what an edit conflict compares (its status is applied as chosen). */
  const slideFields = (s: { file: string; alt: string; width: number; height: number }) => ({ file: s.file, alt: s.alt, width: s.width, height: s.height });

  /** A slide is named by its id (migration 0023), never by its place: a page may show an older order. */
  type SlideOp =
    | { kind: "add"; slide: BannerSlideInput }
    | { kind: "update"; slideId: string; slide: BannerSlideInput }
    | { kind: "move"; slideId: string; by: -1 | 1 }
    | { kind: "remove"; slideId: string };

  const bannerAdmin = {
    async list() {
      const [desktop, mobile] = await Promise.all([slidesOf(db, "desktop"), slidesOf(db, "mobile")]);
      return { desktop, mobile, versions: { desktop: slidesVersion(desktop), mobile: slidesVersion(mobile) } };
    },
    /**
     * Adds a slide at the end, edits one, moves one up or down, or removes one.
     * `expectedVersion` is the variant's version the page showed (decision 029). After any change
     * since: a slide's edit is compared with that slide as it is now (found by its id wherever it
     * moved) and refused, field by field, when they differ; a move is refused with a plain
     * message (its neighbours may be others now) and the page shows the banner as it is; a
     * removal takes the slide the person saw and confirmed, by its id, wherever it is now; adding
     * one at the end overwrites nothing and goes ahead.
     */
    edit(actor: Actor, variant: "desktop" | "mobile", op: SlideOp, expectedVersion?: string): Promise<Saved> {
      return change(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(7172015)`);
        const before = await slidesOf(tx, variant);
        const slides: Omit<typeof bannerSlides.$inferInsert, "variant" | "position">[] = before.map(({ variant: _v, position: _p, ...rest }) => rest);
        const at = op.kind === "add" ? -1 : before.findIndex((s) => s.id === op.slideId);
        const current = slidesVersion(before);
        const stale = (op.kind === "update" || op.kind === "move") && expectedVersion !== undefined && expectedVersion !== current;
        if (stale && op.kind === "update" && at >= 0) {
          const refused = refusedAsConflict(expectedVersion, current, slideFields(op.slide), slideFields(before[at]));
          if (refused) return refused;
        } else if (stale) {
          const message =
            op.kind === "update"
              ? `Someone else removed this ${variant} slide while you were editing it. Nothing was saved: add it again if it is still wanted.`
              : `Someone else changed the ${variant} banner while you were editing it. Nothing was changed: here it is as it is now; make your change again.`;
          return { ok: false, message, conflict: { version: current, fields: [] } };
        }
        if (op.kind !== "add" && at < 0) return { ok: false, message: "That slide no longer exists." };
        const slideOf = (input: BannerSlideInput, current: Date | null | undefined) => ({
          ...slideFields(input),
          publishAt: input.publication ? publishAtFor(input.publication, current, now()) : current === undefined ? PUBLISHED_ALWAYS : current,
        });
        if (op.kind === "add") slides.push(slideOf(op.slide, undefined));
        if (op.kind === "update") slides[at] = { id: slides[at].id, ...slideOf(op.slide, slides[at].publishAt) };
        if (op.kind === "remove") {
          await trashBannerSlide(tx, actor, before[at], now());
          slides.splice(at, 1);
        }
        if (op.kind === "move") {
          const to = at + op.by;
          if (to < 0 || to >= slides.length) return { ok: false, message: "That slide cannot move further." };
          [slides[at], slides[to]] = [slides[to], slides[at]];
        }
        await rewriteSlides(tx, variant, slides);
        const after = await slidesOf(tx, variant);
        await recordAudit(tx, actor, { action: `banner.${op.kind}`, entityType: "banner", entityId: variant, summary: `${variant} banner: ${op.kind} slide`, before, after }, now());
        return { ok: true, id: variant, message: op.kind === "remove" ? `The ${variant} slide is in the Trash: restore it from there if that was a mistake.` : `The ${variant} banner is saved.` };
      });
    },
    /**
     * Puts back a variant's slides as one of its versions held them (record-versions.ts,
     * decision 030), each with its id, fields and status; audited as `banner.replace`.
     */
    replace(actor: Actor, variant: "desktop" | "mobile", slides: { id?: string; file: string; alt: string; width: number; height: number; publishAt: Date | null }[]): Promise<Saved> {
      return change(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(7172015)`);
        const before = await slidesOf(tx, variant);
        // An id the other variant holds now (never by the editor's doing) would collide: that slide gets a new one.
        const taken = new Set((await slidesOf(tx, variant === "desktop" ? "mobile" : "desktop")).map((s) => s.id));
        await rewriteSlides(tx, variant, slides.map(({ id, ...s }) => ({ ...(id && !taken.has(id) ? { id } : {}), ...slideFields(s), publishAt: s.publishAt })));
        const after = await slidesOf(tx, variant);
        await recordAudit(tx, actor, { action: "banner.replace", entityType: "banner", entityId: variant, summary: `${variant} banner: slides put back as a version held them`, before, after }, now());
        return { ok: true, id: variant, message: `The ${variant} banner is saved.` };
      });
    },
  };

  return { teams: teamsAdmin, categories: categoriesAdmin, exhibits: exhibitsAdmin, enshrinees: enshrineesAdmin, banner: bannerAdmin };
}

