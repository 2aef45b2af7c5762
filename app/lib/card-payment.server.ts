/**
 * What the ticket's payment page and the gift's payment page share: reading the card
 * from the form (test-mode card numbers, or Stripe's payment method id) and answering a payment
 * outcome with the status the page's client reads.
 */
import { data } from "react-router";
import type { PaymentResult } from "~/shared/payment-results";
import type { PaymentOutcome } from "../../server/payments/payment-service.server";
import { testPaymentMethodFor } from "../../server/payments/test-cards.server";

/** The payment method the form names, or the answer that says what is wrong with the card. */
export function paymentMethodFromForm(str: (name: string) => string, provider: { kind: "test" | "stripe" }) {
  let paymentMethodId = str("paymentMethodId");
  if (provider.kind === "test") {
    const card = testPaymentMethodFor({ cardNumber: str("cardNumber"), expiry: str("expiry"), cvc: str("cvc"), zip: str("zip") }, new Date());
    if (!card.ok) return { refused: data<PaymentResult>({ status: "card_error", message: card.message }, { status: 402 }) } as const;
    paymentMethodId = card.paymentMethodId;
  }
  if (!paymentMethodId) return { refused: data<PaymentResult>({ status: "card_error", message: "Please enter your card details." }, { status: 400 }) } as const;
  return { paymentMethodId } as const;
}

/**
 * The test mode's 3-D Secure challenge answered from the page (`intent=authenticate`): the
 * payment it is about and the person's choice, or the answer that refuses the post.
 */
export function testChallengeFromForm(str: (name: string) => string, provider: { kind: "test" | "stripe" }) {
  const choice = str("choice");
  const providerPaymentId = str("paymentIntentId");
  if (provider.kind !== "test" || (choice !== "complete" && choice !== "fail") || !/^pi_test_[0-9a-f]{24}$/.test(providerPaymentId)) {
    return { refused: data<PaymentResult>({ status: "card_error", message: "This payment could not be found." }, { status: 400 }) } as const;
  }
  return { providerPaymentId, choice } as const;
}

/** A payment's outcome as the page's answer; `succeeded` decides what success looks like. */
export function answerPayment<S>(outcome: PaymentOutcome, succeeded: (message: string) => S) {
  switch (outcome.status) {
    case "succeeded":
      return succeeded(outcome.message);
    case "requires_action":
      return data<PaymentResult>({ status: "requires_action", clientSecret: outcome.clientSecret, paymentIntentId: outcome.providerPaymentId }, { status: 202 });
    case "card_error":
      return data<PaymentResult>({ status: "card_error", message: outcome.message }, { status: 402 });
    case "server_error":
      return data<PaymentResult>({ status: "server_error", message: outcome.message }, { status: 503 });
  }
}
