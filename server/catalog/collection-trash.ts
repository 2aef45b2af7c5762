/**
 * The console's Trash (decision 031). Deleting a team, category, exhibit, enshrinee or
 * banner slide moves it here: one `trash` row holds a JSON snapshot of the record with its
 * dependants (photos, enshrinee links, the favorite-story flag is a field of the row), and the
 * real rows are deleted in the same transaction, so no reader of the collection (pages, API,
 * search, sitemap) needs a "deleted" filter. Restore inserts the rows again under the same ids,
 * in one transaction, and says plainly what it needs first when something it depends on is gone.
 * Links between an exhibit and an enshrinee come back whichever of the two is restored first:
 * a link whose other side still waits in the trash is written into that entry's snapshot.
 * The media a trashed record named stay untouched; housekeeping purges entries older than
 * TRASH_DAYS and then their media that no other record names (server/media/media-release.ts: the
 * originals in PostgreSQL in the purge's transaction, this instance's disk copy after it commits,
 * like a removed photo). Restores and purges are audited.
 */
import { and, asc, desc, eq, getTableColumns, inArray, lte, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import { bannerSlides, categories, enshrineeExhibits, enshrinees, exhibitPhotos, exhibits, teams, trash, type TrashKind } from "../db/schema";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import { releaseOriginals, removeDiskCopies } from "../media/media-release";
import type { MediaStorage } from "../media/media-storage";
import { commitChange, freeSlug, type Tx } from "./collection-tx";
import { PUBLISHED_ALWAYS } from "./publication";
import { plural } from "../../app/shared/plural";

const DAY = 86_400_000;
/** Entries purged per housekeeping run at most (the rest go next hour). */
const PURGE_BATCH = 200;
/** Who the audit log names for purges. */
export const HOUSEKEEPING_ACTOR: Actor = { userId: null, email: "housekeeping" };

type Row = Record<string, unknown>;

/** The kinds that trashRecord moves (banner slides go through the banner editor: trashBannerSlide). */
export type TrashableKind = Exclude<TrashKind, "banner">;

const NOUN: Record<TrashKind, string> = { team: "team", category: "category", exhibit: "exhibit", enshrinee: "enshrinee", banner: "banner slide" };

/** Media keys a record named that the console uploaded for it alone (seeded files may be shared: they stay). */
function ownMedia(keys: (string | null | undefined)[], pattern: RegExp): string[] {
  return [...new Set(keys.filter((k): k is string => typeof k === "string" && pattern.test(k)))];
}
const UPLOADED_PUBLIC = /^(?:logos|banners)\/[0-9a-f-]{36}\.[a-z]+$/;

async function addEntry(tx: Tx, actor: Actor, entry: { kind: TrashKind; recordId: string; label: string; snapshot: unknown; media: string[] }, at: Date) {
  await tx.insert(trash).values({ ...entry, snapshot: JSON.parse(JSON.stringify(entry.snapshot)) as unknown, deletedAt: at, deletedBy: actor.email });
}

/**
 * Moves one team, category, exhibit or enshrinee to the trash inside `tx` (the caller's
 * transaction, which also sends the change notification): the existing refusals hold (a team
 * or category with exhibits, an exhibit an enshrinee links). Audited as `<kind>.delete`.
 */
export async function trashRecord(tx: Tx, actor: Actor, kind: TrashableKind, id: string, at: Date): Promise<Saved> {
  if (kind === "team" || kind === "category") {
    const table = kind === "team" ? teams : categories;
    const [before] = await tx.select().from(table).where(eq(table.id, id)).for("update");
    if (!before) return { ok: false, message: `This ${kind} no longer exists.` };
    const name = "name" in before ? before.name : before.categoryName;
    const n = await tx.$count(exhibits, eq(kind === "team" ? exhibits.teamId : exhibits.categoryId, id));
    if (n > 0) return { ok: false, message: `${name} still has ${n} exhibit${n === 1 ? "" : "s"}: move or delete them first.` };
    await tx.delete(table).where(eq(table.id, id));
    await addEntry(tx, actor, { kind, recordId: id, label: name, snapshot: { row: before }, media: ownMedia(["logo" in before ? before.logo : null], UPLOADED_PUBLIC) }, at);
    await recordAudit(tx, actor, { action: `${kind}.delete`, entityType: kind, entityId: id, summary: `Moved ${kind} ${name} to the trash`, before }, at);
    return { ok: true, id, message: `${kind === "team" ? "Team" : "Category"} ${name} moved to the trash.` };
  }
  if (kind === "exhibit") {
    const [row] = await tx.select().from(exhibits).where(eq(exhibits.id, id)).for("update");
    if (!row) return { ok: false, message: "This exhibit no longer exists." };
    const photos = await tx.select().from(exhibitPhotos).where(eq(exhibitPhotos.exhibitId, id)).orderBy(asc(exhibitPhotos.position));
    const links = await tx.select({ id: enshrineeExhibits.enshrineeId, name: enshrinees.fullName }).from(enshrineeExhibits).innerJoin(enshrinees, eq(enshrinees.id, enshrineeExhibits.enshrineeId)).where(eq(enshrineeExhibits.exhibitId, id));
    if (links.length) return { ok: false, message: `${row.title} is linked to ${links.map((n) => n.name).join(", ")}: unlink ${links.length === 1 ? "that enshrinee" : "those enshrinees"} first.` };
    const own = new RegExp(`^exhibits/${id}/`);
    const before = { ...row, photos, enshrineeIds: [] as string[] };
    await tx.delete(exhibits).where(eq(exhibits.id, id));
    await addEntry(tx, actor, { kind, recordId: id, label: row.title, snapshot: { row, photos, enshrineeIds: [] }, media: ownMedia([row.thumbnail, row.matchingPhoto, ...photos.map((p) => p.file)], own) }, at);
    await recordAudit(tx, actor, { action: "exhibit.delete", entityType: "exhibit", entityId: id, summary: `Moved exhibit ${row.title} to the trash`, before }, at);
    return { ok: true, id, message: `Exhibit ${row.title} moved to the trash.` };
  }
  const [row] = await tx.select().from(enshrinees).where(eq(enshrinees.id, id)).for("update");
  if (!row) return { ok: false, message: "This enshrinee no longer exists." };
  const links = await tx.select({ exhibitId: enshrineeExhibits.exhibitId }).from(enshrineeExhibits).where(eq(enshrineeExhibits.enshrineeId, id));
  const exhibitIds = links.map((l) => l.exhibitId).sort();
  await tx.delete(enshrinees).where(eq(enshrinees.id, id));
  await addEntry(tx, actor, { kind, recordId: id, label: row.fullName, snapshot: { row, exhibitIds }, media: ownMedia([row.portrait], new RegExp(`^portraits/${id}/`)) }, at);
  await recordAudit(tx, actor, { action: "enshrinee.delete", entityType: "enshrinee", entityId: id, summary: `Moved enshrinee ${row.fullName} to the trash`, before: { ...row, exhibitIds } }, at);
  return { ok: true, id, message: `${row.fullName} moved to the trash.` };
}

/**
 * The records of `kind` among `ids` that wait in the trash, by id with their label. A create path
 * that takes an id from outside (the CSV import) refuses these: a new record
 * under a trashed record's id would leave that entry restorable never again, only purgeable, and
 * would later be overwritten or duplicated by it. Refusing (rather than quietly giving the row a
 * new id) tells the person the record is in the Trash, where Restore brings it back whole, with
 * its photos and links; a row meant as a new record imports with its id cell left empty.
 */
export async function idsInTrash(tx: Pick<Database, "select">, kind: TrashableKind, ids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await tx.select({ recordId: trash.recordId, label: trash.label }).from(trash).where(and(eq(trash.kind, kind), inArray(trash.recordId, ids.slice(i, i + 1000))));
    for (const r of rows) found.set(r.recordId, r.label);
  }
  return found;
}

