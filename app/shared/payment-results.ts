/**
 * What the ticket and gift payment pages' actions answer, and what the card form can meet: one
 * shape for the route modules, the server helper that builds the answers
 * (app/lib/card-payment.server.ts) and the card form (app/components/StripeCardForm.tsx).
 */
export type PaymentResult =
  | { status: "succeeded"; message: string }
  | { status: "requires_action"; clientSecret: string; paymentIntentId: string }
  | { status: "card_error" | "server_error" | "not_logged_in"; message: string };

/** What the page can meet: the action's answers, or no answer at all. */
export type PaymentPageResult = PaymentResult | { status: "no_answer"; message: string };
