/**
 * The console's Overview: what needs doing. Unanswered contact messages, mail that
 * failed to send (outbox rows given up on: "dead"), drafts and scheduled records of the
 * collection, the payments and refunds of the last seven days (the payments list's totals), and the last backup. Counts only, plus the few failed mails themselves (recipient, subject, error).
 */
import { and, count, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { addDays } from "../../app/shared/calendar";
import type { Database } from "../db/client";
import { latestBackups } from "../backup/backup-service";
import { bannerSlides, contactMessages, enshrinees, exhibits, outbox } from "../db/schema";
import type { PaymentsList } from "./payments-list-service";

export function createOverview({ db, now = () => new Date(), paymentsList }: { db: Database; now?: () => Date; paymentsList: PaymentsList }) {
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

    /**
     * Payments made (tickets and gifts) and refunds given in the last seven days, today included:
     * the payments list's totals for that period, so the line and the list it opens agree (decision 062).
     */
    lastWeekPayments() {
      const to = paymentsList.today();
      return paymentsList.totals({ from: addDays(to, -6), to });
    },
  };
}
