/**
 * Bulk actions on rows chosen in the console's exhibit and enshrinee lists (decision 034).
 * `BULK_ACTIONS` is the one table: an action is one entry (which list
 * shows it, its label, the choice it needs, and what it does to the chosen records inside the
 * transaction). The runner checks the choice, runs the entry in one transaction with one audit
 * row per changed record and one change notification, and answers what was done and, per row,
 * what was refused. Each changed record's version goes up, as a console save's does, so a form
 * opened before the action is refused rather than undoing it. An Apply can be undone for
 * UNDO_MINUTES (housekeeping forgets older ones): each record is put back unless someone changed it since.
 */
import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { bulkBatches, categories, enshrinees, exhibits, trash } from "../db/schema";
import { recordAudits, type Actor, type AuditEntry } from "../audit/audit-trail";
import type { CollectionDeps } from "./collection-writes";
import { setPublication } from "./publication";
import { trashRecord } from "./collection-trash";
import type { Tx } from "./collection-tx";
import { transactionRetrying } from "../db/retrying";

export type ChangeDeps = CollectionDeps;
/** The database or an open transaction: what reads and batched writes need. */
export type Reader = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

/**
 * Runs a batch of collection changes in one transaction; when `fn` answers true (it wrote), the
 * change feed is told once inside it (delivered on commit) and this process's caches at once,
 * as the console's single saves do (collection-writes.ts).
 */
export async function inChangeTransaction(deps: ChangeDeps, fn: (tx: Reader) => Promise<boolean>): Promise<boolean> {
  const wrote = await transactionRetrying(deps.db, async (tx) => {
    const changed = await fn(tx);
    if (changed) await deps.notifyChange(tx as unknown as Database);
    return changed;
  });
  if (wrote) await deps.notifyChange();
  return wrote;
}

export type BulkEntity = "exhibit" | "enshrinee";

/** What putting a record back after an Apply sets: the columns the action changed, as they were. */
type PutBack = { categoryId?: string; favoriteStory?: boolean; publishAt?: string | null };

/** One record an action changed: its audit row's before and after, and how to undo it. */
export interface BulkChange {
  id: string;
  name: string;
  before: unknown;
  after: unknown;
  /** The columns to put back (with the version the action left), or the trash entry to restore. */
  undo: { putBack: PutBack; version: number } | { trashEntry: string };
}

/** A chosen row the action left as it was, and why. */
export interface BulkRefusal {
  id: string;
  name: string;
  message: string;
}

export interface BulkOutcome {
  changes: BulkChange[];
  refused: BulkRefusal[];
}

export interface BulkAction {
  /** The lists that offer it. */
  entities: BulkEntity[];
  /** The option's text in the action select. */
  label: string;
  /** A choice the action needs beside the rows (the category to move exhibits to). */
  needs?: "category";
  /** Asked about first, naming the rows (moving to the trash), as a single delete is. */
  asksFirst?: boolean;
  /** Changes the chosen records (locked, inside the transaction); a string refuses the whole Apply (a missing choice). */
  run(tx: Reader, ids: string[], choice: string, context: { entity: BulkEntity; actor: Actor; now: Date }): Promise<BulkOutcome | string>;
  /** The audit summary of one record (none: the action's own writer audits each record, as moving to the trash does). */
  summary?(name: string): string;
  /** What the console says after: `n` records changed of `chosen`. */
  done(n: number, chosen: number, entity: BulkEntity): string;
}

const exhibitsText = (n: number) => `${n} exhibit${n === 1 ? "" : "s"}`;
const recordsText = (n: number, entity: BulkEntity) => (entity === "exhibit" ? exhibitsText(n) : `${n} enshrinee${n === 1 ? "" : "s"}`);
const tableOf = (entity: BulkEntity) => (entity === "exhibit" ? exhibits : enshrinees);

/** Sets the chosen records' publication (decision 032) through the one setter; answers those it changed. */
async function publishAll(tx: Reader, ids: string[], publication: { state: "draft" } | { state: "published" }, entity: BulkEntity, now: Date): Promise<BulkOutcome> {
  const table = tableOf(entity);
  const names = new Map((await tx.select({ id: table.id, name: entity === "exhibit" ? exhibits.title : enshrinees.fullName }).from(table).where(inArray(table.id, ids))).map((r) => [r.id, r.name]));
  const changes: BulkChange[] = [];
  for (const id of ids) {
    const set = await setPublication(tx as unknown as Database, entity, id, publication, now);
    if (!set || set.before?.getTime() === set.after?.getTime()) continue;
    const [after] = await tx.update(table).set({ updatedAt: sql`now()`, version: sql`${table.version} + 1` }).where(eq(table.id, id)).returning({ version: table.version });
    changes.push({ id, name: names.get(id) ?? id, before: { publishAt: set.before }, after: { publishAt: set.after }, undo: { putBack: { publishAt: set.before?.toISOString() ?? null }, version: after.version } });
  }
  return { changes, refused: [] };
}
const unchanged = (n: number, chosen: number) => (chosen > n ? ` (${chosen - n} already ${chosen - n === 1 ? "was" : "were"})` : "");

