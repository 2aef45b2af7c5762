/**
 * The Overview's figures (decision 060): the periods it offers, and the shape the service hands
 * the console page and its CSV. Money and members only for admins (the rule of the Overview's
 * to-dos: personal and money data are admins').
 */

/** The periods the Overview offers, in days ending today (the museum's day): `?period=`. */
export const OVERVIEW_PERIODS = [7, 30, 90, 365] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];

export const PERIOD_LABELS: Record<OverviewPeriod, string> = { 7: "7 days", 30: "30 days", 90: "90 days", 365: "A year" };

/** `?period=` as one of the periods; anything else is the default, 30 days. */
export function parsePeriod(value: string | null): OverviewPeriod {
  const n = Number(value);
  return OVERVIEW_PERIODS.find((p) => p === n) ?? 30;
}

export interface DayViews {
  day: string;
  views: number;
}

export interface WeekSales {
  /** The week's first day (YYYY-MM-DD); the last week of a period may be shorter. */
  week: string;
  tickets: number;
  ticketCents: number;
  gifts: number;
  giftCents: number;
  refunds: number;
  refundCents: number;
}

export interface ViewedRecord {
  name: string;
  path: string;
  views: number;
}

export interface OverviewFigures {
  from: string;
  to: string;
  period: OverviewPeriod;
  viewsPerDay: DayViews[];
  totalViews: number;
  mostViewed: { exhibits: ViewedRecord[]; enshrinees: ViewedRecord[]; teams: ViewedRecord[] };
  searches: { found: number; notFound: number; notFoundQueries: { query: string; searches: number }[] };
  /** Admins only (null for curators): money, members and the steps to a paid ticket. */
  business: {
    salesPerWeek: WeekSales[];
    members: { active: number; expiringIn30Days: number; lapsed: number };
    gifts: { bought: number; boughtCents: number; redeemed: number; refunded: number };
    funnel: { admissionViews: number; paymentViews: number; paid: number };
  } | null;
}

/** The Overview's figures as CSV columns (one line per figure, day, week or record). */
export const OVERVIEW_CSV_HEADER = ["figure", "date", "name", "count", "amount_usd"] as const;

const usd = (cents: number) => (cents / 100).toFixed(2);

/** Every figure the Overview shows, as rows of OVERVIEW_CSV_HEADER. */
export function overviewCsvRows(f: OverviewFigures): (string | number)[][] {
  const rows: (string | number)[][] = [];
  for (const d of f.viewsPerDay) rows.push(["page views", d.day, "", d.views, ""]);
  for (const [kind, list] of [
    ["most viewed exhibit", f.mostViewed.exhibits],
    ["most viewed enshrinee", f.mostViewed.enshrinees],
    ["most viewed team", f.mostViewed.teams],
  ] as const) {
    for (const r of list) rows.push([kind, "", r.name, r.views, ""]);
  }
  rows.push(["searches with results", "", "", f.searches.found, ""], ["searches with no results", "", "", f.searches.notFound, ""]);
  for (const q of f.searches.notFoundQueries) rows.push(["search with no results", "", q.query, q.searches, ""]);
  const b = f.business;
  if (b) {
    for (const w of b.salesPerWeek) {
      rows.push(["tickets sold (week from)", w.week, "", w.tickets, usd(w.ticketCents)], ["gift tickets sold (week from)", w.week, "", w.gifts, usd(w.giftCents)], ["refunds (week from)", w.week, "", w.refunds, usd(w.refundCents)]);
    }
    rows.push(
      ["members with a valid ticket", f.to, "", b.members.active, ""],
      ["tickets ending within 30 days", f.to, "", b.members.expiringIn30Days, ""],
      ["members whose ticket has ended", f.to, "", b.members.lapsed, ""],
      ["gift tickets bought", "", "", b.gifts.bought, usd(b.gifts.boughtCents)],
      ["gift tickets redeemed", "", "", b.gifts.redeemed, ""],
      ["admission page viewed", "", "", b.funnel.admissionViews, ""],
      ["payment page viewed", "", "", b.funnel.paymentViews, ""],
      ["ticket paid", "", "", b.funnel.paid, ""],
    );
  }
  return rows;
}
