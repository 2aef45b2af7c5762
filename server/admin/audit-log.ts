/**
 * The audit log: every console change writes one row in the transaction that makes the change
 * (who, when, which entity, the record before and after), and the audit page reads it back,
 * filtered by staff member, entity type and dates, newest first, a page at a time.
 */
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { AuditEntityType } from "../../app/routes/admin/console-areas";
import type { Database } from "../db/client";
import { addDays } from "../membership/ticket";
import { auditLog, users } from "../db/schema";

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

/** Anything that can insert: the database or an open transaction. */
type Writer = Pick<Database, "insert">;

/** Writes one audit row; call it with the transaction that makes the change. */
export async function recordAudit(tx: Writer, actor: Actor, entry: AuditEntry, at: Date): Promise<void> {
  await tx.insert(auditLog).values({
    at,
    actorId: actor.userId,
    actorEmail: actor.email,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    summary: entry.summary,
    before: entry.before === undefined ? null : jsonSafe(entry.before),
    after: entry.after === undefined ? null : jsonSafe(entry.after),
  });
}

/** Dates become ISO strings, undefined fields go: what jsonb keeps is what the page shows. */
function jsonSafe(value: unknown): unknown {
  return value === null ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

export interface AuditFilter {
  actorId?: string;
  entityType?: AuditEntityType;
  /** Inclusive day (YYYY-MM-DD) on the museum's calendar. */
  from?: string;
  /** Inclusive day (YYYY-MM-DD) on the museum's calendar. */
  to?: string;
  /** The entity types the reader may see (a curator's excludes personal data). */
  visibleTypes: readonly AuditEntityType[];
  page: number;
  pageSize: number;
}

export type AuditRow = typeof auditLog.$inferSelect;

/** `timeZone`: the museum's (MUSEUM_TIME_ZONE), whose calendar the day filters follow. */
export function createAuditLog(db: Database, timeZone: string) {
  /** The instant a museum calendar day starts (daylight saving included, by the database). */
  const dayStart = (day: string) => sql`(${day}::timestamp at time zone ${timeZone})`;
  return {
    async list(f: AuditFilter): Promise<{ rows: AuditRow[]; total: number }> {
      const where: SQL[] = [inArray(auditLog.entityType, [...f.visibleTypes])];
      if (f.entityType) where.push(eq(auditLog.entityType, f.entityType));
      if (f.actorId) where.push(eq(auditLog.actorId, f.actorId));
      if (f.from) where.push(gte(auditLog.at, dayStart(f.from)));
      if (f.to) where.push(lt(auditLog.at, dayStart(addDays(f.to, 1))));
      const condition = and(...where);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(auditLog)
          .where(condition)
          .orderBy(desc(auditLog.at), desc(auditLog.id))
          .limit(f.pageSize)
          .offset((f.page - 1) * f.pageSize),
        db.select({ total: count() }).from(auditLog).where(condition),
      ]);
      return { rows, total };
    },

    /** Staff members who may appear in the log (for the filter's list). */
    async actors(): Promise<{ id: string; email: string }[]> {
      return db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.role, ["curator", "admin"]))
        .orderBy(users.email);
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLog>;
