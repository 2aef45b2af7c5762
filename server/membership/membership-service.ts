/**
 * The membership module: the one home of granting days, refunds, validity and the museum's
 * "today" (decision 023). Every path that adds days (a payment, a complimentary ticket, a
 * redeemed gift) goes through `grantDays`, and every refund, whoever starts it (the console, a
 * gift's refund, Stripe's webhook, a future API), takes days back through `takeBackDays` with
 * one rule (`validThroughAfterRefund`: the refunded days and, for a grant that started a
 * ticket, its first day too, so access ends at once) and refunds at the provider through the
 * payment provider interface.
 *
 * A payment grants access exactly once: the payments row is keyed by the provider's payment id,
 * and the grant, the row and the receipt email commit in one transaction with the account row
 * locked, whatever retries, double clicks, replayed webhooks or parallel requests arrive. A
 * payment that does not buy a ticket (another amount or currency: `paymentBuysTicket`) or names
 * no known account grants nothing and is recorded once in payment_incidents for staff.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { isUuid } from "../../app/shared/ids";
import { formatAmount } from "../../app/shared/money";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import type { Logger } from "../logger";
import { complimentaryTickets, isMemberAccount, paymentIncidents, payments, users } from "../db/schema";
import { enqueue } from "../outbox/outbox";
import type { PaymentProvider } from "../payments/provider";
import type { MuseumCalendar } from "./museum-calendar";
import { paymentBuysTicket, ticketAfterRefundWords, ticketValidThrough, validThroughAfterRefund } from "./ticket";
import { ticketReceiptEmail } from "../mail/templates";
import { transactionRetrying } from "../db/retrying";
import { plural } from "../../app/shared/plural";

export type PaymentIncidentKind = (typeof paymentIncidents.$inferInsert)["kind"];

export interface GrantResult {
  granted: boolean;
  validThrough: string | null;
  /** Set when the payment grants nothing and was recorded for staff. */
  refused?: PaymentIncidentKind;
}

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
  /** The museum's clock: the only "today". */
  calendar: MuseumCalendar;
  /** Refunds go to the provider that took the payment through this interface. */
  provider: PaymentProvider;
  ticketDays: number;
  /** TICKET_PRICE_CENTS: the only amount that buys a ticket. */
  priceCents: number;
  publicUrl: string;
  onEnqueued?: () => void;
  /** Waits until every instance knows of an access change just committed (the session store's `settled`, decision 040). */
  accessSettled?: () => Promise<void>;
  logger?: Logger;
}

/** What a grant gave and when, for taking it back. */
export interface GrantTaken {
  /** The account's last valid day right after the grant. */
  validThroughAfter: string;
  daysGranted: number;
  grantedAt: Date;
}

/** The account a grant goes to, as it was before the grant. */
export interface GrantedTo {
  email: string;
  firstName: string;
  lastName: string;
  validThrough: string | null;
}

/** An open transaction (or the database): granting and taking back run inside the caller's. */
type Tx = Database;

export const REFUND_MESSAGES = {
  noPayment: "No such payment.",
  refundedAlready: "This payment was refunded already.",
  stripeMissing: "Stripe is not configured on this site: refund this payment in Stripe's dashboard.",
} as const;

