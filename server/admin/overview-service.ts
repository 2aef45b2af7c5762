/**
 * The console's Overview: what needs doing. Unanswered contact messages, mail that
 * failed to send (outbox rows given up on: "dead"), drafts and scheduled records of the
 * collection, the payments and refunds of the last seven days (the payments list's totals), and the last backup. Counts only, plus the few failed mails themselves (recipient, subject, error).
 *
 * Then how the museum is doing over a period (decision 060, `figures`): page views per day and
 * the most viewed records (from `visit_counts`), searches with and without results, and for
 * admins ticket and gift sales and refunds per week, members, and the steps to a paid ticket.
 * Each figure is one grouped query; days are the museum's (MUSEUM_TIME_ZONE).
 */
import { and, count, desc, eq, gt, gte, isNotNull, isNull, lte, ne, sql, sum, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Database } from "../db/client";
import { latestBackups } from "../backup/backup-service";
import { bannerSlides, contactMessages, enshrinees, exhibits, gifts, isMemberAccount, outbox, payments, searchCounts, users, visitCounts, visitDays, visitMonths } from "../db/schema";
import { addDays, calendarDateIn, startOfDayIn } from "../../app/shared/calendar";
import type { DayViews, OverviewFigures, OverviewPeriod, ViewedRecord, WeekSales } from "../../app/shared/overview";
import type { CountedKind, VisitPages } from "../visits/visit-pages";
import type { PaymentsList } from "./payments-list-service";


/** How many of each kind of record the Overview lists as most viewed. */
const MOST_VIEWED = 10;
/** How many searches without results it lists. */
const NOT_FOUND_QUERIES = 20;

const n = (value: unknown) => Number(value ?? 0);

export interface OverviewDeps {
  db: Database;
  now?: () => Date;
  /** The museum's time zone: the days the figures are counted in. */
  timeZone?: string;
  /** The counted pages (their names and kinds) for the most viewed records. */
  visitPages?: Pick<VisitPages, "pages">;
  /** The payments list, whose totals the last week's payments line shows (decision 062). */
  paymentsList: PaymentsList;
}

