/**
 * Ticket arithmetic. A purchase sets valid_through = max(today, valid_through) + days; a refund
 * takes the days back (validThroughAfterRefund, decision 023). Dates are calendar days
 * (YYYY-MM-DD) in the museum's time zone.
 */
import { isTicketValid } from "../../app/shared/access";
import { addDays } from "../../app/shared/calendar";

export function ticketValidThrough(current: string | null, today: string, days: number): string {
  const base = current && current > today ? current : today;
  return addDays(base, days);
}

/**
 * The last valid day once a grant is refunded: exactly its days taken back, and the day it was
 * granted too when it started a ticket rather than extending one (that day was its own).
 */
export function validThroughAfterRefund(current: string, grant: { validThroughAfter: string; daysGranted: number; grantDay: string }): string {
  const base = addDays(grant.validThroughAfter, -grant.daysGranted);
  const after = addDays(current, -grant.daysGranted);
  return base <= grant.grantDay && after <= grant.grantDay ? addDays(grant.grantDay, -1) : after;
}

/**
 * What a refund's message says of the account's ticket afterwards: its new last day while it
 * still runs; that there is no valid ticket when the refund ended it (or it had ended already),
 * never "valid through" a day that has passed.
 */
export function ticketAfterRefundWords(who: string, after: string | null, today: string): string {
  return after !== null && isTicketValid(after, today) ? `${who} is now valid through ${after}.` : `${who} has no valid ticket now.`;
}

export type AccessStatus = "paid" | "expired" | "unpaid";

/** Login's three outcomes (spec section 4): paid, expired (paid once), unpaid (never paid). */
export function accessStatus(validThrough: string | null, today: string): AccessStatus {
  if (validThrough === null) return "unpaid";
  return isTicketValid(validThrough, today) ? "paid" : "expired";
}

/** The ticket's currency (its price is TICKET_PRICE_CENTS). */
export const TICKET_CURRENCY = "usd";

/**
 * Whether a payment buys a ticket: exactly the configured price, in the ticket's currency. The
 * one rule for every path that grants (the browser's payment, 3-D Secure confirmation, webhook).
 */
export function paymentBuysTicket(payment: { amountCents: number; currency: string }, priceCents: number): boolean {
  return payment.amountCents === priceCents && payment.currency.toLowerCase() === TICKET_CURRENCY;
}