export function createMembership({ db, calendar, provider, ticketDays, priceCents, publicUrl, onEnqueued, logger, accessSettled }: MembershipDeps) {
  const { today, now } = calendar;

  /**
   * Adds `days` to the account's ticket from max(today, current end), with the account row
   * locked, inside `tx`: the one way days are granted (payments, complimentary tickets, gifts).
   * `record` writes what bought the days first and may refuse (a payment granted already, a
   * gift redeemed already): then nothing changes. Null when there is no such account.
   */
  async function grantDays(
    tx: Tx,
    userId: string,
    days: number,
    options: { memberAccount?: true; record?: (validThrough: string, user: GrantedTo) => Promise<boolean> } = {},
  ): Promise<{ granted: boolean; user: GrantedTo; validThrough: string } | null> {
    const [user] = await queryRows<GrantedTo>(
      tx,
      sql`select email, first_name as "firstName", last_name as "lastName", valid_through::text as "validThrough" from ${users} where id = ${userId} ${options.memberAccount ? sql`and ${isMemberAccount()}` : sql``} for update`,
    );
    if (!user) return null;
    const validThrough = ticketValidThrough(user.validThrough, today(), days);
    if (options.record && !(await options.record(validThrough, user))) return { granted: false, user, validThrough: user.validThrough ?? validThrough };
    await tx.update(users).set({ validThrough }).where(eq(users.id, userId));
    return { granted: true, user, validThrough };
  }

  /**
   * The one refund rule (decision 023), inside `tx`: the account loses exactly the grant's days,
   * and the grant's first day too when it started a ticket rather than extending one, so a
   * refunded ticket ends at once. Returns the last valid day before and after (null: none).
   */
  async function takeBackDays(tx: Tx, userId: string, grant: GrantTaken): Promise<{ email: string | null; before: string | null; after: string | null }> {
    const [user] = await queryRows<{ email: string; valid_through: string | null }>(tx, sql`select email, valid_through::text as valid_through from ${users} where id = ${userId} for update`);
    if (!user?.valid_through) return { email: user?.email ?? null, before: null, after: null };
    const after = validThroughAfterRefund(user.valid_through, { validThroughAfter: grant.validThroughAfter, daysGranted: grant.daysGranted, grantDay: calendar.dayOf(grant.grantedAt) });
    await tx.update(users).set({ validThrough: after }).where(eq(users.id, userId));
    return { email: user.email, before: user.valid_through, after };
  }

  /**
   * Refunds a payment at the provider that took it. Null when done (or nothing to do: a test
   * payment charged no card); otherwise why it cannot be done from here.
   */
  async function refundAtProvider(paidWith: "test" | "stripe", providerPaymentId: string, idempotencyKey: string): Promise<string | null> {
    if (paidWith === provider.kind) {
      await provider.refund({ providerPaymentId, idempotencyKey });
      return null;
    }
    return paidWith === "stripe" ? REFUND_MESSAGES.stripeMissing : null;
  }

  /**
   * Refunds a ticket payment, whoever asks: the console (`actor`, refunded at the provider first,
   * audited) or the provider itself (Stripe's charge.refunded: `atProvider: false`). The payment
   * is marked refunded once and its days taken back by the one rule, in one transaction.
   */
  async function refundPayment(which: { paymentId: string } | { providerPaymentId: string }, options: { actor?: Actor; atProvider: boolean }): Promise<Saved> {
    const match = "paymentId" in which ? eq(payments.id, which.paymentId) : eq(payments.providerPaymentId, which.providerPaymentId);
    if ("paymentId" in which && !isUuid(which.paymentId)) return { ok: false, message: REFUND_MESSAGES.noPayment };
    const [payment] = await db.select().from(payments).where(match).limit(1);
    // The console refunds members' payments; a deleted account's (kept anonymized) only by Stripe.
    if (!payment || (options.actor && !payment.userId)) return { ok: false, message: REFUND_MESSAGES.noPayment };
    if (payment.status !== "succeeded") return { ok: false, message: REFUND_MESSAGES.refundedAlready };
    if (options.atProvider) {
      const refused = await refundAtProvider(payment.provider, payment.providerPaymentId, `museum-refund-${payment.id}`);
      if (refused) return { ok: false, message: refused };
    }
    return transactionRetrying(db, async (t) => {
      const tx = t as unknown as Database;
      const [refunded] = await tx
        .update(payments)
        .set({ status: "refunded", refundedAt: now() })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "succeeded")))
        .returning();
      if (!refunded) return { ok: false, message: REFUND_MESSAGES.refundedAlready };
      const taken = refunded.userId
        ? await takeBackDays(tx, refunded.userId, { validThroughAfter: refunded.validThroughAfter, daysGranted: refunded.daysGranted, grantedAt: refunded.createdAt })
        : { email: null, before: null, after: null };
      if (options.actor) {
        await recordAudit(
          tx,
          options.actor,
          {
            action: "payment.refund",
            entityType: "payment",
            entityId: refunded.id,
            summary: `Refunded ${formatAmount(refunded.amountCents, refunded.currency)} to ${taken.email ?? "a deleted account"} (${refunded.daysGranted} days taken back)`,
            before: { payment: { ...payment }, validThrough: taken.before },
            after: { payment: refunded, validThrough: taken.after },
          },
          now(),
        );
      }
      return { ok: true, id: refunded.id, message: `Refunded. ${ticketAfterRefundWords(taken.email ?? "The account", taken.after, today())}` };
    });
  }

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
      if (!isUuid(g.userId)) return recordIncident(g, "unknown_account", { userId: g.userId, amountCents: g.amountCents, receiptEmail: g.receiptEmail });
      const result = await transactionRetrying(db, async (t) => {
        const tx = t as unknown as Database;
        const grant = await grantDays(tx, g.userId, ticketDays, {
          record: async (validThrough) => {
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
            return inserted.length > 0;
          },
        });
        if (!grant) return null;
        const { user, validThrough } = grant;
        if (!grant.granted) return { granted: false, validThrough: user.validThrough };
        await enqueue(tx, { kind: "email", payload: ticketReceiptEmail(g.receiptEmail || user.email, user, g, ticketDays, validThrough, publicUrl) }, now());
        return { granted: true, validThrough };
      });
      if (!result) return recordIncident(g, "unknown_account", { userId: g.userId, amountCents: g.amountCents, receiptEmail: g.receiptEmail });
      if (result.granted) {
        onEnqueued?.();
        await accessSettled?.();
      }
      return result;
    },

    /**
     * The last day of the ticket if one were bought now, for the payment page to say before
     * paying: the same rule the grant applies, from max(today, current end).
     */
    validThroughAfterPurchase(current: string | null): string {
      return ticketValidThrough(current, today(), ticketDays);
    },

    /**
     * Stripe's charge.refunded for a ticket payment (a refund made in Stripe's dashboard): the
     * same refund as the console's, without asking the provider again. False when there is no
     * such payment or it was refunded already.
     */
    async revokeTicket(providerPaymentId: string): Promise<boolean> {
      return (await refundPayment({ providerPaymentId }, { atProvider: false })).ok;
    },

    /**
     * Stripe's charge.refunded for a payment that bought nothing (a payment incident): the
     * incident is settled, and the payments list shows it refunded. False when there is none open.
     */
    async settleIncident(providerPaymentId: string): Promise<boolean> {
      const settled = await db
        .update(paymentIncidents)
        .set({ resolvedAt: now() })
        .where(and(eq(paymentIncidents.providerPaymentId, providerPaymentId), isNull(paymentIncidents.resolvedAt)))
        .returning({ id: paymentIncidents.id });
      return settled.length > 0;
    },

    /** The console's refund of a ticket payment: at the provider first, then the one rule, audited. */
    refund(actor: Actor, paymentId: string): Promise<Saved> {
      return refundPayment({ paymentId }, { actor, atProvider: true });
    },

    /** A complimentary ticket: `days` added as a purchase would, with the reason kept, audited. */
    grantComplimentary(actor: Actor, userId: string, days: number, reason: string): Promise<Saved> {
      if (!isUuid(userId)) return Promise.resolve({ ok: false, message: "No such member." });
      return transactionRetrying(db, async (t) => {
        const tx = t as unknown as Database;
        const grant = await grantDays(tx, userId, days, { memberAccount: true });
        if (!grant) return { ok: false, message: "No such member." };
        const { user, validThrough } = grant;
        await tx.insert(complimentaryTickets).values({ userId, days, reason, grantedBy: actor.email, validThroughAfter: validThrough, createdAt: now() });
        await recordAudit(
          tx,
          actor,
          { action: "member.complimentary", entityType: "member", entityId: userId, summary: `Complimentary ticket of ${plural(days, "day")} for ${user.email}: ${reason}`, before: { validThrough: user.validThrough }, after: { validThrough, days, reason } },
          now(),
        );
        return { ok: true, id: userId, message: `${user.email} is a member through ${validThrough}.` };
      });
    },

    grantDays,
    takeBackDays,
    /** After a grant made with `grantDays` commits: the new ticket holds on every instance for the next request. */
    accessSettled: () => accessSettled?.() ?? Promise.resolve(),
    refundAtProvider,
    /** The museum's calendar day on the one clock. */
    today,
  };
}

export type Membership = ReturnType<typeof createMembership>;
