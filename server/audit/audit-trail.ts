/**
 * Writing the audit trail (decision 015, decision 023): every staff change writes one row in the
 * transaction that makes the change (who, when, which entity, the record before and after). The
 * domain modules that own the data (catalog, membership, gifts) write it themselves, inside
 * their own transactions, when a staff member's `Actor` is passed; the console only reads it
 * back (server/admin/audit-log.ts). It lives outside server/admin so no domain module imports
 * the console.
 */
import type { AuditEntityType } from "../../app/shared/console-areas";
import { CONFLICT_MESSAGE, conflictOf, type EditConflict, type FieldValue } from "../../app/shared/edit-conflict";
import type { Database } from "../db/client";
import { auditLog } from "../db/schema";

/** The staff member making a change, as the console's guard proved it. */
export interface Actor {
  userId: string | null;
  email: string;
}

export interface AuditEntry {
  action: string;
  entityType: AuditEntityType;
  entityId: string | null;
  summary: string;
  before?: unknown;
  after?: unknown;
}

/**
 * What a staff change answers: the console shows `message`, or `errors` beside the fields, or,
 * when the record changed since the form was opened, `conflict`: nothing was written, and the
 * fields that differ are listed for the person to choose (decision 029).
 */
/** `merged`: fields of a stale save that took another person's change (collection-writes.ts staleSave). */
export type Saved = { ok: true; id: string; message: string; merged?: string[] } | { ok: false; message: string; errors?: Record<string, string>; conflict?: EditConflict };

/**
 * The refusal of a save started from `expected` when the record is at `current`: null when the
 * versions match (or the form carried none), or when no field of `mine` differs from `theirs`
 * (the save would overwrite nothing anyone else saved, so it goes ahead).
 */
export function refusedAsConflict(expected: string | number | undefined, current: string | number, mine: Record<string, FieldValue>, theirs: Record<string, FieldValue>): Saved | null {
  if (expected === undefined || String(expected) === String(current)) return null;
  const conflict = conflictOf(current, mine, theirs);
  return conflict ? { ok: false, message: CONFLICT_MESSAGE, conflict } : null;
}

/** Anything that can insert: the database or an open transaction. */
type Writer = Pick<Database, "insert">;

/** Writes one audit row; call it with the transaction that makes the change. */
export async function recordAudit(tx: Writer, actor: Actor, entry: AuditEntry, at: Date): Promise<void> {
  await recordAudits(tx, actor, [entry], at);
}

/**
 * Writes one audit row per entry in a few multi-row inserts (bulk actions and CSV imports: one
 * entry per record, thousands at once); call it with the transaction that makes the changes.
 */
export async function recordAudits(tx: Writer, actor: Actor, entries: readonly AuditEntry[], at: Date, chunk = 500): Promise<void> {
  for (let i = 0; i < entries.length; i += chunk) {
    await tx.insert(auditLog).values(
      entries.slice(i, i + chunk).map((entry) => ({
        at,
        actorId: actor.userId,
        actorEmail: actor.email,
        action: entry.action,
        entityType: entry.entityType,
        entityId: entry.entityId,
        summary: entry.summary,
        before: entry.before === undefined ? null : jsonSafe(entry.before),
        after: entry.after === undefined ? null : jsonSafe(entry.after),
      })),
    );
  }
}

/** Dates become ISO strings, undefined fields go: what jsonb keeps is what the page shows. */
function jsonSafe(value: unknown): unknown {
  return value === null ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}
