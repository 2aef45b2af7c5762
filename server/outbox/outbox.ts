/**
 * The durable outbox. A job (an email, a Mailchimp call, a password reset to issue) is a row
 * written in the same transaction as the data it belongs to; the worker runs it later, retrying
 * with exponential backoff, and marks it done once. Rows are claimed with FOR UPDATE SKIP
 * LOCKED and marked 'sending' with a lease, so any number of server processes can run workers
 * over one database without sending anything twice; a job's outcome is written again and again
 * until the database takes it, and a job whose outcome is unknown is not resent blindly
 * (decision 021). Jobs that only write to the database (password-reset, gift-delivery) run in
 * the transaction that marks them done, so they take effect exactly once.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { outbox } from "../db/schema";
import type { Logger } from "../logger";
import { createJobLoop } from "../jobs/scheduler";
import { transactionRetrying } from "../db/retrying";

export interface EmailJob {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  /** What the email is for (receipt, password-reset, contact), for logs. */
  purpose: string;
  /** An https link whose POST stops this kind of email (List-Unsubscribe, one click). */
  listUnsubscribe?: string;
}

export interface MailchimpJob {
  email: string;
  firstName: string;
  lastName: string;
  consent: boolean;
  /** Take the address out of the audience (a deleted account). */
  unsubscribe?: boolean;
}

/** A password reset asked for this address; the worker drops it when no account has it. */
export interface PasswordResetJob {
  email: string;
}

/**
 * An expiry reminder of one ticket period (decision 017, section 5): the email is written when
 * the job runs, and only if the account still exists, still ends on `lastDay` (not renewed) and
 * still wants reminders.
 */
export interface ReminderJob {
  userId: string;
  lastDay: string;
  offsetDays: number;
}

/** A paid gift ticket to deliver: due on its delivery date; the worker makes its redeem link then. */
export interface GiftDeliveryJob {
  giftId: string;
}

export type OutboxJob =
  | { kind: "email"; payload: EmailJob }
  | { kind: "mailchimp"; payload: MailchimpJob }
  | { kind: "password-reset"; payload: PasswordResetJob }
  | { kind: "reminder"; payload: ReminderJob }
  | { kind: "gift-delivery"; payload: GiftDeliveryJob };

/** Anything that can insert: the database or an open transaction. */
type Writer = Pick<Database, "insert">;

/** Queues a job, due at `at` (the caller's clock, so tests with a fixed clock see it due). */
export async function enqueue(db: Writer, job: OutboxJob, at: Date = new Date()): Promise<void> {
  await db.insert(outbox).values({ kind: job.kind, payload: job.payload, nextAttemptAt: at, createdAt: at });
}

export type JobHandlers = {
  /** `context.outboxId` names the row, so every attempt sends the same Message-ID. */
  email: (job: EmailJob, context: JobContext) => Promise<void>;
  mailchimp: (job: MailchimpJob) => Promise<void>;
  reminder: (job: ReminderJob, context: JobContext) => Promise<void>;
  /** Runs inside the transaction that marks the job done; writes only to the database. */
  passwordReset: (tx: Database, job: PasswordResetJob) => Promise<void>;
  /** Runs inside the transaction that marks the job done; writes only to the database. */
  giftDelivery: (tx: Database, job: GiftDeliveryJob) => Promise<void>;
};

/** Delay before retry n (1-based): 5 s doubling, capped at 10 minutes. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5_000 * 2 ** (attempt - 1), 600_000);
}
/** After this many attempts (about three days at the cap) a job is parked as dead. */
export const MAX_ATTEMPTS = 450;
/** A claimed job is retried by another worker if not finished within this time. */
export const LEASE_MS = 120_000;
/**
 * A job whose lease ran out while it was being sent has an unknown outcome (decision 021): it
 * waits this long again, counted from when a live worker saw the lease expired, before it is
 * sent again. Its first worker, if alive (its database connection was lost), marks it done in
 * that time, since it retries that write every few seconds.
 */
export const UNKNOWN_OUTCOME_WAIT_MS = 300_000;
/** Jobs that only write to the database: they commit with their 'done' mark, so no outcome is ever unknown. */
const DATABASE_ONLY_KINDS = ["password-reset", "gift-delivery"] as const;

/** How the worker tells a job's handler which outbox row it runs (for the email's Message-ID). */
export interface JobContext {
  outboxId: string;
}

interface ClaimedRow {
  id: string;
  kind: OutboxJob["kind"];
  payload: unknown;
  attempts: number;
}

export interface OutboxWorkerDeps {
  db: Database;
  handlers: JobHandlers;
  logger: Logger;
  now?: () => Date;
  batchSize?: number;
  /** Waits between tries of an outcome write while the database is unreachable (tests shorten them). */
  settleDelaysMs?: { first: number; max: number };
  /** Told when a job was finished after another worker had taken it over (it may have gone out twice). */
  onLeaseLost?: (kind: OutboxJob["kind"]) => void;
}

