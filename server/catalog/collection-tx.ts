/**
 * What the collection's writes (collection-writes.ts) and the Trash (collection-trash.ts) share:
 * a change committed with its change notification, and free slugs for records' addresses.
 */
import { and, eq, ne } from "drizzle-orm";
import { slugify } from "../../app/shared/text";
import type { Database } from "../db/client";
import type { Saved } from "../audit/audit-trail";
import type { categories, enshrinees, exhibits, teams } from "../db/schema";
import { transactionRetrying } from "../db/retrying";

/** An open transaction of the collection's writes. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** A slug for `text` not used by another row of `table` (saves and restores from the trash). */
export async function freeSlug(tx: Pick<Database, "select">, table: typeof teams | typeof categories | typeof exhibits | typeof enshrinees, text: string, id: string | null): Promise<string> {
  const base = slugify(text);
  for (let i = 1; i < 50; i++) {
    const slug = i === 1 ? base : `${base}-${i}`;
    const where = id ? and(eq(table.slug, slug), ne(table.id, id)) : eq(table.slug, slug);
    const [taken] = await tx.select({ id: table.id }).from(table).where(where).limit(1);
    if (!taken) return slug;
  }
  return `${base}-${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Runs a change in one transaction that also sends the change notification (every instance's
 * caches forget on commit); a refused change tells nobody. The staff member's next page comes from
 * this process: its caches are cleared now rather than when the notification's echo arrives.
 */
export async function commitChange<T extends Saved>(db: Database, notifyChange: (tx?: Database) => Promise<void>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await transactionRetrying(db, async (tx) => {
    const outcome = await fn(tx);
    if (outcome.ok) await notifyChange(tx as unknown as Database);
    return outcome;
  });
  if (result.ok) await notifyChange();
  return result;
}
