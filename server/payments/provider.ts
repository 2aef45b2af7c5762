/** What the payment, membership and gift services need from a card payment provider (Stripe, or the test mode). */

export interface ChargeRequest {
  amountCents: number;
  currency: "usd";
  /** The provider's payment method id (Stripe `pm_...`). */
  paymentMethodId: string;
  receiptEmail: string;
  userId: string;
  /** Set when the payment buys a gift ticket: the webhook grants nothing to userId then. */
  giftId?: string;
  /** Same key = same payment: retries and double clicks never charge twice. */
  idempotencyKey: string;
  description: string;
}

export type ChargeResult =
  | { status: "succeeded"; providerPaymentId: string; cardBrand: string | null; cardLast4: string | null }
  | { status: "requires_action"; providerPaymentId: string; clientSecret: string }
  | { status: "card_error"; message: string };

export interface RetrievedPayment {
  providerPaymentId: string;
  status: string;
  amountCents: number;
  currency: string;
  userId: string | null;
  giftId: string | null;
  receiptEmail: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  /** While the payment waits for 3-D Secure: what the browser needs to show the bank's step again. */
  clientSecret?: string | null;
  /** The provider's own message for why the payment failed (a failed 3-D Secure, a decline after it). */
  lastPaymentError?: string | null;
}

/** The person's choice on the test mode's 3-D Secure challenge. */
export type TestChallengeChoice = "complete" | "fail";

export interface PaymentProvider {
  kind: "test" | "stripe";
  /** Shown to the browser (Stripe.js); null in test mode. */
  publishableKey: string | null;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Reads a payment back (after 3-D Secure, or to double-check a webhook). */
  retrieve(providerPaymentId: string): Promise<RetrievedPayment | null>;
  /**
   * Refunds a payment in full. Same key = same refund: a retried refund never pays back twice.
   * The membership service decides what the refund takes back (decision 023).
   */
  refund(request: RefundRequest): Promise<void>;
  /**
   * Test mode only: the person completed or failed the test challenge of a payment waiting for
   * 3-D Secure (with Stripe, the browser does this with Stripe itself). A payment no longer
   * waiting is left as it is, so a second press changes nothing.
   */
  authenticateTestPayment?(providerPaymentId: string, choice: TestChallengeChoice): Promise<void>;
}

export interface RefundRequest {
  providerPaymentId: string;
  idempotencyKey: string;
}