export function createOutboxWorker({ db, handlers, logger, now = () => new Date(), batchSize = 10, settleDelaysMs = { first: 100, max: 5_000 }, onLeaseLost }: OutboxWorkerDeps) {
  let stopped = true;
  let stoppedAt = 0;
  /**
   * Writes a job's outcome, retrying until it holds: a send the SMTP server accepted must be
   * marked done even if the database is restarting. Gives up only 5 s after stop().
   */
  async function settle<T>(what: string, job: ClaimedRow, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1, delay = settleDelaysMs.first; ; attempt++, delay = Math.min(delay * 2, settleDelaysMs.max)) {
      try {
        return await write();
      } catch (error) {
        if (stopped && stoppedAt > 0 && Date.now() - stoppedAt > 5_000) throw error;
        logger.warn({ job: job.id, kind: job.kind, try: attempt, err: error instanceof Error ? error.message : String(error) }, `outbox: ${what} failed; retrying`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /**
   * Claims due jobs with a short lease, marking them 'sending' in one committed statement (rows
   * locked with SKIP LOCKED so racing workers take different rows; the attempt number is the
   * fence), then runs them outside any transaction: a slow SMTP server never holds a database
   * connection or lock. A 'sending' job whose lease ran out has an unknown outcome: it is put
   * back with a further wait instead of being sent again at once (decision 021).
   */
  async function runOnce(): Promise<number> {
    const at = now();
    const leaseUntil = new Date(at.getTime() + LEASE_MS).toISOString();
    const unknownRetryAt = new Date(at.getTime() + UNKNOWN_OUTCOME_WAIT_MS).toISOString();
    const recovered = await queryRows<{ id: string; kind: string; attempts: number }>(
      db,
      sql`update ${outbox} set status = 'pending',
            next_attempt_at = case when kind in (${sql.join(DATABASE_ONLY_KINDS.map((k) => sql`${k}`), sql`, `)}) then ${at.toISOString()}::timestamptz else ${unknownRetryAt}::timestamptz end,
            last_error = 'outcome unknown: the worker of attempt ' || attempts || ' did not finish within its lease'
          where status = 'sending' and next_attempt_at <= ${at.toISOString()}
          returning id, kind, attempts`,
    );
    for (const row of recovered) logger.warn({ job: row.id, kind: row.kind, attempt: row.attempts }, "outbox job's lease ran out mid-run: outcome unknown, retried later");
    const rows = await queryRows<ClaimedRow>(
      db,
      sql`update ${outbox} set status = 'sending', next_attempt_at = ${leaseUntil}, attempts = attempts + 1
          where id in (
            select id from ${outbox}
            where status = 'pending' and next_attempt_at <= ${at.toISOString()}
            order by next_attempt_at
            limit ${batchSize}
            for update skip locked)
          returning id, kind, payload, attempts`,
    );
    for (const row of rows) {
      const payload = typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload;
      const context: JobContext = { outboxId: row.id };
      // Fenced by the attempt number: a worker that took the job over has a higher one. A job
      // put back after its lease ran out ('pending', same attempt) can still be finished here.
      const markDone = (tx: Database) =>
        queryRows<{ id: string }>(
          tx,
          sql`update ${outbox} set status = 'done', done_at = ${now().toISOString()}, last_error = null
              where id = ${row.id} and status in ('sending', 'pending') and attempts = ${row.attempts} returning id`,
        );
      // Just before running it, the job's lease is renewed, fenced: a job that waited behind
      // others of the batch (the database away meanwhile) and was put back since is not ours.
      const renewed = await settle("renewing a lease", row, () =>
        queryRows<{ id: string }>(
          db,
          sql`update ${outbox} set next_attempt_at = ${new Date(now().getTime() + LEASE_MS).toISOString()}
              where id = ${row.id} and status = 'sending' and attempts = ${row.attempts} returning id`,
        ),
      );
      if (renewed.length === 0) continue;
      let ran = false;
      try {
        if (row.kind === "password-reset" || row.kind === "gift-delivery") {
          await transactionRetrying(db, async (tx) => {
            if (row.kind === "gift-delivery") await handlers.giftDelivery(tx as unknown as Database, payload as GiftDeliveryJob);
            else await handlers.passwordReset(tx as unknown as Database, payload as PasswordResetJob);
            // Another worker took the job over after our lease ran out: undo, it runs there.
            if ((await markDone(tx as unknown as Database)).length === 0) throw new Error("lease lost");
          });
          continue;
        }
        if (row.kind === "email") await handlers.email(payload as EmailJob, context);
        else if (row.kind === "reminder") await handlers.reminder(payload as ReminderJob, context);
        else await handlers.mailchimp(payload as MailchimpJob);
        ran = true;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const dead = row.attempts >= MAX_ATTEMPTS;
        const next = new Date(now().getTime() + retryDelayMs(row.attempts)).toISOString();
        await settle("recording a failed attempt", row, () =>
          db.execute(
            sql`update ${outbox} set last_error = ${message.slice(0, 1000)},
                status = ${dead ? "dead" : "pending"}, next_attempt_at = ${next}
                where id = ${row.id} and status in ('sending', 'pending') and attempts = ${row.attempts}`,
          ),
        );
        logger.warn({ job: row.id, kind: row.kind, attempt: row.attempts, err: message }, dead ? "outbox job dead" : "outbox job will retry");
      }
      if (ran && (await settle("marking a job done", row, () => markDone(db))).length === 0) {
        onLeaseLost?.(row.kind);
        logger.error({ job: row.id, kind: row.kind, attempt: row.attempts }, "outbox job done after another worker took it over: it may have run twice");
      }
    }
    return rows.length;
  }

  const loop = createJobLoop({
    run: runOnce,
    after: (n) => (n > 0 ? 0 : 2_000),
    afterError: (error) => {
      logger.error({ err: error }, "outbox worker failed");
      return 5_000;
    },
  });

  return {
    runOnce,
    start() {
      stopped = false;
      stoppedAt = 0;
      loop.start(0);
    },
    /** Runs soon instead of at the next poll (after a job was enqueued). */
    kick: loop.kick,
    async stop() {
      // settle() keeps retrying an outcome for 5 s more, then gives up so the process can exit.
      stopped = true;
      stoppedAt = Date.now();
      await loop.stop();
    },
  };
}

