/**
 * Granting and taking back tickets. A payment grants access exactly once: the payments row is
 * keyed by the provider's payment id, and the grant, the row and the receipt email commit in
 * one transaction with the account row locked, whatever retries, double clicks, replayed
 * webhooks or parallel requests arrive. A payment that does not buy a ticket (another amount
 * or currency: `paymentBuysTicket`) or names no known account grants nothing and is recorded
 * once in payment_incidents for staff.
 */
import { eq, sql } from "drizzle-orm";
import { calendarDateIn } from "../../app/shared/access";
import { formatPrice } from "../../app/shared/money";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import type { Logger } from "../logger";
import { paymentIncidents, payments, users } from "../db/schema";
import { quotedLine } from "../outbox/email-quoting";
import { enqueue } from "../outbox/outbox";
import { addDays, paymentBuysTicket, ticketValidThrough } from "./ticket";
import { SITE_NAME } from "../../app/lib/meta";

export type PaymentIncidentKind = (typeof paymentIncidents.$inferInsert)["kind"];

export interface GrantResult {
  granted: boolean;
  validThrough: string | null;
  /** Set when the payment grants nothing and was recorded for staff. */
  refused?: PaymentIncidentKind;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface GrantRequest {
  userId: string;
  provider: "test" | "stripe";
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  cardBrand: string | null;
  cardLast4: string | null;
  receiptEmail: string;
}

export interface MembershipDeps {
  db: Database;
  ticketDays: number;
  /** TICKET_PRICE_CENTS: the only amount that buys a ticket. */
  priceCents: number;
  timeZone: string;
  publicUrl: string;
  now?: () => Date;
  onEnqueued?: () => void;
  logger?: Logger;
}

export function createMembership({ db, ticketDays, priceCents, timeZone, publicUrl, now = () => new Date(), onEnqueued, logger }: MembershipDeps) {
  const today = () => calendarDateIn(timeZone, now());

  /** Records a payment that bought nothing, once per payment and kind. */
  async function recordIncident(g: GrantRequest, kind: PaymentIncidentKind, details: Record<string, unknown>): Promise<GrantResult> {
    await db
      .insert(paymentIncidents)
      .values({ provider: g.provider, providerPaymentId: g.providerPaymentId, kind, details, createdAt: now() })
      .onConflictDoNothing();
    logger?.warn({ payment: g.providerPaymentId, kind, ...details }, "payment recorded for staff: no ticket granted");
    return { granted: false, validThrough: null, refused: kind };
  }

  return {
    /**
     * Grants the ticket for this payment unless it was granted already; a payment that does
     * not buy a ticket or names an unknown account is recorded for staff instead.
     */
    async grantTicket(g: GrantRequest): Promise<GrantResult> {
      if (!paymentBuysTicket(g, priceCents)) {
        return recordIncident(g, "amount_mismatch", {
          userId: g.userId,
          amountCents: g.amountCents,
          currency: g.currency,
          priceCents,
          receiptEmail: g.receiptEmail,
        });
      }
      if (!UUID.test(g.userId)) return recordIncident(g, "unknown_account", { userId: g.userId, amountCents: g.amountCents, receiptEmail: g.receiptEmail });
      const result = await db.transaction(async (tx) => {
        const [user] = await queryRows<{ id: string; first_name: string; last_name: string; email: string; valid_through: string | null }>(
          tx as unknown as Database,
          sql`select id, first_name, last_name, email, valid_through::text as valid_through from ${users} where id = ${g.userId} for update`,
        );
        if (!user) return null;
        const validThrough = ticketValidThrough(user.valid_through, today(), ticketDays);
        const inserted = await tx
          .insert(payments)
          .values({
            userId: g.userId,
            provider: g.provider,
            providerPaymentId: g.providerPaymentId,
            amountCents: g.amountCents,
            currency: g.currency,
            status: "succeeded",
            cardBrand: g.cardBrand,
            cardLast4: g.cardLast4,
            daysGranted: ticketDays,
            validThroughAfter: validThrough,
            receiptEmail: g.receiptEmail,
          })
          .onConflictDoNothing({ target: payments.providerPaymentId })
          .returning({ id: payments.id });
        if (inserted.length === 0) return { granted: false, validThrough: user.valid_through };
        await tx.update(users).set({ validThrough }).where(eq(users.id, g.userId));
        await enqueue(tx, {
          kind: "email",
          payload: {
            to: g.receiptEmail || user.email,
            purpose: "receipt",
            subject: "Your Pittsburgh Sports Museum ticket receipt",
            text: [
              "Hello,",
              "",
              "Thank you for your visit! This is your receipt for the museum account in the name of:",
              "",
              `    ${quotedLine(`${user.first_name} ${user.last_name}`)}`,
              "",
              `Museum ticket (${ticketDays} days): ${formatPrice(g.amountCents)} ${g.currency.toUpperCase()}`,
              g.cardLast4 ? `Paid with ${g.cardBrand ?? "card"} ending in ${g.cardLast4}` : "",
              `Payment reference: ${g.providerPaymentId}`,
              `Your access is valid through ${validThrough}.`,
              "",
              `Enjoy the museum: ${publicUrl}/`,
              "",
              SITE_NAME,
            ]
              .filter((l) => l !== null)
              .join("\n"),
          },
        }, now());
        return { granted: true, validThrough };
      });
      if (!result) return recordIncident(g, "unknown_account", { userId: g.userId, amountCents: g.amountCents, receiptEmail: g.receiptEmail });
      if (result.granted) onEnqueued?.();
      return result;
    },

    /**
     * The last day of the ticket if one were bought now, for the payment page to say before
     * paying (issue 13): the same rule the grant applies, from max(today, current end).
     */
    validThroughAfterPurchase(current: string | null): string {
      return ticketValidThrough(current, today(), ticketDays);
    },

    /** A refund takes the payment's days back (once). */
    async revokeTicket(providerPaymentId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [payment] = await tx
          .update(payments)
          .set({ status: "refunded", refundedAt: now() })
          .where(sql`${payments.providerPaymentId} = ${providerPaymentId} and ${payments.status} = 'succeeded'`)
          .returning({ userId: payments.userId, days: payments.daysGranted });
        if (!payment) return false;
        // A deleted account's payment (kept anonymized) has no ticket left to take back.
        if (!payment.userId) return true;
        const userId = payment.userId;
        const [user] = await queryRows<{ valid_through: string | null }>(
          tx as unknown as Database,
          sql`select valid_through::text as valid_through from ${users} where id = ${userId} for update`,
        );
        if (user?.valid_through) {
          await tx.update(users).set({ validThrough: addDays(user.valid_through, -payment.days) }).where(eq(users.id, userId));
        }
        return true;
      });
    },
  };
}

export type Membership = ReturnType<typeof createMembership>;
