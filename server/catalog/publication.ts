/**
 * Drafts and scheduled publishing (decision 032): the one rule "visible to the public
 * now", used by every public reader (the catalog, search, share cards), and the one way to set a
 * record's publication (the console's forms and bulk actions).
 *
 * A record's `publish_at` is null for a draft and otherwise the time it appears; it is visible at
 * `now` when that time has passed. The seed's `active` flag is separate and keeps its meaning.
 */
import { and, eq, gt, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Publication } from "../../app/shared/publication";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { bannerSlides, enshrinees, exhibits } from "../db/schema";

/** The stored time of a record published from the start (the column's default, migration 0020). */
export const PUBLISHED_ALWAYS = new Date(0);

/** The rule: a record (its `publish_at` column or expression) is visible to visitors and members at `now`. */
export function visibleAt(publishAt: SQLWrapper, now: Date): SQL {
  return sql`${publishAt} <= ${now.toISOString()}::timestamptz`;
}

/** The `publish_at` to store for what staff chose; a record published already keeps its time. */
export function publishAtFor(publication: Publication, current: Date | null | undefined, now: Date): Date | null {
  if (publication.state === "draft") return null;
  if (publication.state === "scheduled") return publication.at;
  return current && current.getTime() <= now.getTime() ? current : now;
}

export type PublishableKind = "exhibit" | "enshrinee";

/**
 * Sets the publication of one exhibit or enshrinee inside `tx` (the caller's transaction, which
 * writes its audit row and notifies the change feed). Returns the stored `publish_at` before and
 * after, or null when the record does not exist.
 */
export async function setPublication(
  tx: Database,
  kind: PublishableKind,
  id: string,
  publication: Publication,
  now: Date,
): Promise<{ before: Date | null; after: Date | null } | null> {
  const table = kind === "exhibit" ? exhibits : enshrinees;
  const [row] = await tx.select({ publishAt: table.publishAt }).from(table).where(eq(table.id, id)).for("update");
  if (!row) return null;
  const after = publishAtFor(publication, row.publishAt, now);
  if (after?.getTime() !== row.publishAt?.getTime()) await tx.update(table).set({ publishAt: after }).where(eq(table.id, id));
  return { before: row.publishAt, after };
}

/**
 * The records whose publish time is in (`from`, `to`]: they have just appeared. Their search
 * documents' neighbours are refreshed (an exhibit's enshrinee names, an enshrinee's teams and
 * years come from the visible records); returns how many appeared and the next publish time after `to`.
 */
export async function publishPassed(db: Database, from: Date, to: Date): Promise<{ appeared: number; next: Date | null }> {
  const window = (col: typeof exhibits.publishAt | typeof enshrinees.publishAt | typeof bannerSlides.publishAt) => and(gt(col, from), lte(col, to));
  const [e, n, b] = await Promise.all([
    db.select({ id: exhibits.id }).from(exhibits).where(window(exhibits.publishAt)),
    db.select({ id: enshrinees.id }).from(enshrinees).where(window(enshrinees.publishAt)),
    db.select({ file: bannerSlides.file }).from(bannerSlides).where(window(bannerSlides.publishAt)),
  ]);
  if (e.length) await db.execute(sql`select search_refresh_enshrinees(array(select distinct l.enshrinee_id from enshrinee_exhibits l where l.exhibit_id = any(${`{${e.map((r) => r.id).join(",")}}`}::uuid[])))`);
  if (n.length) await db.execute(sql`select search_refresh_exhibits(array(select distinct l.exhibit_id from enshrinee_exhibits l where l.enshrinee_id = any(${`{${n.map((r) => r.id).join(",")}}`}::uuid[])))`);
  const [next] = await queryRows<{ at: Date | string | null }>(
    db,
    sql`select least(
          (select min(publish_at) from exhibits where publish_at > ${to.toISOString()}::timestamptz),
          (select min(publish_at) from enshrinees where publish_at > ${to.toISOString()}::timestamptz),
          (select min(publish_at) from banner_slides where publish_at > ${to.toISOString()}::timestamptz)) as at`,
  );
  return { appeared: e.length + n.length + b.length, next: next?.at ? new Date(next.at) : null };
}
