/**
 * The words for a ticket and its dates: the account page, receipts, reminder and gift
 * emails. Ticket dates are calendar days of the museum's time zone already (YYYY-MM-DD);
 * instants (a payment's time) are shown in it.
 */
import { addDays, daysUntil } from "./calendar";

const longDates = new Map<string, Intl.DateTimeFormat>();

/** "March 23, 2027" for a calendar date (YYYY-MM-DD). */
export function longDate(date: string): string {
  return formatIn("UTC", new Date(`${date}T12:00:00Z`));
}

/** "March 23, 2027" for an instant, on the museum's calendar. */
export function longDateOfInstant(iso: string, timeZone: string): string {
  return formatIn(timeZone, new Date(iso));
}

function formatIn(timeZone: string, at: Date): string {
  let f = longDates.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "long", day: "numeric" });
    longDates.set(timeZone, f);
  }
  return f.format(at);
}

/** The ticket's status in a sentence; `today` is the museum's calendar date. */
export function ticketStatusWords(validThrough: string | null, today: string): string {
  if (validThrough === null) return "Your ticket is not paid yet.";
  const left = daysUntil(validThrough, today);
  if (left < 0) return `Your ticket expired on ${longDate(validThrough)}.`;
  if (left === 0) return `Your ticket is valid through ${longDate(validThrough)}: today is its last day.`;
  return `Your ticket is valid through ${longDate(validThrough)}: ${left} ${left === 1 ? "day" : "days"} left.`;
}

/**
 * The days a payment added, first and last: a ticket bought with none running starts on the day
 * of payment; a renewal starts the day after the previous end (ticketValidThrough's rule).
 */
export function periodGranted(validThroughAfter: string, days: number, paidOn: string): { from: string; to: string } {
  const base = addDays(validThroughAfter, -days);
  return { from: base <= paidOn ? paidOn : addDays(base, 1), to: validThroughAfter };
}
