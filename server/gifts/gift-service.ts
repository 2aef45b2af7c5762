/**
 * Gift tickets (decision 018). Anyone, signed in or not, buys a ticket for someone
 * else in two steps: the details are kept as an unpaid draft, then the card is charged with the
 * draft's id in the payment's metadata. The payment marks the gift paid exactly once (a
 * conditional update, whichever of the browser, 3-D Secure confirmation and the webhook comes
 * first), and in that transaction the buyer's receipt is queued, and a gift-delivery job due at
 * the start of the delivery date (museum time zone). That job makes the redeem token (32 random
 * bytes, stored as its SHA-256, valid one year) and queues the recipient's email, in the
 * transaction that marks it done: the token exists nowhere but in that email, and a gift revoked
 * before its date is never sent. Redeeming is one conditional update too: the first account to
 * redeem gets the ticket (from max(today, current end), the membership rule), and the link is
 * spent. A refund before redemption revokes the gift; after, it takes back the days it gave by
 * the membership module's one refund rule (decision 023), refunded at the provider first
 * through the payment provider interface. Paying holds the draft's row lock while the card is
 * charged, so two pay pages open for one draft charge it once; a payment that waits for 3-D
 * Secure is kept on the draft (its provider_payment_id while still unpaid), and a pay request
 * meanwhile shows that same payment's bank step again instead of charging a second time
 * (decision 035).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { formatPrice } from "../../app/shared/money";
import { SERVER_MESSAGES } from "../../app/shared/messages";
import type { GiftInput, RedeemRefusal } from "../../app/shared/gift-schemas";
import { recordAudit, type Actor, type Saved } from "../audit/audit-trail";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { gifts, paymentIncidents } from "../db/schema";
import type { Logger } from "../logger";
import type { Membership } from "../membership/membership-service";
import type { MuseumCalendar } from "../membership/museum-calendar";
import { paymentBuysTicket, ticketAfterRefundWords, TICKET_CURRENCY } from "../membership/ticket";
import { enqueue, type GiftDeliveryJob } from "../outbox/outbox";
import { answerTestChallenge, unpaidOutcome, type PaymentOutcome } from "../payments/payment-service.server";
import type { PaymentProvider, TestChallengeChoice } from "../payments/provider";
import { giftEmail, giftReceiptEmail } from "../mail/templates";
import { isUuid } from "../../app/shared/ids";
import { SITE_SHORT_NAME } from "../../app/shared/site";
import { transactionOnce, transactionRetrying } from "../db/retrying";

export const GIFT_LINK_TTL_MS = 365 * 86_400_000;

/** A pay request while the bank is still settling an earlier payment of the same gift. */
export const GIFT_PAYMENT_PENDING = "A payment for this gift is being processed. Please reload this page in a minute.";

export type GiftRow = typeof gifts.$inferSelect;
/** What a visitor or staff member reads of a gift's life. */
export type GiftState = "unpaid" | "scheduled" | "sent" | "redeemed" | "expired" | "revoked" | "refunded";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

export interface GiftDeps {
  db: Database;
  provider: PaymentProvider;
  /** Grants a redeemed gift's days and takes them back on a refund (one rule, decision 023). */
  membership: Membership;
  /** The museum's clock: the only "today". */
  calendar: MuseumCalendar;
  priceCents: number;
  ticketDays: number;
  publicUrl: string;
  logger: Logger;
  onEnqueued?: () => void;
}

interface PaidWith {
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  cardBrand: string | null;
  cardLast4: string | null;
}