/** Keeps a banner slide the banner editor is removing (its rows are rewritten by the editor, in `tx`). */
export async function trashBannerSlide(tx: Tx, actor: Actor, slide: typeof bannerSlides.$inferSelect, at: Date): Promise<void> {
  await addEntry(tx, actor, { kind: "banner", recordId: slide.variant, label: `${slide.variant === "desktop" ? "Desktop" : "Mobile"} slide: ${slide.alt}`, snapshot: { row: slide }, media: ownMedia([slide.file], UPLOADED_PUBLIC) }, at);
}

/** A snapshot's row ready to insert again: dates back to Date, the update time left to the database. */
function revive<T extends PgTable>(table: T, json: Row): T["$inferInsert"] {
  const out: Row = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (!(key in json) || key === "updatedAt") continue;
    const value = json[key];
    out[key] = column.dataType === "date" && typeof value === "string" ? new Date(value) : value;
  }
  return out as T["$inferInsert"];
}

export interface TrashDeps {
  db: Database;
  storage: MediaStorage;
  /** TRASH_DAYS: how long an entry waits before housekeeping purges it. */
  days: number;
  now?: () => Date;
  notifyChange: (tx?: Database) => Promise<void>;
}

export interface TrashEntry {
  id: string;
  kind: TrashKind;
  label: string;
  deletedAt: Date;
  deletedBy: string;
  /** When housekeeping purges it. */
  purgeAt: Date;
}

