/**
 * The audit log as the console reads it: every staff change writes one row in the transaction
 * that makes the change (server/audit/audit-trail.ts), and the audit page reads them back,
 * filtered by staff member, entity type and dates, newest first, a page at a time.
 */
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { AuditEntityType } from "../../app/shared/console-areas";
import type { Database } from "../db/client";
import { addDays, clockTimeIn } from "../../app/shared/calendar";
import { auditLog, categories, enshrinees, exhibits, teams, users } from "../db/schema";
import { auditChanges, linkedIds, type AuditChange, type LinkNames } from "../audit/audit-changes";

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

/** An entry as the page reads it: its before and after as one line per changed field (no raw JSON). */
export type AuditRow = Omit<typeof auditLog.$inferSelect, "before" | "after"> & { changes: AuditChange[] };

/** `timeZone`: the museum's (MUSEUM_TIME_ZONE), whose calendar the day filters follow. */
export function createAuditLog(db: Database, timeZone: string) {
  /** The instant a museum calendar day starts (daylight saving included, by the database). */
  const dayStart = (day: string) => sql`(${day}::timestamp at time zone ${timeZone})`;
  /** The names of the teams, categories, enshrinees and exhibits the page's entries link to: one query per kind in use. */
  async function linkNames(states: unknown[]): Promise<LinkNames> {
    const ids = linkedIds(states);
    const named = async (wanted: Set<string>, rows: (list: string[]) => Promise<{ id: string; name: string }[]>) =>
      wanted.size ? new Map((await rows([...wanted])).map((r) => [r.id, r.name])) : undefined;
    const [teamId, categoryId, enshrineeIds, exhibitIds] = await Promise.all([
      named(ids.teamId, (list) => db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, list))),
      named(ids.categoryId, (list) => db.select({ id: categories.id, name: categories.categoryName }).from(categories).where(inArray(categories.id, list))),
      named(ids.enshrineeIds, (list) => db.select({ id: enshrinees.id, name: enshrinees.fullName }).from(enshrinees).where(inArray(enshrinees.id, list))),
      named(ids.exhibitIds, (list) => db.select({ id: exhibits.id, name: exhibits.title }).from(exhibits).where(inArray(exhibits.id, list))),
    ]);
    return { teamId, categoryId, enshrineeIds, exhibitIds };
  }

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
      const instant = (at: Date) => clockTimeIn(timeZone, at);
      const names = await linkNames(rows.flatMap((r) => [r.before, r.after]));
      return { rows: rows.map(({ before, after, ...row }) => ({ ...row, changes: before === null && after === null ? [] : auditChanges(before, after, instant, names) })), total };
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

