/**
 * Newsletter subscribers for admins: search (prefix of email or name), their Mailchimp sync
 * state read from the outbox (pending, synced, failed with the reason), retry of a failed sync,
 * unsubscribe (Mailchimp told through the outbox), and the filtered list for a streamed CSV export.
 */
import { and, asc, count, desc, eq, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { outbox, subscribers } from "../db/schema";
import { enqueue } from "../outbox/outbox";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import { transactionRetrying } from "../db/retrying";

export type SyncState = { state: "pending" | "synced" | "kept locally" | "failed" | "not-sent"; reason: string | null; attempts: number };

export interface SubscriberDeps {
  db: Database;
  now?: () => Date;
  onEnqueued?: () => void;
  /** Whether Mailchimp is configured: without it a delivered job only kept the address locally ("kept locally", not "synced"). */
  mailchimp?: boolean;
}

const prefix = (q: string) => `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createSubscriberAdmin({ db, now = () => new Date(), onEnqueued, mailchimp = false }: SubscriberDeps) {
  const delivered: SyncState["state"] = mailchimp ? "synced" : "kept locally";
  function where(query: { q?: string; consent?: boolean }): SQL | undefined {
    const conditions: SQL[] = [];
    const q = query.q?.trim();
    if (q) conditions.push(or(sql`${subscribers.email} like ${prefix(q)}`, sql`lower(${subscribers.firstName}) like ${prefix(q)}`, sql`lower(${subscribers.lastName}) like ${prefix(q)}`)!);
    if (query.consent !== undefined) conditions.push(eq(subscribers.consent, query.consent));
    return conditions.length ? and(...conditions) : undefined;
  }

  /** The latest Mailchimp job of each address (delivered jobs are purged after 7 days: synced). */
  async function syncStates(emails: string[]): Promise<Map<string, SyncState>> {
    const states = new Map<string, SyncState>();
    if (emails.length === 0) return states;
    const jobs = await db
      .select({ email: sql<string>`${outbox.payload}->>'email'`, status: outbox.status, attempts: outbox.attempts, lastError: outbox.lastError, createdAt: outbox.createdAt })
      .from(outbox)
      .where(and(eq(outbox.kind, "mailchimp"), inArray(sql`lower(${outbox.payload}->>'email')`, emails)))
      .orderBy(desc(outbox.createdAt));
    for (const job of jobs) {
      const key = job.email.toLowerCase();
      if (states.has(key)) continue;
      const state = job.status === "done" ? delivered : job.status === "dead" || job.lastError ? "failed" : "pending";
      states.set(key, { state, reason: state === "failed" ? job.lastError : null, attempts: job.attempts });
    }
    return states;
  }

  return {
    /** Whether the newsletter list goes to Mailchimp (false: kept in this site's database only). */
    mailchimp,

    async list(query: { q?: string; consent?: boolean; page: number; pageSize: number; dir?: "asc" | "desc" }) {
      const condition = where(query);
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(subscribers)
          .where(condition)
          .orderBy(query.dir === "asc" ? asc(subscribers.createdAt) : desc(subscribers.createdAt), asc(subscribers.id))
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db.select({ total: count() }).from(subscribers).where(condition),
      ]);
      const states = await syncStates(rows.map((r) => r.email));
      return {
        rows: rows.map((r) => ({ ...r, sync: states.get(r.email) ?? ({ state: r.consent ? delivered : "not-sent", reason: null, attempts: 0 } as SyncState) })),
        total,
      };
    },

    async *batches(query: { q?: string; consent?: boolean }, size = 1000) {
      let after = "";
      for (;;) {
        const rows = await db.select().from(subscribers).where(and(where(query), after ? gt(subscribers.id, after) : undefined)).orderBy(asc(subscribers.id)).limit(size);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1].id;
        if (rows.length < size) return;
      }
    },

    /**
     * Takes consent back: no more newsletter for this address (the row is kept, so a later
     * sign-up is recognized), and Mailchimp is told through the outbox in the same transaction.
     */
    async unsubscribe(actor: Actor, id: string): Promise<Saved> {
      const result = await transactionRetrying(db, async (tx) => {
        const [before] = await tx.select().from(subscribers).where(eq(subscribers.id, id)).for("update");
        if (!before) return { ok: false as const, message: "No such subscriber." };
        const [after] = await tx.update(subscribers).set({ consent: false, updatedAt: now() }).where(eq(subscribers.id, id)).returning();
        await enqueue(tx, { kind: "mailchimp", payload: { email: before.email, firstName: before.firstName, lastName: before.lastName, consent: false, unsubscribe: true } }, now());
        await recordAudit(tx, actor, { action: "subscriber.unsubscribe", entityType: "subscriber", entityId: id, summary: `Unsubscribed ${before.email}`, before, after }, now());
        return { ok: true as const, id, message: `${before.email} is unsubscribed.` };
      });
      if (result.ok) onEnqueued?.();
      return result;
    },

    /** Runs a failed Mailchimp sync again now. */
    async retry(actor: Actor, id: string): Promise<Saved> {
      const result = await transactionRetrying(db, async (tx) => {
        const [subscriber] = await tx.select().from(subscribers).where(eq(subscribers.id, id));
        if (!subscriber) return { ok: false as const, message: "No such subscriber." };
        const retried = await tx
          .update(outbox)
          .set({ status: "pending", nextAttemptAt: now(), attempts: 0 })
          .where(and(eq(outbox.kind, "mailchimp"), sql`lower(${outbox.payload}->>'email') = ${subscriber.email}`, inArray(outbox.status, ["pending", "dead"])))
          .returning({ id: outbox.id });
        if (retried.length === 0) return { ok: false as const, message: "There is no failed sync to retry for this address." };
        await recordAudit(tx, actor, { action: "subscriber.retry", entityType: "subscriber", entityId: id, summary: `Retried the Mailchimp sync of ${subscriber.email}` }, now());
        return { ok: true as const, id, message: `The sync of ${subscriber.email} is queued again.` };
      });
      if (result.ok) onEnqueued?.();
      return result;
    },
  };
}