export function createOverview({ db, now = () => new Date(), timeZone = "America/New_York", visitPages, paymentsList }: OverviewDeps) {
  /** An instant's museum day, in SQL. */
  const dayOf = (column: PgColumn) => sql<string>`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD')`;

  /** Rows of (day, count, cents) for the instants of `column` in [start, end), as a map by day. */
  async function perDay(table: typeof payments | typeof gifts, column: PgColumn, start: Date, where?: SQL) {
    const day = dayOf(column);
    const rows = await db
      .select({ day, n: count(), cents: sum(table.amountCents) })
      .from(table)
      .where(and(gte(column, start), where))
      // By position: the day's expression carries the time zone as a parameter, a new one each time it is written.
      .groupBy(sql`1`);
    return new Map(rows.map((r) => [r.day, { n: r.n, cents: n(r.cents) }]));
  }

  async function salesPerWeek(from: string, to: string, start: Date): Promise<WeekSales[]> {
    const [tickets, giftSales, ticketRefunds, giftRefunds] = await Promise.all([
      perDay(payments, payments.createdAt, start),
      perDay(gifts, gifts.paidAt, start, isNotNull(gifts.paidAt)),
      perDay(payments, payments.refundedAt, start, eq(payments.status, "refunded")),
      perDay(gifts, gifts.refundedAt, start, isNotNull(gifts.refundedAt)),
    ]);
    const weeks: WeekSales[] = [];
    for (let week = from; week <= to; week = addDays(week, 7)) {
      const row: WeekSales = { week, tickets: 0, ticketCents: 0, gifts: 0, giftCents: 0, refunds: 0, refundCents: 0 };
      for (let day = week, i = 0; i < 7 && day <= to; i++, day = addDays(day, 1)) {
        const t = tickets.get(day);
        const g = giftSales.get(day);
        const r = [ticketRefunds.get(day), giftRefunds.get(day)];
        row.tickets += t?.n ?? 0;
        row.ticketCents += t?.cents ?? 0;
        row.gifts += g?.n ?? 0;
        row.giftCents += g?.cents ?? 0;
        for (const x of r) {
          row.refunds += x?.n ?? 0;
          row.refundCents += x?.cents ?? 0;
        }
      }
      weeks.push(row);
    }
    return weeks;
  }

  async function members(today: string) {
    const [row] = await db
      .select({
        active: sql<number>`count(*) filter (where ${users.validThrough} >= ${today})`.mapWith(Number),
        expiring: sql<number>`count(*) filter (where ${users.validThrough} >= ${today} and ${users.validThrough} <= ${addDays(today, 30)})`.mapWith(Number),
        lapsed: sql<number>`count(*) filter (where ${users.validThrough} < ${today})`.mapWith(Number),
      })
      .from(users)
      .where(and(isMemberAccount(), isNotNull(users.validThrough)));
    return { active: row.active, expiringIn30Days: row.expiring, lapsed: row.lapsed };
  }

  async function giftFigures(start: Date) {
    const [[bought], [redeemed], [refunded]] = await Promise.all([
      db.select({ n: count(), cents: sum(gifts.amountCents) }).from(gifts).where(gte(gifts.paidAt, start)),
      db.select({ n: count() }).from(gifts).where(gte(gifts.redeemedAt, start)),
      db.select({ n: count() }).from(gifts).where(gte(gifts.refundedAt, start)),
    ]);
    return { bought: bought.n, boughtCents: n(bought.cents), redeemed: redeemed.n, refunded: refunded.n };
  }

  async function viewsPerDay(from: string, to: string): Promise<DayViews[]> {
    const rows = await db
      .select({ day: visitDays.day, views: visitDays.views })
      .from(visitDays)
      .where(and(gte(visitDays.day, from), lte(visitDays.day, to)));
    const byDay = new Map(rows.map((r) => [r.day, r.views]));
    const days: DayViews[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) days.push({ day, views: byDay.get(day) ?? 0 });
    return days;
  }

  /**
   * Views per record page over [from, to]: whole calendar months from `visit_months`, the days
   * before the first and after the last whole month from `visit_counts` (a year reads about 11
   * months and 30 days instead of 365 days).
   */
  async function viewsPerPath(from: string, to: string) {
    const monthAfter = (day: string) => {
      const [y, m] = day.split("-").map(Number);
      return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
    };
    const fullFrom = from.endsWith("-01") ? from : monthAfter(from);
    const fullTo = addDays(to, 1).endsWith("-01") ? addDays(to, 1) : `${to.slice(0, 7)}-01`;
    const records = (path: PgColumn) => sql`${path} like '/%/%'`;
    const days = (start: string, end: string) => db.select({ path: visitCounts.path, views: visitCounts.views }).from(visitCounts).where(and(gte(visitCounts.day, start), lte(visitCounts.day, end), records(visitCounts.path)));
    const parts =
      fullFrom < fullTo
        ? [
            days(from, addDays(fullFrom, -1)),
            db.select({ path: visitMonths.path, views: visitMonths.views }).from(visitMonths).where(and(gte(visitMonths.month, fullFrom), sql`${visitMonths.month} < ${fullTo}`, records(visitMonths.path))),
            days(fullTo, to),
          ]
        : [days(from, to)];
    const all = parts.reduce((a, b) => a.unionAll(b) as unknown as typeof a).as("views_in_period");
    const views = sql<number>`sum(${all.views})`.mapWith(Number);
    return db.select({ path: all.path, views }).from(all).groupBy(all.path).orderBy(desc(views));
  }

  async function mostViewed(from: string, to: string) {
    const [rows, pages] = await Promise.all([
      viewsPerPath(from, to),
      visitPages ? visitPages.pages() : Promise.resolve(new Map()),
    ]);
    const lists: Record<"exhibit" | "enshrinee" | "team", ViewedRecord[]> = { exhibit: [], enshrinee: [], team: [] };
    for (const row of rows) {
      const page = pages.get(row.path.toLowerCase()) as { kind: CountedKind; name: string; path: string } | undefined;
      if (!page || page.path !== row.path || !(page.kind in lists)) continue;
      const list = lists[page.kind as keyof typeof lists];
      if (list.length < MOST_VIEWED) list.push({ name: page.name, path: row.path, views: row.views });
    }
    return { exhibits: lists.exhibit, enshrinees: lists.enshrinee, teams: lists.team };
  }

  async function searches(from: string, to: string) {
    const inPeriod = and(gte(searchCounts.day, from), lte(searchCounts.day, to));
    const total = sum(searchCounts.searches).mapWith(Number);
    const [byFound, queries] = await Promise.all([
      db.select({ found: searchCounts.found, n: total }).from(searchCounts).where(inPeriod).groupBy(searchCounts.found),
      db
        .select({ query: searchCounts.query, searches: total })
        .from(searchCounts)
        .where(and(inPeriod, eq(searchCounts.found, false)))
        .groupBy(searchCounts.query)
        .orderBy(desc(total), searchCounts.query)
        .limit(NOT_FOUND_QUERIES),
    ]);
    return { found: byFound.find((r) => r.found)?.n ?? 0, notFound: byFound.find((r) => !r.found)?.n ?? 0, notFoundQueries: queries };
  }

  async function funnel(from: string, to: string, start: Date) {
    const [[steps], [paid]] = await Promise.all([
      db
        .select({
          admission: sql<number>`coalesce(sum(${visitCounts.views}) filter (where ${visitCounts.path} = '/admission'), 0)`.mapWith(Number),
          payment: sql<number>`coalesce(sum(${visitCounts.views}) filter (where ${visitCounts.path} = '/admission/payment'), 0)`.mapWith(Number),
        })
        .from(visitCounts)
        .where(and(gte(visitCounts.day, from), lte(visitCounts.day, to), sql`${visitCounts.path} in ('/admission', '/admission/payment')`)),
      db.select({ n: count() }).from(payments).where(gte(payments.createdAt, start)),
    ]);
    return { admissionViews: steps.admission, paymentViews: steps.payment, paid: paid.n };
  }

  return {
    /**
     * How the museum is doing over the last `period` days, today included (decision 060).
     * `money`: the sales, members, gifts and the steps to a paid ticket too (admins).
     */
    async figures(period: OverviewPeriod, { money }: { money: boolean }): Promise<OverviewFigures> {
      const to = calendarDateIn(timeZone, now());
      const from = addDays(to, -(period - 1));
      const start = startOfDayIn(from, timeZone);
      const [perDayViews, viewed, searched, business] = await Promise.all([
        viewsPerDay(from, to),
        mostViewed(from, to),
        searches(from, to),
        money
          ? Promise.all([salesPerWeek(from, to, start), members(to), giftFigures(start), funnel(from, to, start)]).then(([salesWeeks, memberCounts, giftCounts, steps]) => ({
              salesPerWeek: salesWeeks,
              members: memberCounts,
              gifts: giftCounts,
              funnel: steps,
            }))
          : null,
      ]);
      return { from, to, period, viewsPerDay: perDayViews, totalViews: perDayViews.reduce((a, d) => a + d.views, 0), mostViewed: viewed, searches: searched, business };
    },

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
