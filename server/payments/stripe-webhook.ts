/**
 * POST /api/stripe/webhook. The raw body is checked against STRIPE_WEBHOOK_SECRET (400 and
 * nothing written on a bad or missing signature); a table maps event types to handlers; events
 * we do not handle get 200. Handlers upsert, because events arrive late, twice, in parallel and
 * out of order: the ticket is granted by payment id exactly once, whichever of the browser and
 * the webhook gets there first, and a processed event id is recorded so a replay does nothing.
 * A payment that does not buy a ticket (the membership service's one rule) or names an unknown
 * account is recorded for staff and answered 200: retrying could never make it succeed.
 */
import { eq } from "drizzle-orm";
import { Router } from "express";
import type Stripe from "stripe";
import type { Database } from "../db/client";
import { readBody } from "../http/body-limits";
import { processedWebhookEvents } from "../db/schema";
import type { Logger } from "../logger";
import type { Membership } from "../membership/membership-service";
import type { Gifts } from "../gifts/gift-service";

export interface WebhookDeps {
  stripe: Stripe;
  webhookSecret: string;
  membership: Membership;
  /** A payment with a giftId in its metadata pays for that gift, not a ticket of its own. */
  gifts: Gifts;
  db: Database;
  logger: Logger;
  priceCents: number;
}

type Handler = (event: Stripe.Event) => Promise<void>;

export function createStripeWebhookRouter({ stripe, webhookSecret, membership, gifts, db, logger, priceCents }: WebhookDeps): Router {
  const handlers: Partial<Record<Stripe.Event["type"], Handler>> = {
    "payment_intent.succeeded": async (event) => {
      const pi = event.data.object as Stripe.PaymentIntent;
      const charge = typeof pi.latest_charge === "object" ? pi.latest_charge : null;
      const card = { cardBrand: charge?.payment_method_details?.card?.brand ?? null, cardLast4: charge?.payment_method_details?.card?.last4 ?? null };
      if (pi.metadata?.giftId) {
        await gifts.markPaid(pi.metadata.giftId, { providerPaymentId: pi.id, amountCents: pi.amount, currency: pi.currency, ...card });
        return;
      }
      const result = await membership.grantTicket({
        userId: pi.metadata?.userId ?? "",
        provider: "stripe",
        providerPaymentId: pi.id,
        amountCents: pi.amount,
        currency: pi.currency,
        ...card,
        receiptEmail: pi.receipt_email ?? "",
      });
      if (result.refused) logger.warn({ pi: pi.id, amount: pi.amount, priceCents, incident: result.refused }, "payment_intent recorded for staff");
    },
    "charge.refunded": async (event) => {
      const charge = event.data.object as Stripe.Charge;
      const pi = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      if (pi && charge.refunded && !(await gifts.refundedByProvider(pi)) && !(await membership.revokeTicket(pi))) await membership.settleIncident(pi);
    },
  };

  const router = Router();
  router.post("/api/stripe/webhook", readBody, async (req, res) => {
    let event: Stripe.Event;
    try {
      const signature = req.get("stripe-signature");
      if (!signature || !Buffer.isBuffer(req.body)) throw new Error("missing signature");
      event = stripe.webhooks.constructEvent(req.body, signature, webhookSecret);
    } catch {
      return res.status(400).json({ message: "Invalid webhook signature." });
    }
    const handler = handlers[event.type];
    if (!handler) return res.json({ received: true, ignored: true });
    const [seen] = await db
      .select({ id: processedWebhookEvents.eventId })
      .from(processedWebhookEvents)
      .where(eq(processedWebhookEvents.eventId, event.id));
    if (seen) return res.json({ received: true, duplicate: true });
    try {
      await handler(event);
      await db.insert(processedWebhookEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing();
      res.json({ received: true });
    } catch (error) {
      // Stripe retries non-2xx answers: a transient failure here is retried, never lost.
      logger.error({ err: error, event: event.id, type: event.type }, "webhook handler failed");
      res.status(500).json({ message: "Webhook processing failed; it will be retried." });
    }
  });
  return router;
}