export function createGifts({ db, provider, membership, calendar, priceCents, ticketDays, publicUrl, logger, onEnqueued }: GiftDeps) {
  const { today, now } = calendar;

  function stateOf(g: Pick<GiftRow, "status" | "deliveredAt" | "tokenExpiresAt" | "redeemedAt">): GiftState {
    if (g.status === "unpaid") return "unpaid";
    if (g.status === "redeemed") return "redeemed";
    if (g.status === "refunded") return g.redeemedAt ? "refunded" : "revoked";
    if (!g.deliveredAt) return "scheduled";
    return g.tokenExpiresAt && g.tokenExpiresAt <= now() ? "expired" : "sent";
  }

  /** Marks the draft paid (once) and queues the receipt and the delivery, in one transaction. */
  async function markPaid(giftId: string, p: PaidWith, from: Database = db): Promise<{ paid: boolean; refused?: boolean }> {
    if (!paymentBuysTicket(p, priceCents)) {
      await from
        .insert(paymentIncidents)
        .values({ provider: provider.kind, providerPaymentId: p.providerPaymentId, kind: "amount_mismatch", details: { giftId, amountCents: p.amountCents, currency: p.currency, priceCents }, createdAt: now() })
        .onConflictDoNothing();
      logger.warn({ gift: giftId, payment: p.providerPaymentId }, "gift payment recorded for staff: amount does not buy a ticket");
      return { paid: false, refused: true };
    }
    const done = await transactionRetrying(from, async (tx) => {
      const [gift] = await tx
        .update(gifts)
        .set({ status: "paid", provider: provider.kind, providerPaymentId: p.providerPaymentId, cardBrand: p.cardBrand, cardLast4: p.cardLast4, paidAt: now() })
        .where(and(eq(gifts.id, giftId), eq(gifts.status, "unpaid")))
        .returning();
      if (!gift) {
        const [existing] = await tx.select({ paymentId: gifts.providerPaymentId }).from(gifts).where(eq(gifts.id, giftId));
        if (!existing) {
          // The draft is gone (housekeeping purges drafts left unpaid for a week) while its card
          // was charged: staff refund it from the incident.
          await tx
            .insert(paymentIncidents)
            .values({ provider: provider.kind, providerPaymentId: p.providerPaymentId, kind: "unknown_gift", details: { giftId, amountCents: p.amountCents, currency: p.currency }, createdAt: now() })
            .onConflictDoNothing();
          logger.warn({ gift: giftId, payment: p.providerPaymentId }, "gift payment recorded for staff: the gift draft no longer exists");
          return { paid: false, refused: true, queued: false };
        }
        return { paid: existing.paymentId === p.providerPaymentId, queued: false };
      }
      await enqueue(tx, { kind: "email", payload: giftReceiptEmail(gift, publicUrl) }, now());
      const due = calendar.startOf(gift.deliverOn);
      await enqueue(tx, { kind: "gift-delivery", payload: { giftId } }, due > now() ? due : now());
      return { paid: true, queued: true };
    });
    if (done.queued) onEnqueued?.();
    return { paid: done.paid, refused: "refused" in done ? done.refused : undefined };
  }

  async function outcomeOf(giftId: string, p: PaidWith, from: Database = db): Promise<PaymentOutcome> {
    const r = await markPaid(giftId, p, from);
    if (r.refused) return { status: "server_error", message: SERVER_MESSAGES.paymentNeedsReview };
    if (!r.paid) return { status: "card_error", message: "This gift was paid for already." };
    return { status: "succeeded", validThrough: null, message: "Thank you! Your gift ticket is paid." };
  }

  /**
   * A payment started earlier for this unpaid draft (it asked for 3-D Secure): its outcome when
   * it succeeded meanwhile or still waits for the bank, null when it failed and a new charge may
   * be made.
   */
  async function startedPayment(giftId: string, providerPaymentId: string, tx: Database): Promise<PaymentOutcome | null> {
    const p = await provider.retrieve(providerPaymentId);
    if (!p || p.giftId !== giftId) return null;
    if (p.status === "succeeded") return outcomeOf(giftId, p, tx);
    if (p.status === "requires_action" && p.clientSecret) return { status: "requires_action", providerPaymentId: p.providerPaymentId, clientSecret: p.clientSecret };
    if (p.status === "processing" || p.status === "requires_capture") return { status: "card_error", message: GIFT_PAYMENT_PENDING };
    return null;
  }

  /** After 3-D Secure in the browser: marks the gift paid if the provider says so. */
  async function confirm(o: { giftId: string; providerPaymentId: string }): Promise<PaymentOutcome> {
    try {
      const p = await provider.retrieve(o.providerPaymentId);
      if (!p || p.giftId !== o.giftId) return { status: "card_error", message: "This payment could not be found." };
      if (p.status !== "succeeded") return unpaidOutcome(p);
      return await outcomeOf(o.giftId, p);
    } catch (error) {
      logger.error({ err: error }, "gift payment confirmation failed");
      return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
    }
  }

  /** The gift behind a token, locked when `tx` is a transaction. */
  async function byToken(token: string, from: Database = db) {
    const [row] = await queryRows<{ id: string }>(from, sql`select id from ${gifts} where token_hash = ${sha256(token)} for update`);
    if (!row) return null;
    const [gift] = await from.select().from(gifts).where(eq(gifts.id, row.id));
    return gift ?? null;
  }

  function refusalOf(gift: GiftRow | null): RedeemRefusal | null {
    if (!gift) return "invalid";
    const state = stateOf(gift);
    if (state === "redeemed" || state === "refunded") return "redeemed";
    if (state === "revoked") return "revoked";
    if (state === "expired") return "expired";
    return state === "sent" ? null : "invalid";
  }

  /**
   * Refunds a paid gift (Stripe's refund first in Stripe mode): unredeemed, it is revoked and
   * its link stops working; redeemed, the redeemer loses exactly the days it gave. Audited.
   */
async function refund(actor: Actor | null, giftId: string, options: { refundAtProvider?: boolean } = {}): Promise<Saved> {
    const [gift] = await db.select().from(gifts).where(eq(gifts.id, giftId)).limit(1);
    if (!gift || gift.status === "unpaid") return { ok: false, message: "No such gift." };
    if (gift.status === "refunded") return { ok: false, message: "This gift was refunded already." };
    if ((options.refundAtProvider ?? true) && gift.provider && gift.providerPaymentId) {
      const refused = await membership.refundAtProvider(gift.provider, gift.providerPaymentId, `museum-gift-refund-${gift.id}`);
      if (refused) return { ok: false, message: refused };
    }
    return transactionRetrying(db, async (t) => {
      const tx = t as unknown as Database;
      const [refunded] = await tx
        .update(gifts)
        .set({ status: "refunded", refundedAt: now() })
        .where(and(eq(gifts.id, giftId), sql`${gifts.status} in ('paid', 'redeemed')`))
        .returning();
      if (!refunded) return { ok: false, message: "This gift was refunded already." };
      let validThrough: string | null = null;
      if (refunded.redeemedBy && refunded.redeemedAt && refunded.validThroughAfter) {
        const taken = await membership.takeBackDays(tx, refunded.redeemedBy, { validThroughAfter: refunded.validThroughAfter, daysGranted: refunded.daysGranted, grantedAt: refunded.redeemedAt });
        validThrough = taken.after;
      }
      const summary = gift.status === "redeemed"
        ? `Refunded the gift from ${gift.buyerEmail} to ${gift.recipientEmail} (${formatPrice(gift.amountCents)}); ${gift.daysGranted} days taken back from its redeemer`
        : `Refunded and revoked the gift from ${gift.buyerEmail} to ${gift.recipientEmail} (${formatPrice(gift.amountCents)})`;
      if (actor) await recordAudit(tx, actor, { action: "gift.refund", entityType: "gift", entityId: giftId, summary, before: { status: gift.status }, after: { status: "refunded", validThrough } }, now());
      return { ok: true, id: giftId, message: gift.status === "redeemed" ? `Refunded. ${ticketAfterRefundWords("The redeemer", validThrough, today())}` : "Refunded. The gift is revoked: its link no longer works." };
    });
  }

  return {
    stateOf,
    /** The museum's calendar day on this service's clock (the delivery date is checked against it). */
    today,

    /** Keeps the details as an unpaid draft (through `writer` when given: an idempotent write's transaction); the payment step pays for it. */
    async createDraft(input: GiftInput, buyerUserId: string | null, writer: Pick<Database, "insert"> = db): Promise<string> {
      const [row] = await writer
        .insert(gifts)
        .values({ ...input, buyerUserId, amountCents: priceCents, currency: TICKET_CURRENCY, daysGranted: ticketDays, createdAt: now() })
        .returning({ id: gifts.id });
      return row.id;
    },

    async get(id: string): Promise<GiftRow | null> {
      const [row] = await db.select().from(gifts).where(eq(gifts.id, id)).limit(1);
      return row ?? null;
    },

    /**
     * Charges the card for the draft (idempotency key per attempt) and marks it paid, holding the
     * draft's row lock from the status check to the mark: a second pay request for the same
     * draft (another tab, a double submit) waits, then finds it paid and charges nothing. A
     * charge that asks for 3-D Secure is written on the draft before the lock is let go: until
     * that payment has failed, a pay request answers with its bank step again (or marks the gift
     * paid if it succeeded meanwhile), and charges nothing.
     */
    async pay(o: { giftId: string; paymentMethodId: string; idempotencyKey: string }): Promise<PaymentOutcome> {
      try {
        if (!isUuid(o.giftId)) return { status: "card_error", message: "This gift could not be found." };
        // The card is charged inside: never run again after a lost connection (decision 052).
        const outcome: PaymentOutcome = await transactionOnce(db, async (t) => {
          const tx = t as unknown as Database;
          const [locked] = await queryRows<{ id: string }>(tx, sql`select id from ${gifts} where id = ${o.giftId} for update`);
          const [gift] = locked ? await tx.select().from(gifts).where(eq(gifts.id, locked.id)) : [];
          if (!gift) return { status: "card_error", message: "This gift could not be found." };
          if (gift.status !== "unpaid") return { status: "succeeded", validThrough: null, message: "Thank you! Your gift ticket is paid." };
          const started = gift.providerPaymentId ? await startedPayment(gift.id, gift.providerPaymentId, tx) : null;
          if (started) return started;
          const result = await provider.charge({
            amountCents: priceCents,
            currency: TICKET_CURRENCY,
            paymentMethodId: o.paymentMethodId,
            receiptEmail: gift.buyerEmail,
            userId: gift.buyerUserId ?? "",
            giftId: gift.id,
            idempotencyKey: o.idempotencyKey,
            description: `${SITE_SHORT_NAME} gift ticket`,
          });
          if (result.status === "requires_action") {
            await tx.update(gifts).set({ providerPaymentId: result.providerPaymentId }).where(eq(gifts.id, gift.id));
          }
          if (result.status !== "succeeded") return result;
          return await outcomeOf(gift.id, { ...result, amountCents: priceCents, currency: TICKET_CURRENCY }, tx);
        });
        // The receipt and delivery jobs were queued inside the lock's transaction: wake the outbox now that they committed.
        if (outcome.status === "succeeded") onEnqueued?.();
        return outcome;
      } catch (error) {
        logger.error({ err: error }, "gift payment failed");
        return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
      }
    },

    confirm,

    /** Test mode: the buyer completed or failed the 3-D Secure challenge of the gift's payment. */
    async answerChallenge(o: { giftId: string; providerPaymentId: string; choice: TestChallengeChoice }): Promise<PaymentOutcome> {
      try {
        return await answerTestChallenge(provider, o, (p) => p.giftId === o.giftId, () => confirm(o));
      } catch (error) {
        logger.error({ err: error }, "gift test challenge failed");
        return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
      }
    },

    /** The webhook's payment_intent.succeeded for a gift. */
    markPaid,

    /** The gift-delivery job, in the transaction that marks it done: the token and the email. */
    async deliver(tx: Database, job: GiftDeliveryJob): Promise<void> {
      const [locked] = await queryRows<{ id: string }>(tx, sql`select id from ${gifts} where id = ${job.giftId} and status = 'paid' and delivered_at is null for update`);
      if (!locked) return; // revoked, or delivered already
      const token = randomBytes(32).toString("base64url");
      const at = now();
      const [gift] = await tx
        .update(gifts)
        .set({ tokenHash: sha256(token), deliveredAt: at, tokenExpiresAt: new Date(at.getTime() + GIFT_LINK_TTL_MS) })
        .where(eq(gifts.id, job.giftId))
        .returning();
      await enqueue(tx, { kind: "email", payload: giftEmail(gift, `${publicUrl}/gift/redeem/${token}`) }, at);
      onEnqueued?.();
    },

    /** Whether a redeem link can still be used, and the gift's words for the page. */
    async check(token: string): Promise<{ ok: true; gift: GiftRow } | { ok: false; reason: RedeemRefusal }> {
      const gift = await byToken(token);
      const refusal = refusalOf(gift);
      return refusal || !gift ? { ok: false, reason: refusal ?? "invalid" } : { ok: true, gift };
    },

    /** Redeems the link (once) for `userId`: the ticket extends from the current end. */
    async redeem(token: string, userId: string): Promise<{ ok: true; validThrough: string } | { ok: false; reason: RedeemRefusal }> {
      const answer = await transactionRetrying(db, async (t): Promise<{ ok: true; validThrough: string } | { ok: false; reason: RedeemRefusal }> => {
        const tx = t as unknown as Database;
        const gift = await byToken(token, tx);
        const refusal = refusalOf(gift);
        if (refusal || !gift) return { ok: false, reason: refusal ?? "invalid" };
        const grant = await membership.grantDays(tx, userId, gift.daysGranted, {
          record: async (validThrough) => {
            const claimed = await tx
              .update(gifts)
              .set({ status: "redeemed", redeemedBy: userId, redeemedAt: now(), validThroughAfter: validThrough })
              .where(and(eq(gifts.id, gift.id), eq(gifts.status, "paid")))
              .returning({ id: gifts.id });
            return claimed.length > 0;
          },
        });
        if (!grant) return { ok: false, reason: "invalid" };
        if (!grant.granted) return { ok: false, reason: "redeemed" };
        return { ok: true, validThrough: grant.validThrough };
      });
      if (answer.ok) await membership.accessSettled();
      return answer;
    },

    /** Gifts bought by an account, newest first (the account page). */
    async boughtBy(userId: string) {
      const rows = await db.select().from(gifts).where(and(eq(gifts.buyerUserId, userId), sql`${gifts.status} <> 'unpaid'`)).orderBy(desc(gifts.createdAt));
      return rows.map((g) => ({ ...g, state: stateOf(g) }));
    },

    /** The console's list (admins): newest first, optionally one state, paged. */
    async list(query: { status?: "unpaid" | "paid" | "redeemed" | "refunded"; page: number; pageSize: number }) {
      const where: SQL | undefined = query.status ? eq(gifts.status, query.status) : undefined;
      const [rows, [{ total }]] = await Promise.all([
        db.select().from(gifts).where(where).orderBy(desc(gifts.createdAt), desc(gifts.id)).limit(query.pageSize).offset((query.page - 1) * query.pageSize),
        db.select({ total: sql<number>`count(*)::int` }).from(gifts).where(where),
      ]);
      return { rows: rows.map((g) => ({ ...g, state: stateOf(g) })), total: Number(total) };
    },

    refund,

    /** Stripe's charge.refunded for a gift's payment (a refund made in Stripe's dashboard). */
    async refundedByProvider(providerPaymentId: string): Promise<boolean> {
      const [gift] = await db.select({ id: gifts.id }).from(gifts).where(eq(gifts.providerPaymentId, providerPaymentId)).limit(1);
      if (!gift) return false;
      await refund(null, gift.id, { refundAtProvider: false });
      return true;
    },
  };
}

export type Gifts = ReturnType<typeof createGifts>;
