/**
 * Housekeeping: deletes what has stopped meaning anything, on a schedule, so no table grows
 * forever: expired sessions, rate-limit counters past their reset time, used or expired
 * password reset tokens, outbox jobs delivered more than a week ago (dead letters after 30
 * days), Stripe webhook event ids after 30 days (Stripe stops retrying after three), and gift
 * ticket drafts never paid for 7 days (decision 018): the names and addresses of a buyer and a
 * recipient kept for a payment that did not come; and Idempotency-Key answers after 24 h
 * (decision 025); and console Trash entries past TRASH_DAYS with the media only they named
 * (decision 031). A card charged for a draft purged meanwhile
 * is recorded for staff as a payment incident (gifts/gift-service.ts), never lost.
 *
 * Safe with several instances: a run takes a transaction-scoped advisory lock with
 * pg_try_advisory_xact_lock, and an instance that does not get it skips the run (another one
 * is doing it). Deletes go in batches, so a large backlog never holds one huge statement, and
 * skip rows another transaction holds (SKIP LOCKED): those go next time.
 *
 * The same locked run queues the ticket expiry reminders that are due (membership/reminders.ts):
 * their unique key, not the lock, is what makes each go out once.
 *
 * On PGlite, which has no autovacuum, each run ends with `VACUUM (ANALYZE)`, one table at a time: it marks the pages
 * whose rows every transaction sees (the visibility map), so counts and per-record counts are
 * answered from an index alone instead of reading every row (the console's lists at 10,000
 * exhibits and 100,000 members, decision 015), frees dead rows for reuse, and keeps the planner's
 * statistics current. PostgreSQL's autovacuum does this by itself there.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Database, DatabaseHandle } from "../db/client";
import { queryRows } from "../db/client";
import { IDEMPOTENCY_TTL_MS } from "../idempotency/idempotency";
import { bulkBatches, gifts, idempotencyKeys, outbox, passwordResetTokens, processedWebhookEvents, rateLimits, sessions } from "../db/schema";
import { UNDO_MINUTES } from "../catalog/bulk-actions";
import type { Logger } from "../logger";
import type { Reminders } from "../membership/reminders";
import { createJobLoop } from "./scheduler";
import type { CollectionTrash } from "../catalog/collection-trash";
import { transactionRetrying } from "../db/retrying";

export const HOUSEKEEPING_LOCK_ID = 7_172_009;
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/** The first run waits a little after start-up, out of the way of migrations and warm-up. */
export const HOUSEKEEPING_FIRST_RUN_MS = 60_000;
const DAY = 86_400_000;
export const RETENTION = {
  /** Delivered emails and Mailchimp calls, kept for questions like "did my receipt go out?". */
  deliveredOutboxMs: 7 * DAY,
  /** Jobs that failed for good, kept longer so staff can look into them. */
  deadOutboxMs: 30 * DAY,
  /** Stripe retries an event for up to three days; its id is needed only that long. */
  webhookEventsMs: 30 * DAY,
  /** A gift's details wait this long for their payment; the buyer who comes back later starts again. */
  unpaidGiftDraftMs: 7 * DAY,
} as const;
const BATCH = 5_000;

export interface HousekeepingCounts {
  sessions: number;
  rateLimits: number;
  passwordResetTokens: number;
  outboxDelivered: number;
  outboxDead: number;
  webhookEvents: number;
  /** Gift ticket drafts never paid. */
  giftDrafts: number;
  /** Stored answers of Idempotency-Keys past 24 h (decision 025). */
  idempotencyKeys: number;
  /** Expiry reminders queued in the outbox. */
  reminders: number;
  /** Trash entries past TRASH_DAYS purged with their media (decision 031). */
  trash: number;
  /** Bulk actions past their undo window. */
  bulkUndo: number;
}

export type HousekeepingRun = { ran: true; counts: HousekeepingCounts } | { ran: false; reason: "another instance holds the lock" };

export interface HousekeepingDeps {
  database: Pick<DatabaseHandle, "db"> & Partial<Pick<DatabaseHandle, "kind">>;
  logger: Logger;
  now?: () => Date;
  /** Queues the expiry reminders due; none without it. */
  reminders?: Pick<Reminders, "queueDue">;
  /** The console's Trash: entries past TRASH_DAYS are purged, then their media (decision 031). */
  trash?: Pick<CollectionTrash, "purgeExpired" | "removeFiles">;
  /** Told when reminders were queued, so the outbox sends them now. */
  onEnqueued?: () => void;
  intervalMs?: number;
  firstRunMs?: number;
}

