/**
 * Bulk actions on rows chosen in the console's exhibit and enshrinee lists (issue 24 point 9,
 * decision 034). `BULK_ACTIONS` is the one table: an action is one entry (which list shows it,
 * its label, the choice it needs, and what it does to the chosen records inside the
 * transaction). The runner checks the choice, runs the entry in one transaction with one audit
 * row per changed record and one change notification, and answers what was done.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { categories, enshrinees, exhibits } from "../db/schema";
import { recordAudits, type Actor, type AuditEntry } from "../audit/audit-trail";
import type { CollectionDeps } from "./collection-writes";
import { setPublication } from "./publication";
import { trashRecord } from "./collection-trash";
import type { Tx } from "./collection-tx";

export type ChangeDeps = CollectionDeps;
/** The database or an open transaction: what reads and batched writes need. */
export type Reader = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

/**
 * Runs a batch of collection changes in one transaction; when `fn` answers true (it wrote), the
 * change feed is told once inside it (delivered on commit) and this process's caches at once,
 * as the console's single saves do (collection-writes.ts).
 */
export async function inChangeTransaction(deps: ChangeDeps, fn: (tx: Reader) => Promise<boolean>): Promise<boolean> {
  const wrote = await deps.db.transaction(async (tx) => {
    const changed = await fn(tx);
    if (changed) await deps.notifyChange(tx as unknown as Database);
    return changed;
  });
  if (wrote) await deps.notifyChange();
  return wrote;
}

export type BulkEntity = "exhibit" | "enshrinee";

/** One record an action changed: its audit row's before and after. */
export interface BulkChange {
  id: string;
  name: string;
  before: unknown;
  after: unknown;
}

export interface BulkAction {
  /** The lists that offer it. */
  entities: BulkEntity[];
  /** The option's text in the action select. */
  label: string;
  /** A choice the action needs beside the rows (the category to move exhibits to). */
  needs?: "category";
  /** Changes the chosen records (locked, inside the transaction); a string is a refusal. */
  run(tx: Reader, ids: string[], choice: string, context: { entity: BulkEntity; actor: Actor; now: Date }): Promise<BulkChange[] | string>;
  /** The audit summary of one record (none: the action's own writer audits each record, as moving to the trash does). */
  summary?(name: string): string;
  /** What the console says after: `n` records changed of `chosen`. */
  done(n: number, chosen: number, entity: BulkEntity): string;
}

const exhibitsText = (n: number) => `${n} exhibit${n === 1 ? "" : "s"}`;
const recordsText = (n: number, entity: BulkEntity) => (entity === "exhibit" ? exhibitsText(n) : `${n} enshrinee${n === 1 ? "" : "s"}`);

/** Sets the chosen records' publication (decision 032) through the one setter; answers those it changed. */
async function publishAll(tx: Reader, ids: string[], publication: { state: "draft" } | { state: "published" }, entity: BulkEntity, now: Date): Promise<BulkChange[]> {
  const table = entity === "exhibit" ? exhibits : enshrinees;
  const names = new Map((await tx.select({ id: table.id, name: entity === "exhibit" ? exhibits.title : enshrinees.fullName }).from(table).where(inArray(table.id, ids))).map((r) => [r.id, r.name]));
  const changes: BulkChange[] = [];
  for (const id of ids) {
    const set = await setPublication(tx as unknown as Database, entity, id, publication, now);
    if (!set || set.before?.getTime() === set.after?.getTime()) continue;
    if (entity === "exhibit") await tx.update(exhibits).set({ updatedAt: sql`now()` }).where(eq(exhibits.id, id));
    else await tx.update(enshrinees).set({ updatedAt: sql`now()` }).where(eq(enshrinees.id, id));
    changes.push({ id, name: names.get(id) ?? id, before: { publishAt: set.before }, after: { publishAt: set.after } });
  }
  return changes;
}
const unchanged = (n: number, chosen: number) => (chosen > n ? ` (${chosen - n} already ${chosen - n === 1 ? "was" : "were"})` : "");

