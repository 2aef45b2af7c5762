/**
 * Expiry reminders (decision 017 section 5). REMINDER_DAYS lists the days before a
 * ticket's last day on which the member is reminded (negative: after it ended). The housekeeping
 * job calls `queueDue` in its locked transaction: one statement inserts a ticket_reminders row per
 * (account, last day, reminder) and, only for the rows it really inserted, a `reminder` outbox job,
 * so each ticket period gets each reminder once whatever the retries, restarts and instances.
 * The job writes the email when it runs, and drops it if the account is gone, was renewed (the
 * last day moved: a new period) or turned reminders off.
 *
 * A reminder is due on its day or the day after (a run missed over midnight still sends it), and
 * only the latest due one of a period goes out: a ticket whose end moved near (a refund) does not
 * get "14 days left" and "7 days left" together. A ticket whose last day came from a refund made
 * on or after that day gets none.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { addDays, daysUntil } from "../../app/shared/calendar";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { outbox, payments, ticketReminders, users } from "../db/schema";
import type { Logger } from "../logger";
import type { Mailer } from "../mail/mailer";
import type { EmailJob, JobContext, ReminderJob } from "../outbox/outbox";
import { isUuid } from "../../app/shared/ids";
import type { MuseumCalendar } from "./museum-calendar";
import { ticketReminderEmail } from "../mail/templates";

export interface RemindersDeps {
  db: Database;
  mailer: Pick<Mailer, "send">;
  /** REMINDER_DAYS, parsed (config.ts). */
  offsets: number[];
  /** The museum's clock: the only "today". */
  calendar: MuseumCalendar;
  publicUrl: string;
  /** Signs the unsubscribe links (the session secret, under a label of its own). */
  secret: string;
  ticketDays: number;
  priceCents: number;
  logger: Logger;
}

/** The days a reminder may be late: the day after its day still sends it. */
const GRACE_DAYS = 1;

export function createReminders({ db, mailer, offsets, calendar, publicUrl, secret, ticketDays, priceCents, logger }: RemindersDeps) {
  const { now, timeZone } = calendar;
  const signingKey = createHmac("sha256", secret).update("unsubscribe:ticket-reminders").digest();
  const sign = (userId: string) => createHmac("sha256", signingKey).update(userId.toLowerCase()).digest("base64url");

  /** The one-click link that turns this account's reminders off. */
  function unsubscribeUrl(userId: string): string {
    return `${publicUrl}/email/unsubscribe?token=${encodeURIComponent(`${userId}.${sign(userId)}`)}`;
  }

  /** The account an unsubscribe token was signed for, or null for anything else. */
  function accountOfToken(token: string | null | undefined): string | null {
    if (typeof token !== "string" || token.length > 200) return null;
    const [userId, signature, ...rest] = token.split(".");
    if (rest.length || !userId || !signature || !isUuid(userId)) return null;
    const expected = Buffer.from(sign(userId));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) ? userId.toLowerCase() : null;
  }

  function reminderEmail(user: { userId: string; firstName: string; lastName: string; email: string }, lastDay: string, today: string): EmailJob {
    return ticketReminderEmail(user, { lastDay, today, ticketDays, priceCents, publicUrl, unsubscribeUrl: unsubscribeUrl(user.userId) });
  }

  return {
    offsets,
    unsubscribeUrl,
    accountOfToken,
    reminderEmail,

    /**
     * Queues every reminder due today that was not queued before; returns how many. One
     * statement: the reminder rows and their outbox jobs commit together or not at all.
     */
    async queueDue(tx: Database): Promise<number> {
      if (offsets.length === 0) return 0;
      const at = now();
      const today = calendar.dayOf(at);
      const earliest = Math.min(...offsets) - GRACE_DAYS;
      const latest = Math.max(...offsets);
      const list = sql.join(
        offsets.map((d) => sql`(${d}::int)`),
        sql`, `,
      );
      const [row] = await queryRows<{ n: number }>(
        tx,
        sql`with due as (
              select u.id as user_id, u.valid_through as last_day, min(o.d) as offset_days
              from ${users} u
              join (values ${list}) as o(d) on o.d >= u.valid_through - ${today}::date
              where u.valid_through between ${today}::date + ${earliest}::int and ${today}::date + ${latest}::int
                and u.reminder_emails and u.deactivated_at is null
                and not exists (
                  select 1 from ${payments} p
                  where p.user_id = u.id and p.status = 'refunded'
                    and (p.refunded_at at time zone ${timeZone})::date >= u.valid_through)
              group by u.id, u.valid_through),
            fresh as (
              insert into ${ticketReminders} (user_id, last_day, offset_days, queued_at)
              select user_id, last_day, offset_days, ${at.toISOString()} from due
              where offset_days <= last_day - ${today}::date + ${GRACE_DAYS}::int
              on conflict do nothing
              returning user_id, last_day, offset_days),
            queued as (
              insert into ${outbox} (kind, payload, next_attempt_at, created_at)
              select 'reminder', jsonb_build_object('userId', user_id, 'lastDay', last_day::text, 'offsetDays', offset_days),
                     ${at.toISOString()}, ${at.toISOString()}
              from fresh
              returning 1)
            select count(*)::int as n from queued`,
      );
      return Number(row?.n ?? 0);
    },

    /** The outbox handler: writes and sends the reminder, or drops one that no longer applies. */
    async send(job: ReminderJob, context?: JobContext): Promise<void> {
      const [user] = await queryRows<{ first_name: string; last_name: string; email: string; valid_through: string | null; reminder_emails: boolean }>(
        db,
        sql`select first_name, last_name, email, valid_through::text as valid_through, reminder_emails from ${users}
            where id = ${job.userId} and deactivated_at is null`,
      );
      const today = calendar.today();
      const late = daysUntil(today, addDays(job.lastDay, -job.offsetDays));
      const reason = !user
        ? "account gone"
        : user.valid_through !== job.lastDay
          ? "ticket renewed or changed"
          : !user.reminder_emails
            ? "reminders turned off"
            : late > GRACE_DAYS
              ? "too late"
              : null;
      if (reason || !user) {
        logger.info({ reminder: job, reason }, "ticket reminder dropped");
        return;
      }
      await mailer.send(reminderEmail({ userId: job.userId, firstName: user.first_name, lastName: user.last_name, email: user.email }, job.lastDay, today), context);
    },

    /** Whether the account gets reminders; null when it does not exist. */
    async remindersOn(userId: string): Promise<boolean | null> {
      const [row] = await queryRows<{ enabled: boolean }>(db, sql`select reminder_emails as enabled from ${users} where id = ${userId}`);
      return row ? row.enabled : null;
    },

    /** Turns the account's reminders on or off; false when the account does not exist. */
    async setRemindersOn(userId: string, on: boolean): Promise<boolean> {
      const rows = await queryRows<{ id: string }>(db, sql`update ${users} set reminder_emails = ${on} where id = ${userId} returning id`);
      return rows.length > 0;
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;
