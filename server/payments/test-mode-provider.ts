/**
 * The built-in payment provider used when no Stripe keys are set: no card is charged, and the
 * outcomes follow Stripe's test cards (server/payments/test-cards.server.ts). The payment id is derived
 * from the idempotency key, so a retried or doubled request is the same payment.
 */
import { createHash } from "node:crypto";
import type { ChargeRequest, ChargeResult, PaymentProvider, RetrievedPayment } from "./provider";
import { CARD_MESSAGES, describeTestPaymentMethod } from "./test-cards.server";

export function createTestModeProvider(): PaymentProvider {
  const charged = new Map<string, RetrievedPayment>();
  return {
    kind: "test",
    publishableKey: null,
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const method = describeTestPaymentMethod(request.paymentMethodId);
      if (!method) return { status: "card_error", message: CARD_MESSAGES.invalidNumber };
      if (method.outcome !== "succeed") return { status: "card_error", message: CARD_MESSAGES[method.outcome] };
      const id = `pi_test_${createHash("sha256").update(request.idempotencyKey).digest("hex").slice(0, 24)}`;
      charged.set(id, {
        providerPaymentId: id,
        status: "succeeded",
        amountCents: request.amountCents,
        currency: request.currency,
        userId: request.userId,
        giftId: request.giftId ?? null,
        receiptEmail: request.receiptEmail,
        cardBrand: method.brand,
        cardLast4: method.last4,
      });
      return { status: "succeeded", providerPaymentId: id, cardBrand: method.brand, cardLast4: method.last4 };
    },
    async retrieve(id) {
      return charged.get(id) ?? null;
    },
    async refund({ providerPaymentId }) {
      // No card was charged: the refund only marks the payment, as Stripe's would.
      const payment = charged.get(providerPaymentId);
      if (payment) charged.set(providerPaymentId, { ...payment, status: "refunded" });
    },
  };
}
