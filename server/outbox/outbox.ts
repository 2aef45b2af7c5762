/**
 * The durable outbox. A job (an email, a Mailchimp call, a password reset to issue) is a row
 * written in the same transaction as the data it belongs to; the worker runs it later, retrying
 * with exponential backoff, and marks it done once. Rows are claimed with FOR UPDATE SKIP
 * LOCKED, so any number of server processes can run workers over one database without sending
 * anything twice. Jobs that only write to the database (password-reset, gift-delivery) run in the transaction
 * that marks them done, so they take effect exactly once.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { outbox } from "../db/schema";
import type { Logger } from "../logger";
import { createJobLoop } from "../jobs/scheduler";

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
  /** Take the address out of the audience (a deleted account, issue 13). */
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

/** A paid gift ticket to deliver (issue 13): due on its delivery date; the worker makes its redeem link then. */
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
  email: (job: EmailJob) => Promise<void>;
  mailchimp: (job: MailchimpJob) => Promise<void>;
  reminder: (job: ReminderJob) => Promise<void>;
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
}

export function createOutboxWorker({ db, handlers, logger, now = () => new Date(), batchSize = 10 }: OutboxWorkerDeps) {
  /**
   * Claims due jobs with a short lease (one quick statement, rows locked with SKIP LOCKED so
   * racing workers take different rows), then runs them outside any transaction: a slow SMTP
   * server never holds a database connection or lock. A worker that dies mid-job leaves the
   * lease to expire, and another worker retries the job.
   */
  async function runOnce(): Promise<number> {
    const leaseUntil = new Date(now().getTime() + LEASE_MS).toISOString();
    const rows = await queryRows<ClaimedRow>(
      db,
      sql`update ${outbox} set next_attempt_at = ${leaseUntil}, attempts = attempts + 1
          where id in (
            select id from ${outbox}
            where status = 'pending' and next_attempt_at <= ${now().toISOString()}
            order by next_attempt_at
            limit ${batchSize}
            for update skip locked)
          returning id, kind, payload, attempts`,
    );
    for (const row of rows) {
      const payload = typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload;
      const markDone = (tx: Database) =>
        queryRows<{ id: string }>(
          tx,
          sql`update ${outbox} set status = 'done', done_at = ${now().toISOString()}, last_error = null
              where id = ${row.id} and status = 'pending' and attempts = ${row.attempts} returning id`,
        );
      try {
        if (row.kind === "password-reset" || row.kind === "gift-delivery") {
          await db.transaction(async (tx) => {
            if (row.kind === "gift-delivery") await handlers.giftDelivery(tx as unknown as Database, payload as GiftDeliveryJob);
            else await handlers.passwordReset(tx as unknown as Database, payload as PasswordResetJob);
            // Another worker took the job over after our lease ran out: undo, it runs there.
            if ((await markDone(tx as unknown as Database)).length === 0) throw new Error("lease lost");
          });
          continue;
        }
        if (row.kind === "email") await handlers.email(payload as EmailJob);
        else if (row.kind === "reminder") await handlers.reminder(payload as ReminderJob);
        else await handlers.mailchimp(payload as MailchimpJob);
        await markDone(db);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const dead = row.attempts >= MAX_ATTEMPTS;
        const next = new Date(now().getTime() + retryDelayMs(row.attempts)).toISOString();
        await db.execute(
          sql`update ${outbox} set last_error = ${message.slice(0, 1000)},
              status = ${dead ? "dead" : "pending"}, next_attempt_at = ${next} where id = ${row.id}`,
        );
        logger.warn({ job: row.id, kind: row.kind, attempt: row.attempts, err: message }, dead ? "outbox job dead" : "outbox job will retry");
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
    start: () => loop.start(0),
    /** Runs soon instead of at the next poll (after a job was enqueued). */
    kick: loop.kick,
    stop: loop.stop,
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
