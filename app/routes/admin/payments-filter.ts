/**
 * The payments list's filters read from the address (decision 062), shared by the list and its
 * CSV export: the period (the last 7, 30 or 90 days or a year, today included, or custom
 * first and last days on the museum's calendar), kind, status and search. Browser-safe.
 */
import { addDays, isCalendarDay } from "~/shared/calendar";
import { searchParam } from "./list-query";

export const PERIODS = [
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "365", label: "Last year (365 days)" },
  { value: "custom", label: "Custom dates (From and To)" },
] as const;
export type Period = (typeof PERIODS)[number]["value"];

const KINDS = ["ticket", "renewal", "gift"] as const;
const STATUSES = ["paid", "refunded", "unmatched"] as const;

export const PAYMENT_FILTER_MESSAGES = {
  datesMissing: "Choose the first day (From) and the last day (To) of the period, as YYYY-MM-DD.",
  datesOrder: "The first day (From) must be on or before the last day (To).",
} as const;

/** The filters of `url` with today's museum day; `error` (shown, answered with 400) when custom dates are missing or wrong. */
export function paymentsFilter(url: URL, today: string) {
  const p = url.searchParams;
  const period: Period = PERIODS.find((x) => x.value === p.get("period"))?.value ?? "30";
  const kind = KINDS.find((k) => k === p.get("kind"));
  const status = STATUSES.find((s) => s === p.get("status"));
  const q = searchParam(url);
  let from = addDays(today, -(Number(period === "custom" ? 30 : period) - 1));
  let to = today;
  let error: string | null = null;
  if (period === "custom") {
    const a = (p.get("from") ?? "").trim();
    const b = (p.get("to") ?? "").trim();
    if (!isCalendarDay(a) || !isCalendarDay(b)) error = PAYMENT_FILTER_MESSAGES.datesMissing;
    else if (a > b) error = PAYMENT_FILTER_MESSAGES.datesOrder;
    else [from, to] = [a, b];
  }
  return { period, filter: { from, to, kind, status, q }, error, typed: { from: p.get("from") ?? "", to: p.get("to") ?? "" } };
}

/** The query string of the same filters (for the export link and the Overview's link). */
export function paymentsFilterSearch(f: { period: Period; from: string; to: string; kind?: string; status?: string; q?: string }): string {
  const params = new URLSearchParams({ period: f.period });
  if (f.period === "custom") {
    params.set("from", f.from);
    params.set("to", f.to);
  }
  if (f.kind) params.set("kind", f.kind);
  if (f.status) params.set("status", f.status);
  if (f.q) params.set("q", f.q);
  return params.toString();
}
