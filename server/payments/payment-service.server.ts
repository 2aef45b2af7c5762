/**
 * Paying for a ticket: charge through the provider, then grant through the membership service,
 * which decides with the webhook's rule whether the payment buys a ticket. Card problems come
 * back with the provider's own message; a payment that buys nothing is left to staff (recorded
 * by the membership service) with a message saying so; anything else is a server error with a
 * message that says nothing was charged.
 */
import { SERVER_MESSAGES } from "../../app/shared/messages";
import type { Logger } from "../logger";
import type { Membership } from "../membership/membership-service";
import { TICKET_CURRENCY } from "../membership/ticket";
import type { PaymentProvider, RetrievedPayment, TestChallengeChoice } from "./provider";
import { SITE_SHORT_NAME } from "../../app/shared/site";

export type PaymentOutcome =
  | { status: "succeeded"; validThrough: string | null; message: string }
  | { status: "requires_action"; clientSecret: string; providerPaymentId: string }
  | { status: "card_error"; message: string }
  | { status: "server_error"; message: string };

/** A payment read back after 3-D Secure that did not succeed: the provider's own reason, or a general one. */
export function unpaidOutcome(p: RetrievedPayment): PaymentOutcome {
  return { status: "card_error", message: p.lastPaymentError ?? "Your card was not authorized. Please try again." };
}

/**
 * Test mode's 3-D Secure challenge, answered: `owns` checks the waiting payment belongs to the
 * one who answers before anything changes; then the provider records the choice (once: a
 * second press changes nothing) and `confirm` reads the outcome as after Stripe's own step.
 */
export async function answerTestChallenge(
  provider: PaymentProvider,
  o: { providerPaymentId: string; choice: TestChallengeChoice },
  owns: (p: RetrievedPayment) => boolean,
  confirm: () => Promise<PaymentOutcome>,
): Promise<PaymentOutcome> {
  const p = provider.authenticateTestPayment ? await provider.retrieve(o.providerPaymentId) : null;
  if (!p || !owns(p)) return { status: "card_error", message: "This payment could not be found." };
  await provider.authenticateTestPayment!(o.providerPaymentId, o.choice);
  return confirm();
}

export interface PaymentServiceDeps {
  provider: PaymentProvider;
  membership: Membership;
  priceCents: number;
  logger: Logger;
}

export function createPaymentService({ provider, membership, priceCents, logger }: PaymentServiceDeps) {
  async function grant(
    userId: string,
    receiptEmail: string,
    p: { providerPaymentId: string; amountCents: number; currency: string; cardBrand: string | null; cardLast4: string | null },
  ): Promise<PaymentOutcome> {
    const result = await membership.grantTicket({
      userId,
      provider: provider.kind,
      providerPaymentId: p.providerPaymentId,
      amountCents: p.amountCents,
      currency: p.currency,
      cardBrand: p.cardBrand,
      cardLast4: p.cardLast4,
      receiptEmail,
    });
    if (result.refused) return { status: "server_error", message: SERVER_MESSAGES.paymentNeedsReview };
    return { status: "succeeded", validThrough: result.validThrough, message: SERVER_MESSAGES.paymentSuccess };
  }

  /** After 3-D Secure in the browser: grant if the provider says the payment succeeded. */
  async function confirm(o: { userId: string; providerPaymentId: string; receiptEmail: string }): Promise<PaymentOutcome> {
    try {
      const p = await provider.retrieve(o.providerPaymentId);
      if (!p || p.userId !== o.userId) return { status: "card_error", message: "This payment could not be found." };
      if (p.status !== "succeeded") return unpaidOutcome(p);
      return await grant(o.userId, p.receiptEmail ?? o.receiptEmail, p);
    } catch (error) {
      logger.error({ err: error }, "payment confirmation failed");
      return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
    }
  }

  return {
    provider,

    async pay(o: { userId: string; paymentMethodId: string; receiptEmail: string; idempotencyKey: string }): Promise<PaymentOutcome> {
      try {
        const result = await provider.charge({
          amountCents: priceCents,
          currency: TICKET_CURRENCY,
          paymentMethodId: o.paymentMethodId,
          receiptEmail: o.receiptEmail,
          userId: o.userId,
          idempotencyKey: o.idempotencyKey,
          description: `${SITE_SHORT_NAME} ticket`,
        });
        if (result.status === "card_error") return result;
        if (result.status === "requires_action") return result;
        // The provider charged what was asked: the price, in the ticket's currency.
        return await grant(o.userId, o.receiptEmail, { ...result, amountCents: priceCents, currency: TICKET_CURRENCY });
      } catch (error) {
        logger.error({ err: error }, "payment failed");
        return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
      }
    },

    confirm,

    /** Test mode: the person completed or failed the 3-D Secure challenge of their payment. */
    async answerChallenge(o: { userId: string; providerPaymentId: string; receiptEmail: string; choice: TestChallengeChoice }): Promise<PaymentOutcome> {
      try {
        return await answerTestChallenge(provider, o, (p) => p.userId === o.userId && !p.giftId, () => confirm(o));
      } catch (error) {
        logger.error({ err: error }, "test challenge failed");
        return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
      }
    },
  };
}

