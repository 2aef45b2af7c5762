/**
 * Stripe through its official SDK: a PaymentIntent for the ticket price, confirmed server-side
 * with the payment method created by Stripe.js in the browser, with an idempotency key on every
 * create and refund. `apiBase` points the SDK at a local stand-in in tests.
 */
import Stripe from "stripe";
import type { ChargeRequest, ChargeResult, PaymentProvider, RefundRequest, RetrievedPayment } from "./provider";

export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  if (!apiBase) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const url = new URL(apiBase);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    protocol: url.protocol === "https:" ? "https" : "http",
    maxNetworkRetries: 0,
  });
}

function cardOf(pi: Stripe.PaymentIntent): { cardBrand: string | null; cardLast4: string | null } {
  const charge = typeof pi.latest_charge === "object" ? pi.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return { cardBrand: card?.brand ?? null, cardLast4: card?.last4 ?? null };
}

export function createStripeProvider({ stripe, publishableKey }: { stripe: Stripe; publishableKey: string }): PaymentProvider {
  return {
    kind: "stripe",
    publishableKey,
    async charge(r: ChargeRequest): Promise<ChargeResult> {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: r.amountCents,
            currency: r.currency,
            payment_method: r.paymentMethodId,
            confirm: true,
            receipt_email: r.receiptEmail,
            description: r.description,
            metadata: r.giftId ? { userId: r.userId, giftId: r.giftId } : { userId: r.userId },
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
            expand: ["latest_charge"],
          },
          { idempotencyKey: r.idempotencyKey },
        );
        if (pi.status === "succeeded") return { status: "succeeded", providerPaymentId: pi.id, ...cardOf(pi) };
        if (pi.status === "requires_action" && pi.client_secret) {
          return { status: "requires_action", providerPaymentId: pi.id, clientSecret: pi.client_secret };
        }
        return { status: "card_error", message: pi.last_payment_error?.message ?? "Your card was not authorized. Please try again." };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) return { status: "card_error", message: error.message };
        throw error;
      }
    },
    async retrieve(id: string): Promise<RetrievedPayment | null> {
      try {
        const pi = await stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] });
        return {
          providerPaymentId: pi.id,
          status: pi.status,
          amountCents: pi.amount,
          currency: pi.currency,
          userId: pi.metadata?.userId ?? null,
          giftId: pi.metadata?.giftId ?? null,
          receiptEmail: pi.receipt_email,
          clientSecret: pi.status === "requires_action" ? pi.client_secret : null,
          // After a failed 3-D Secure, or a decline once it was completed, Stripe's own reason.
          lastPaymentError: pi.last_payment_error?.message ?? null,
          ...cardOf(pi),
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },
    async refund({ providerPaymentId, idempotencyKey }: RefundRequest): Promise<void> {
      await stripe.refunds.create({ payment_intent: providerPaymentId }, { idempotencyKey });
    },
  };
}
