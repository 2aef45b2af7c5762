/**
 * The console's Overview: what needs doing. Unanswered contact messages, mail that
 * failed to send (outbox rows given up on: "dead"), drafts and scheduled records of the
 * collection, the payments and refunds of the last seven days, and the last backup. Counts only, plus the few failed mails themselves (recipient, subject, error).
 */
import { and, count, desc, eq, gt, gte, isNull, ne, sql, sum } from "drizzle-orm";
import type { Database } from "../db/client";
import { latestBackups } from "../backup/backup-service";
import { bannerSlides, contactMessages, enshrinees, exhibits, outbox, payments } from "../db/schema";

const WEEK_MS = 7 * 24 * 60 * 60_000;

export function createOverview({ db, now = () => new Date() }: { db: Database; now?: () => Date }) {
  return {
    /** Contact messages still "new" (no reply, not archived). */
    async unansweredMessages(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(contactMessages).where(eq(contactMessages.status, "new"));
      return row.n;
    },

    /** Mail the outbox gave up on (every kind but the Mailchimp sync), newest first, and how many. */
    async failedMail(limit = 5) {
      const dead = and(eq(outbox.status, "dead"), ne(outbox.kind, "mailchimp"));
      const [[total], rows] = await Promise.all([
        db.select({ n: count() }).from(outbox).where(dead),
        db
          .select({ id: outbox.id, kind: outbox.kind, to: sql<string | null>`coalesce(${outbox.payload}->>'to', ${outbox.payload}->>'email')`, subject: sql<string | null>`${outbox.payload}->>'subject'`, lastError: outbox.lastError, createdAt: outbox.createdAt })
          .from(outbox)
          .where(dead)
          .orderBy(desc(outbox.createdAt))
          .limit(limit),
      ]);
      return { total: total.n, rows };
    },

    /** Exhibits, enshrinees and banner slides not yet published (decision 032): drafts, and those scheduled for later. */
    async unpublished() {
      const at = now();
      const tally = async (table: typeof exhibits | typeof enshrinees | typeof bannerSlides) => {
        const [[drafts], [scheduled]] = await Promise.all([
          db.select({ n: count() }).from(table).where(isNull(table.publishAt)),
          db.select({ n: count() }).from(table).where(gt(table.publishAt, at)),
        ]);
        return { drafts: drafts.n, scheduled: scheduled.n };
      };
      const [exhibitCounts, enshrineeCounts, slideCounts] = await Promise.all([tally(exhibits), tally(enshrinees), tally(bannerSlides)]);
      return { exhibits: exhibitCounts, enshrinees: enshrineeCounts, bannerSlides: slideCounts };
    },

    /** The newest backup (when, size, ok or failed) and the newest good one (decision 046). */
    lastBackup: () => latestBackups(db),

    /** Payments made and refunds given in the last seven days: how many, and their sum in cents. */
    async lastWeekPayments() {
      const since = new Date(now().getTime() - WEEK_MS);
      const [[paid], [refunded]] = await Promise.all([
        db.select({ n: count(), cents: sum(payments.amountCents) }).from(payments).where(gte(payments.createdAt, since)),
        db.select({ n: count(), cents: sum(payments.amountCents) }).from(payments).where(and(eq(payments.status, "refunded"), gte(payments.refundedAt, since))),
      ]);
      return { payments: { count: paid.n, cents: Number(paid.cents ?? 0) }, refunds: { count: refunded.n, cents: Number(refunded.cents ?? 0) } };
    },
  };
}
