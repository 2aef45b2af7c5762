/**
 * The built-in payment provider used when no Stripe keys are set: no card is charged, and the
 * outcomes follow Stripe's test cards (server/payments/test-cards.server.ts). The payment id is derived
 * from the idempotency key, so a retried or doubled request is the same payment. A card that asks
 * for 3-D Secure leaves its payment waiting (`requires_action`) until the person completes or
 * fails the test challenge (decision 059), as Stripe's test mode does. Payments live in this
 * process's memory: a restart forgets a challenge not yet answered (nothing was paid).
 */
import { createHash } from "node:crypto";
import type { ChargeRequest, ChargeResult, PaymentProvider, RetrievedPayment } from "./provider";
import { CARD_MESSAGES, describeTestPaymentMethod } from "./test-cards.server";

export function createTestModeProvider(): PaymentProvider {
  const charged = new Map<string, RetrievedPayment>();
  /** What a completed challenge ends in, per waiting payment. */
  const afterChallenge = new Map<string, "succeed" | keyof typeof CARD_MESSAGES>();

  /** A known payment answered as a charge would be: the same payment again, never a second one. */
  function answerOf(p: RetrievedPayment): ChargeResult {
    if (p.status === "succeeded") return { status: "succeeded", providerPaymentId: p.providerPaymentId, cardBrand: p.cardBrand, cardLast4: p.cardLast4 };
    if (p.status === "requires_action" && p.clientSecret) return { status: "requires_action", providerPaymentId: p.providerPaymentId, clientSecret: p.clientSecret };
    return { status: "card_error", message: p.lastPaymentError ?? CARD_MESSAGES.declined };
  }

  return {
    kind: "test",
    publishableKey: null,
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const method = describeTestPaymentMethod(request.paymentMethodId);
      if (!method) return { status: "card_error", message: CARD_MESSAGES.invalidNumber };
      const id = `pi_test_${createHash("sha256").update(request.idempotencyKey).digest("hex").slice(0, 24)}`;
      const known = charged.get(id);
      if (known) return answerOf(known);
      if (!method.authenticate && method.outcome !== "succeed") return { status: "card_error", message: CARD_MESSAGES[method.outcome] };
      const payment: RetrievedPayment = {
        providerPaymentId: id,
        status: method.authenticate ? "requires_action" : "succeeded",
        amountCents: request.amountCents,
        currency: request.currency,
        userId: request.userId,
        giftId: request.giftId ?? null,
        receiptEmail: request.receiptEmail,
        cardBrand: method.brand,
        cardLast4: method.last4,
        clientSecret: method.authenticate ? `${id}_secret_test` : null,
        lastPaymentError: null,
      };
      charged.set(id, payment);
      if (method.authenticate) afterChallenge.set(id, method.authenticate);
      return answerOf(payment);
    },
    async retrieve(id) {
      return charged.get(id) ?? null;
    },
    async refund({ providerPaymentId }) {
      // No card was charged: the refund only marks the payment, as Stripe's would.
      const payment = charged.get(providerPaymentId);
      if (payment) charged.set(providerPaymentId, { ...payment, status: "refunded" });
    },
    async authenticateTestPayment(id, choice) {
      const payment = charged.get(id);
      const then = afterChallenge.get(id);
      if (!payment || payment.status !== "requires_action" || !then) return;
      afterChallenge.delete(id);
      // As Stripe: a failed challenge, or a decline after a completed one, leaves the payment
      // waiting for another payment method, with the reason as its last error.
      const failure = choice === "fail" ? CARD_MESSAGES.authenticationFailed : then === "succeed" ? null : CARD_MESSAGES[then];
      charged.set(id, { ...payment, status: failure ? "requires_payment_method" : "succeeded", clientSecret: null, lastPaymentError: failure });
    },
  };
}
