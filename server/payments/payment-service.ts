/**
 * Paying for a ticket: charge through the provider, then grant through the membership service.
 * Card problems come back with the provider's own message; anything else is a server error
 * with a message that says nothing was charged.
 */
import { SERVER_MESSAGES } from "../../app/lib/messages";
import type { Logger } from "../logger";
import type { Membership } from "../membership/membership-service";
import type { PaymentProvider } from "./provider";

export type PaymentOutcome =
  | { status: "succeeded"; validThrough: string | null; message: string }
  | { status: "requires_action"; clientSecret: string; providerPaymentId: string }
  | { status: "card_error"; message: string }
  | { status: "server_error"; message: string };

export interface PaymentServiceDeps {
  provider: PaymentProvider;
  membership: Membership;
  priceCents: number;
  logger: Logger;
}

export function createPaymentService({ provider, membership, priceCents, logger }: PaymentServiceDeps) {
  async function grant(userId: string, receiptEmail: string, p: { providerPaymentId: string; cardBrand: string | null; cardLast4: string | null }) {
    const { validThrough } = await membership.grantTicket({
      userId,
      provider: provider.kind,
      providerPaymentId: p.providerPaymentId,
      amountCents: priceCents,
      currency: "usd",
      cardBrand: p.cardBrand,
      cardLast4: p.cardLast4,
      receiptEmail,
    });
    return { status: "succeeded" as const, validThrough, message: SERVER_MESSAGES.paymentSuccess };
  }

  return {
    provider,

    async pay(o: { userId: string; paymentMethodId: string; receiptEmail: string; idempotencyKey: string }): Promise<PaymentOutcome> {
      try {
        const result = await provider.charge({
          amountCents: priceCents,
          currency: "usd",
          paymentMethodId: o.paymentMethodId,
          receiptEmail: o.receiptEmail,
          userId: o.userId,
          idempotencyKey: o.idempotencyKey,
          description: "Pittsburgh Sports Museum ticket",
        });
        if (result.status === "card_error") return result;
        if (result.status === "requires_action") return result;
        return await grant(o.userId, o.receiptEmail, result);
      } catch (error) {
        logger.error({ err: error }, "payment failed");
        return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
      }
    },

    /** After 3-D Secure in the browser: grant if the provider says the payment succeeded. */
    async confirm(o: { userId: string; providerPaymentId: string; receiptEmail: string }): Promise<PaymentOutcome> {
      try {
        const p = await provider.retrieve(o.providerPaymentId);
        if (!p || p.userId !== o.userId) return { status: "card_error", message: "This payment could not be found." };
        if (p.status !== "succeeded") return { status: "card_error", message: "Your card was not authorized. Please try again." };
        if (p.amountCents !== priceCents) throw new Error(`payment ${p.providerPaymentId} has amount ${p.amountCents}`);
        return await grant(o.userId, p.receiptEmail ?? o.receiptEmail, p);
      } catch (error) {
        logger.error({ err: error }, "payment confirmation failed");
        return { status: "server_error", message: SERVER_MESSAGES.paymentServerError };
      }
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