/** Deletes up to BATCH rows of `table` matching `where` at a time, until none is left; returns how many. */
async function purge(tx: Database, table: SQL, where: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await queryRows<{ n: number }>(
      tx,
      sql`with gone as (
            delete from ${table} where ctid in (select ctid from ${table} where ${where} limit ${BATCH} for update skip locked)
            returning 1)
          select count(*)::int as n from gone`,
    );
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < BATCH) return total;
  }
}

/**
 * PGlite runs each statement synchronously on the event loop: one `vacuum (analyze)` of the whole
 * database held every request for over a second. One table at a time, with a turn of
 * the event loop in between, lets the requests that arrived meanwhile go first (PGlite's queue is FIFO).
 */
async function vacuumTableByTable(db: Database): Promise<void> {
  const tables = await queryRows<{ name: string }>(db, sql`select quote_ident(relname) as name from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace order by relname`);
  for (const { name } of tables) {
    await new Promise((resolve) => setImmediate(resolve));
    await db.execute(sql.raw(`vacuum (analyze) ${name}`));
  }
}

export function createHousekeeping({ database, logger, now = () => new Date(), reminders, trash, onEnqueued, intervalMs = HOUSEKEEPING_INTERVAL_MS, firstRunMs = HOUSEKEEPING_FIRST_RUN_MS }: HousekeepingDeps) {
  const db = database.db;

  async function runOnce(): Promise<HousekeepingRun> {
    const t = now();
    const at = t.toISOString();
    const before = (ms: number) => new Date(t.getTime() - ms).toISOString();
    const outcome = await transactionRetrying(db, async (txn) => {
      const tx = txn as unknown as Database;
      const [lock] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK_ID}) as locked`);
      if (!lock?.locked) return null;
      const purgedTrash = trash ? await trash.purgeExpired(tx, t) : { purged: 0, files: [] };
      const counts = {
        sessions: await purge(tx, sql`${sessions}`, sql`${sessions.expiresAt} <= ${at}`),
        rateLimits: await purge(tx, sql`${rateLimits}`, sql`${rateLimits.resetAt} <= ${at}`),
        passwordResetTokens: await purge(
          tx,
          sql`${passwordResetTokens}`,
          sql`${passwordResetTokens.usedAt} is not null or ${passwordResetTokens.expiresAt} <= ${at}`,
        ),
        outboxDelivered: await purge(tx, sql`${outbox}`, sql`${outbox.status} = 'done' and ${outbox.doneAt} <= ${before(RETENTION.deliveredOutboxMs)}`),
        outboxDead: await purge(tx, sql`${outbox}`, sql`${outbox.status} = 'dead' and ${outbox.createdAt} <= ${before(RETENTION.deadOutboxMs)}`),
        webhookEvents: await purge(tx, sql`${processedWebhookEvents}`, sql`${processedWebhookEvents.processedAt} <= ${before(RETENTION.webhookEventsMs)}`),
        giftDrafts: await purge(tx, sql`${gifts}`, sql`${gifts.status} = 'unpaid' and ${gifts.createdAt} <= ${before(RETENTION.unpaidGiftDraftMs)}`),
        idempotencyKeys: await purge(tx, sql`${idempotencyKeys}`, sql`${idempotencyKeys.createdAt} <= ${before(IDEMPOTENCY_TTL_MS)}`),
        reminders: reminders ? await reminders.queueDue(tx) : 0,
        trash: purgedTrash.purged,
        bulkUndo: await purge(tx, sql`${bulkBatches}`, sql`${bulkBatches.at} <= ${before(UNDO_MINUTES * 60_000)}`),
      } satisfies HousekeepingCounts;
      return { counts, files: purgedTrash.files };
    });
    if (!outcome) return { ran: false, reason: "another instance holds the lock" };
    // The purged originals' disk copies go once the rows that named them are gone for good.
    await trash?.removeFiles(outcome.files);
    const run = outcome.counts;
    if (run.reminders > 0) onEnqueued?.();
    // Outside the transaction: VACUUM cannot run inside one. PGlite is one process, so no lock is needed.
    if (database.kind === "pglite") await vacuumTableByTable(db);
    logger.info({ purged: run, vacuumed: database.kind === "pglite" }, "housekeeping done");
    return { ran: true, counts: run };
  }

  const loop = createJobLoop({
    run: runOnce,
    after: () => intervalMs,
    afterError: (error) => {
      logger.error({ err: error }, "housekeeping failed");
      return intervalMs;
    },
  });

  return {
    runOnce,
    /** Runs after `firstRunMs`, then every `intervalMs` (hourly by default). */
    start: () => loop.start(firstRunMs),
    /** Stops the schedule and waits for a run in progress. */
    stop: loop.stop,
  };
}