/**
 * Sets `set` on the chosen exhibits whose `column` differs (locked first), bumping updated_at and
 * the version as a save does; answers each changed exhibit's row before and after.
 */
async function setOnExhibits(tx: Reader, ids: string[], set: Partial<typeof exhibits.$inferInsert>, differs: ReturnType<typeof ne>, putBack: (before: typeof exhibits.$inferSelect) => PutBack): Promise<BulkOutcome> {
  const before = await tx.select().from(exhibits).where(and(inArray(exhibits.id, ids), differs)).for("update");
  if (before.length === 0) return { changes: [], refused: [] };
  const after = await tx
    .update(exhibits)
    .set({ ...set, updatedAt: sql`now()`, version: sql`${exhibits.version} + 1` })
    .where(inArray(
      exhibits.id,
      before.map((b) => b.id),
    ))
    .returning();
  const byId = new Map(after.map((a) => [a.id, a]));
  return { changes: before.map((b) => ({ id: b.id, name: b.title, before: b, after: byId.get(b.id), undo: { putBack: putBack(b), version: byId.get(b.id)!.version } })), refused: [] };
}

/** The table: adding an action is one entry here (and its label shows in the list's select). */
export const BULK_ACTIONS: Record<string, BulkAction> = {
  "move-to-category": {
    entities: ["exhibit"],
    label: "Move to category",
    needs: "category",
    async run(tx, ids, categoryId) {
      const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, categoryId));
      if (!category) return "Please choose the category to move the exhibits to.";
      return setOnExhibits(tx, ids, { categoryId }, ne(exhibits.categoryId, categoryId), (b) => ({ categoryId: b.categoryId }));
    },
    summary: (name) => `Moved exhibit ${name} to another category (bulk action)`,
    done: (n, chosen) => `Moved ${exhibitsText(n)} to the category${unchanged(n, chosen)}.`,
  },
  "add-to-favorites": {
    entities: ["exhibit"],
    label: "Add to favorite stories",
    run: (tx, ids) => setOnExhibits(tx, ids, { favoriteStory: true }, ne(exhibits.favoriteStory, true), () => ({ favoriteStory: false })),
    summary: (name) => `Added exhibit ${name} to favorite stories (bulk action)`,
    done: (n, chosen) => `Added ${exhibitsText(n)} to favorite stories${unchanged(n, chosen)}.`,
  },
  "remove-from-favorites": {
    entities: ["exhibit"],
    label: "Remove from favorite stories",
    run: (tx, ids) => setOnExhibits(tx, ids, { favoriteStory: false }, ne(exhibits.favoriteStory, false), () => ({ favoriteStory: true })),
    summary: (name) => `Removed exhibit ${name} from favorite stories (bulk action)`,
    done: (n, chosen) => `Removed ${exhibitsText(n)} from favorite stories${unchanged(n, chosen)}.`,
  },
  publish: {
    entities: ["exhibit", "enshrinee"],
    label: "Publish now",
    run: (tx, ids, _choice, { entity, now }) => publishAll(tx, ids, { state: "published" }, entity, now),
    summary: (name) => `Published ${name} (bulk action)`,
    done: (n, chosen, entity) => `Published ${recordsText(n, entity)}${unchanged(n, chosen)}.`,
  },
  unpublish: {
    entities: ["exhibit", "enshrinee"],
    label: "Make a draft (unpublish)",
    run: (tx, ids, _choice, { entity, now }) => publishAll(tx, ids, { state: "draft" }, entity, now),
    summary: (name) => `Made ${name} a draft (bulk action)`,
    done: (n, chosen, entity) => `Made ${recordsText(n, entity)} drafts${unchanged(n, chosen)}.`,
  },
  "move-to-trash": {
    entities: ["exhibit", "enshrinee"],
    label: "Move to the trash",
    asksFirst: true,
    // Each record through the trash's own writer (its snapshot and audit row: decision 031), each
    // in its own savepoint: a refused row (an exhibit an enshrinee links) stays and the rest go.
    async run(tx, ids, _choice, { entity, actor, now }) {
      const outcome: BulkOutcome = { changes: [], refused: [] };
      const names = await namesOf(tx, entity, ids);
      for (const id of ids) {
        try {
          await (tx as unknown as Tx).transaction(async (sp) => {
            const moved = await trashRecord(sp, actor, entity, id, now);
            if (!moved.ok) throw new RowRefusal(moved.message);
          });
        } catch (error) {
          if (!(error instanceof RowRefusal)) throw error;
          outcome.refused.push({ id, name: names.get(id) ?? id, message: error.message });
          continue;
        }
        const [entry] = await tx.select({ id: trash.id }).from(trash).where(and(eq(trash.kind, entity), eq(trash.recordId, id))).orderBy(desc(trash.deletedAt)).limit(1);
        outcome.changes.push({ id, name: names.get(id) ?? id, before: null, after: null, undo: { trashEntry: entry.id } });
      }
      return outcome;
    },
    done: (n, _chosen, entity) => `Moved ${recordsText(n, entity)} to the trash. Restore them from the Trash if that was a mistake.`,
  },
};