export function createCollectionTrash({ db, storage, days, now = () => new Date(), notifyChange }: TrashDeps) {
  const change = (fn: (tx: Tx) => Promise<Saved>) => commitChange(db, notifyChange, fn);

  /** What restoring `kind` needs first, when a record it belongs to is gone ("Restore the team Pirates first."). */
  async function missing(tx: Tx, kind: "team" | "category", id: string): Promise<string | null> {
    const table = kind === "team" ? teams : categories;
    const [live] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1);
    if (live) return null;
    const [waiting] = await tx.select({ label: trash.label }).from(trash).where(and(eq(trash.kind, kind), eq(trash.recordId, id))).limit(1);
    return waiting ? `Restore the ${kind} ${waiting.label} first.` : `Its ${kind} no longer exists, so it cannot be restored.`;
  }

  /**
   * The links of a restored record whose other side waits in the trash: written into that entry's
   * snapshot, so they come back when it is restored, whichever of the two is restored first
   *. Returns how many of `otherIds` wait in the trash.
   */
  async function keepWaitingLinks(tx: Tx, otherKind: "exhibit" | "enshrinee", otherIds: string[], id: string): Promise<number> {
    if (!otherIds.length) return 0;
    const field = otherKind === "exhibit" ? "enshrineeIds" : "exhibitIds";
    const entries = await tx.select({ id: trash.id, recordId: trash.recordId, snapshot: trash.snapshot }).from(trash).where(and(eq(trash.kind, otherKind), inArray(trash.recordId, otherIds))).for("update");
    for (const entry of entries) {
      const snapshot = entry.snapshot as Record<string, unknown>;
      const linked = Array.isArray(snapshot[field]) ? (snapshot[field] as string[]) : [];
      if (!linked.includes(id)) await tx.update(trash).set({ snapshot: { ...snapshot, [field]: [...linked, id].sort() } }).where(eq(trash.id, entry.id));
    }
    return new Set(entries.map((e) => e.recordId)).size;
  }

  /** Re-creates a restored record's links to the live records among `wanted`; keeps those waiting in the trash for later; says what did not come back. */
  async function restoreLinks(tx: Tx, kind: "exhibit" | "enshrinee", id: string, wanted: string[]): Promise<{ kept: string[]; note: string }> {
    const other = kind === "exhibit" ? enshrinees : exhibits;
    const otherKind = kind === "exhibit" ? "enshrinee" : "exhibit";
    const live = wanted.length ? (await tx.select({ id: other.id }).from(other).where(inArray(other.id, wanted))).map((r) => r.id) : [];
    if (live.length) await tx.insert(enshrineeExhibits).values(live.map((o) => (kind === "exhibit" ? { enshrineeId: o, exhibitId: id } : { enshrineeId: id, exhibitId: o }))).onConflictDoNothing();
    const waiting = await keepWaitingLinks(tx, otherKind, wanted.filter((o) => !live.includes(o)), id);
    const gone = wanted.length - live.length - waiting;
    const count = (n: number) => `${n} linked ${otherKind}${n === 1 ? " is" : "s are"}`;
    const note =
      (waiting ? ` ${count(waiting)} in the Trash: ${waiting === 1 ? "that link comes" : "those links come"} back when ${waiting === 1 ? "it is" : "they are"} restored.` : "") +
      (gone > 0 ? ` ${count(gone)} no longer there, so ${gone === 1 ? "that link" : "those links"} did not come back.` : "");
    return { kept: live.sort(), note };
  }

  async function restoreRows(tx: Tx, entry: typeof trash.$inferSelect): Promise<{ ok: true; after: unknown; note?: string } | { ok: false; message: string }> {
    const snapshot = entry.snapshot as { row: Row; photos?: Row[]; enshrineeIds?: string[]; exhibitIds?: string[] };
    const id = entry.recordId;
    if (entry.kind === "team" || entry.kind === "category") {
      const table = entry.kind === "team" ? teams : categories;
      const row = revive(table, snapshot.row);
      const name = String(snapshot.row[entry.kind === "team" ? "name" : "categoryName"]);
      const [after] = await tx.insert(table).values({ ...row, id, slug: await freeSlug(tx, table, name, id) }).onConflictDoNothing().returning();
      if (!after) return { ok: false, message: `A ${entry.kind} with this id exists already.` };
      return { ok: true, after };
    }
    if (entry.kind === "exhibit") {
      const row = revive(exhibits, snapshot.row);
      for (const need of ["team", "category"] as const) {
        const message = await missing(tx, need, String(need === "team" ? row.teamId : row.categoryId));
        if (message) return { ok: false, message };
      }
      const [after] = await tx.insert(exhibits).values({ ...row, id, slug: await freeSlug(tx, exhibits, row.title, id) }).onConflictDoNothing().returning();
      if (!after) return { ok: false, message: "An exhibit with this id exists already." };
      const photos = (snapshot.photos ?? []).map((p) => revive(exhibitPhotos, p));
      if (photos.length) await tx.insert(exhibitPhotos).values(photos);
      const links = await restoreLinks(tx, "exhibit", id, snapshot.enshrineeIds ?? []);
      return { ok: true, after: { ...after, photos, enshrineeIds: links.kept }, note: links.note };
    }
    if (entry.kind === "enshrinee") {
      const row = revive(enshrinees, snapshot.row);
      const [after] = await tx.insert(enshrinees).values({ ...row, id, slug: await freeSlug(tx, enshrinees, row.fullName, id) }).onConflictDoNothing().returning();
      if (!after) return { ok: false, message: "An enshrinee with this id exists already." };
      const links = await restoreLinks(tx, "enshrinee", id, snapshot.exhibitIds ?? []);
      return { ok: true, after: { ...after, exhibitIds: links.kept }, note: links.note };
    }
    // A banner slide goes back at its old place (or the end), the others moving down one.
    await tx.execute(sql`select pg_advisory_xact_lock(7172015)`);
    const slide = revive(bannerSlides, snapshot.row);
    const current = await tx.select().from(bannerSlides).where(eq(bannerSlides.variant, slide.variant)).orderBy(asc(bannerSlides.position));
    // The slide comes back with its id (a page showing it names it so), unless a version put it back meanwhile: then as a new slide.
    const rows: Omit<typeof bannerSlides.$inferInsert, "variant" | "position">[] = current.map(({ variant: _v, position: _p, ...rest }) => rest);
    const [taken] = slide.id ? await tx.select({ id: bannerSlides.id }).from(bannerSlides).where(eq(bannerSlides.id, slide.id)) : [];
    rows.splice(Math.min(slide.position, rows.length), 0, { ...(slide.id && !taken ? { id: slide.id } : {}), file: slide.file, alt: slide.alt, width: slide.width, height: slide.height, publishAt: slide.publishAt ?? PUBLISHED_ALWAYS });
    await tx.delete(bannerSlides).where(eq(bannerSlides.variant, slide.variant));
    await tx.insert(bannerSlides).values(rows.map((r, position) => ({ ...r, variant: slide.variant, position })));
    return { ok: true, after: await tx.select().from(bannerSlides).where(eq(bannerSlides.variant, slide.variant)).orderBy(asc(bannerSlides.position)) };
  }

  return {
    days,

    /** The Trash page: newest first, with the day each entry goes for good. */
    async list(): Promise<TrashEntry[]> {
      const rows = await db.select({ id: trash.id, kind: trash.kind, label: trash.label, deletedAt: trash.deletedAt, deletedBy: trash.deletedBy }).from(trash).orderBy(desc(trash.deletedAt), asc(trash.id)).limit(500);
      return rows.map((r) => ({ ...r, purgeAt: new Date(r.deletedAt.getTime() + days * DAY) }));
    },

    /** Brings an entry back under its own id, with its photos, links and flags; audited as `<kind>.untrash`. */
    restore(actor: Actor, entryId: string): Promise<Saved> {
      return change(async (tx) => {
        const [entry] = await tx.select().from(trash).where(eq(trash.id, entryId)).for("update");
        if (!entry) return { ok: false, message: "That entry is no longer in the trash." };
        const restored = await restoreRows(tx, entry);
        if (!restored.ok) return restored;
        await tx.delete(trash).where(eq(trash.id, entry.id));
        const noun = NOUN[entry.kind];
        await recordAudit(tx, actor, { action: `${entry.kind}.untrash`, entityType: entry.kind, entityId: entry.recordId, summary: `Restored ${noun} ${entry.label} from the trash`, before: null, after: restored.after }, now());
        return { ok: true, id: entry.recordId, message: `${noun[0].toUpperCase()}${noun.slice(1)} ${entry.label} restored.${restored.note ?? ""}` };
      });
    },

    /**
     * Housekeeping's part, in its transaction: deletes entries older than TRASH_DAYS (audited as
     * `<kind>.purge`) and the originals only they named. Returns the disk files to remove once
     * the transaction commits (`removeFiles`).
     */
    async purgeExpired(tx: Database, at: Date): Promise<{ purged: number; files: string[] }> {
      const cutoff = new Date(at.getTime() - days * DAY);
      const due = await tx.select().from(trash).where(lte(trash.deletedAt, cutoff)).orderBy(asc(trash.deletedAt)).limit(PURGE_BATCH).for("update", { skipLocked: true });
      if (!due.length) return { purged: 0, files: [] };
      const ids = due.map((e) => e.id);
      await tx.delete(trash).where(inArray(trash.id, ids));
      const files = await releaseOriginals(tx, storage, due.flatMap((e) => e.media));
      for (const entry of due) {
        await recordAudit(tx, HOUSEKEEPING_ACTOR, { action: `${entry.kind}.purge`, entityType: entry.kind, entityId: entry.recordId, summary: `Purged ${NOUN[entry.kind]} ${entry.label} from the trash after ${plural(days, "day")}`, before: entry.snapshot }, at);
      }
      return { purged: due.length, files };
    },

    /** This instance's copies of purged originals, once the purge committed. */
    removeFiles: (files: string[]) => removeDiskCopies(storage, files),
  };
}

export type CollectionTrash = ReturnType<typeof createCollectionTrash>;