/**
 * Sets `set` on the chosen exhibits whose `column` differs (locked first), bumping updated_at as
 * a save does; answers each changed exhibit's row before and after.
 */
async function setOnExhibits(tx: Reader, ids: string[], set: Partial<typeof exhibits.$inferInsert>, differs: ReturnType<typeof ne>): Promise<BulkChange[]> {
  const before = await tx.select().from(exhibits).where(and(inArray(exhibits.id, ids), differs)).for("update");
  if (before.length === 0) return [];
  const after = await tx
    .update(exhibits)
    .set({ ...set, updatedAt: sql`now()` })
    .where(inArray(
      exhibits.id,
      before.map((b) => b.id),
    ))
    .returning();
  const byId = new Map(after.map((a) => [a.id, a]));
  return before.map((b) => ({ id: b.id, name: b.title, before: b, after: byId.get(b.id) }));
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
      return setOnExhibits(tx, ids, { categoryId }, ne(exhibits.categoryId, categoryId));
    },
    summary: (name) => `Moved exhibit ${name} to another category (bulk action)`,
    done: (n, chosen) => `Moved ${exhibitsText(n)} to the category${unchanged(n, chosen)}.`,
  },
  "add-to-favorites": {
    entities: ["exhibit"],
    label: "Add to favorite stories",
    run: (tx, ids) => setOnExhibits(tx, ids, { favoriteStory: true }, ne(exhibits.favoriteStory, true)),
    summary: (name) => `Added exhibit ${name} to favorite stories (bulk action)`,
    done: (n, chosen) => `Added ${exhibitsText(n)} to favorite stories${unchanged(n, chosen)}.`,
  },
  "remove-from-favorites": {
    entities: ["exhibit"],
    label: "Remove from favorite stories",
    run: (tx, ids) => setOnExhibits(tx, ids, { favoriteStory: false }, ne(exhibits.favoriteStory, false)),
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
    // Each record through the trash's own writer (its snapshot and audit row: decision 031); one refusal refuses all.
    async run(tx, ids, _choice, { entity, actor, now }) {
      const changes: BulkChange[] = [];
      for (const id of ids) {
        const moved = await trashRecord(tx as unknown as Tx, actor, entity, id, now);
        if (!moved.ok) return moved.message;
        changes.push({ id, name: id, before: null, after: null });
      }
      return changes;
    },
    done: (n, _chosen, entity) => `Moved ${recordsText(n, entity)} to the trash. Restore them from the Trash if that was a mistake.`,
  },
};

/** Most rows one action takes (a console page shows at most 100). */
export const BULK_MAX_ROWS = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type BulkResult = { ok: boolean; message: string };

/** An action's refusal, thrown inside its transaction so that nothing it did stays. */
class BulkRefusal extends Error {}

export function createBulkActions(deps: ChangeDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /** The actions a list offers, for its select. */
    actionsFor(entity: BulkEntity) {
      return Object.entries(BULK_ACTIONS)
        .filter(([, a]) => a.entities.includes(entity))
        .map(([id, a]) => ({ id, label: a.label, needs: a.needs ?? null }));
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
          const changes = await action.run(tx, ids, choice, { entity, actor, now: now() });
          // A refusal rolls back what the action did to the rows before it: all or nothing.
          if (typeof changes === "string") throw new BulkRefusal(changes);
          const summary = action.summary;
          if (summary) {
            const entries: AuditEntry[] = changes.map((c) => ({ action: `${entity}.${actionId}`, entityType: entity, entityId: c.id, summary: summary(c.name), before: c.before, after: c.after }));
            await recordAudits(tx, actor, entries, now());
          }
          answer = { ok: true, message: action.done(changes.length, ids.length, entity) };
          return changes.length > 0;
        });
      } catch (error) {
        if (!(error instanceof BulkRefusal)) throw error;
        return { ok: false, message: error.message };
      }
      return answer;
    },
  };
}

export type BulkActions = ReturnType<typeof createBulkActions>;