/** The chosen records' names (titles, full names), by id. */
async function namesOf(tx: Reader, entity: BulkEntity, ids: string[]): Promise<Map<string, string>> {
  const table = tableOf(entity);
  const rows = await tx.select({ id: table.id, name: entity === "exhibit" ? exhibits.title : enshrinees.fullName }).from(table).where(inArray(table.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Most rows one action takes (a console page shows at most 100; "all that match" may be more). */
export const BULK_MAX_ROWS = 500;
/** How long an Apply can be undone from the answer's Undo button. */
export const UNDO_MINUTES = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type BulkResult = {
  ok: boolean;
  message: string;
  /** Chosen rows left as they were, each with its reason. */
  refused?: { name: string; message: string }[];
  /** The batch the Undo button names (for UNDO_MINUTES). */
  undo?: string;
};

/** An action's refusal of the whole Apply, thrown inside its transaction so that nothing it did stays. */
class ApplyRefusal extends Error {}
/** One row's refusal, thrown inside that row's savepoint so that only what was done to it is undone. */
class RowRefusal extends Error {}

/** The trash's restore (collection-trash.ts): how a bulk move to the trash is undone. */
export type RestoreFromTrash = (actor: Actor, entryId: string) => Promise<{ ok: boolean; message: string }>;

export function createBulkActions(deps: ChangeDeps & { restoreFromTrash: RestoreFromTrash }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Most rows one Apply takes. */
    maxRows: BULK_MAX_ROWS,
    /** The actions a list offers, for its select. */
    actionsFor(entity: BulkEntity) {
      return Object.entries(BULK_ACTIONS)
        .filter(([, a]) => a.entities.includes(entity))
        .map(([id, a]) => ({ id, label: a.label, needs: a.needs ?? null }));
    },
    /** Whether the action asks first, and the chosen rows' names to ask about (the confirmation names them). */
    async confirmation(entity: BulkEntity, actionId: string, chosen: string[]): Promise<{ id: string; name: string }[] | null> {
      const action = Object.hasOwn(BULK_ACTIONS, actionId) ? BULK_ACTIONS[actionId] : undefined;
      const ids = [...new Set(chosen)].filter((id) => UUID.test(id));
      if (!action?.asksFirst || ids.length === 0 || ids.length > BULK_MAX_ROWS) return null;
      const names = await namesOf(deps.db, entity, ids);
      return ids.filter((id) => names.has(id)).map((id) => ({ id, name: names.get(id)! }));
    },
    async apply(actor: Actor, entity: BulkEntity, actionId: string, chosen: string[], choice: string): Promise<BulkResult> {
      const action = Object.hasOwn(BULK_ACTIONS, actionId) ? BULK_ACTIONS[actionId] : undefined;
      if (!action || !action.entities.includes(entity)) return { ok: false, message: "Please choose an action." };
      const ids = [...new Set(chosen)];
      if (ids.length === 0) return { ok: false, message: "Please select at least one row." };
      if (ids.length > BULK_MAX_ROWS) return { ok: false, message: `Please select at most ${BULK_MAX_ROWS} rows at once.` };
      if (!ids.every((id) => UUID.test(id))) return { ok: false, message: "Some selected rows no longer exist: reload the list." };
      if (action.needs === "category" && !UUID.test(choice)) return { ok: false, message: "Please choose the category to move the exhibits to." };
      let answer: BulkResult = { ok: false, message: "" };
      try {
        await inChangeTransaction(deps, async (tx) => {
          const outcome = await action.run(tx, ids, choice, { entity, actor, now: now() });
          // A refusal of the whole Apply rolls back what the action did to the rows before it.
          if (typeof outcome === "string") throw new ApplyRefusal(outcome);
          const { changes, refused } = outcome;
          const summary = action.summary;
          if (summary) {
            const entries: AuditEntry[] = changes.map((c) => ({ action: `${entity}.${actionId}`, entityType: entity, entityId: c.id, summary: summary(c.name), before: c.before, after: c.after }));
            await recordAudits(tx, actor, entries, now());
          }
          let undo: string | undefined;
          if (changes.length) {
            const items = changes.map((c) => ({ id: c.id, name: c.name, ...c.undo }));
            [{ id: undo }] = await tx.insert(bulkBatches).values({ actorId: actor.userId, entity, action: actionId, items, at: now() }).returning({ id: bulkBatches.id });
          }
          const done = changes.length || refused.length === 0 ? action.done(changes.length, ids.length - refused.length, entity) : "Nothing was changed.";
          answer = { ok: changes.length > 0 || refused.length === 0, message: done, ...(refused.length ? { refused: refused.map(({ name, message }) => ({ name, message })) } : {}), ...(undo ? { undo } : {}) };
          return changes.length > 0;
        });
      } catch (error) {
        if (!(error instanceof ApplyRefusal)) throw error;
        return { ok: false, message: error.message };
      }
      return answer;
    },

    /**
     * Puts back what one Apply changed, within UNDO_MINUTES, by the staff member who applied it:
     * each record unless someone changed it since (its version moved on), which is named and
     * left as it is; a bulk move to the trash is undone by restoring each entry.
     */
    async undo(actor: Actor, batchId: string): Promise<BulkResult> {
      if (!UUID.test(batchId)) return { ok: false, message: "That action can no longer be undone." };
      const [batch] = await deps.db.select().from(bulkBatches).where(eq(bulkBatches.id, batchId));
      if (!batch || batch.actorId !== actor.userId) return { ok: false, message: "That action can no longer be undone." };
      if (batch.undoneAt) return { ok: false, message: "That action was undone already." };
      if (now().getTime() - batch.at.getTime() > UNDO_MINUTES * 60_000) return { ok: false, message: `That action is more than ${UNDO_MINUTES} minutes old and can no longer be undone: change the records again${batch.action === "move-to-trash" ? " or restore them from the Trash" : ""}.` };
      const items = batch.items as ({ id: string; name: string } & BulkChange["undo"])[];
      const entity = batch.entity;
      const refused: { name: string; message: string }[] = [];
      let putBack = 0;
      // One undo at a time per batch: the row's undone_at is claimed first.
      const [claimed] = await deps.db.update(bulkBatches).set({ undoneAt: now() }).where(and(eq(bulkBatches.id, batch.id), sql`${bulkBatches.undoneAt} is null`)).returning({ id: bulkBatches.id });
      if (!claimed) return { ok: false, message: "That action was undone already." };
      if (batch.action === "move-to-trash") {
        for (const item of items) {
          if (!("trashEntry" in item)) continue;
          const restored = await deps.restoreFromTrash(actor, item.trashEntry);
          if (restored.ok) putBack++;
          else refused.push({ name: item.name, message: restored.message });
        }
      } else {
        await inChangeTransaction(deps, async (tx) => {
          const table = tableOf(entity);
          const entries: AuditEntry[] = [];
          for (const item of items) {
            if (!("putBack" in item)) continue;
            const [row] = await tx.select({ version: table.version }).from(table).where(eq(table.id, item.id)).for("update");
            if (!row) {
              refused.push({ name: item.name, message: "It no longer exists." });
              continue;
            }
            if (row.version !== item.version) {
              refused.push({ name: item.name, message: "Someone changed it since: it was left as it is." });
              continue;
            }
            const { publishAt, ...columns } = item.putBack;
            const set = { ...columns, ...(publishAt !== undefined ? { publishAt: publishAt === null ? null : new Date(publishAt) } : {}) };
            await tx.update(table).set({ ...set, updatedAt: sql`now()`, version: sql`${table.version} + 1` }).where(eq(table.id, item.id));
            entries.push({ action: `${entity}.${batch.action}.undo`, entityType: entity, entityId: item.id, summary: `Undid a bulk action on ${item.name}`, before: null, after: set });
            putBack++;
          }
          await recordAudits(tx, actor, entries, now());
          return putBack > 0;
        });
      }
      const message = `Undone: ${recordsText(putBack, entity)} put back as ${putBack === 1 ? "it was" : "they were"}.`;
      return { ok: putBack > 0 || refused.length === 0, message, ...(refused.length ? { refused } : {}) };
    },

  };
}

