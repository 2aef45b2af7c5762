/**
 * Paying for a gift ticket (decision 018): the gift's details, then the card, as on
 * the payment page (test-mode card numbers, or Stripe Elements with keys). One idempotency key
 * per attempt, so a double click or a retry after no answer is one payment; the gift is marked
 * paid once, by its payment. Then on to /gift/sent.
 */
import { randomUUID } from "node:crypto";
import { useMemo } from "react";
import { data, Form, redirect, useFetcher, useNavigation } from "react-router";
import type { Route } from "./+types/gift-pay";
import { Outcome } from "~/components/account/AccountForm";
import { SubmitButton, TextField } from "~/components/FormFields";
import { StripeCardForm } from "~/components/StripeCardForm";
import { longDate } from "~/shared/ticket-words";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { answerPayment, paymentMethodFromForm, testChallengeFromForm } from "~/lib/card-payment.server";
import { TestChallenge } from "~/components/TestChallenge";
import { requireId } from "~/lib/load.server";
import { pageMeta } from "~/lib/meta";
import { SERVER_MESSAGES } from "~/shared/messages";
import { formatPrice } from "~/shared/money";
import type { PaymentOutcome } from "../../server/payments/payment-service.server";
import type { PaymentPageResult, PaymentResult } from "~/shared/payment-results";

export async function loader({ params, context }: Route.LoaderArgs) {
  const gift = await context.services.gifts.get(requireId(params.id));
  if (!gift) throw data(null, { status: 404 });
  if (gift.status !== "unpaid") throw redirect(`/gift/sent?gift=${gift.id}`);
  const provider = context.services.payments.provider;
  return {
    recipient: `${gift.recipientFirstName} ${gift.recipientLastName}`,
    recipientEmail: gift.recipientEmail,
    deliverOn: longDate(gift.deliverOn),
    price: formatPrice(gift.amountCents),
    days: gift.daysGranted,
    attemptId: randomUUID(),
    testMode: provider.kind === "test",
    publishableKey: provider.publishableKey,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<PaymentResult>(context, (message) => ({ status: "server_error", message }));
  if (limited) return limited;
  const giftId = requireId(params.id);
  const form = Object.fromEntries(await request.formData());
  const str = (k: string) => (typeof form[k] === "string" ? (form[k] as string) : "");
  const attemptId = str("attemptId");
  if (!/^[0-9a-f-]{36}$/.test(attemptId)) return data<PaymentResult>({ status: "server_error", message: SERVER_MESSAGES.paymentServerError }, { status: 400 });
  const { gifts, payments } = context.services;
  // An address that names no gift is not found, as its page is (not a card problem).
  if (!(await gifts.get(giftId))) throw data(null, { status: 404 });
  if (str("intent") === "confirm") return answer(giftId, await gifts.confirm({ giftId, providerPaymentId: str("paymentIntentId") }));
  if (str("intent") === "authenticate") {
    const challenge = testChallengeFromForm(str, payments.provider);
    if ("refused" in challenge) return challenge.refused;
    return answer(giftId, await gifts.answerChallenge({ giftId, ...challenge }));
  }
  const card = paymentMethodFromForm(str, payments.provider);
  if ("refused" in card) return card.refused;
  return answer(giftId, await gifts.pay({ giftId, paymentMethodId: card.paymentMethodId, idempotencyKey: `gift:${giftId}:${attemptId}` }));
}

function answer(giftId: string, outcome: PaymentOutcome) {
  return answerPayment(outcome, () => redirect(`/gift/sent?gift=${giftId}`));
}

export function meta() {
  return [...pageMeta("Pay for your gift ticket", "Pay for the museum ticket you are giving."), { name: "robots", content: "noindex" }];
}

export default function GiftPay({ loaderData: l, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<PaymentPageResult>();
  const navigation = useNavigation();
  const result = actionData && "message" in actionData ? actionData : fetcher.data && "message" in fetcher.data ? fetcher.data : undefined;
  // One object per answer, so the alert scrolls into view once per refusal.
  const refusal = useMemo(() => (result ? { ok: false, message: result.message } : undefined), [result]);
  // Test mode: the payment waiting for its 3-D Secure challenge (with or without JavaScript).
  const challenge = l.testMode && actionData?.status === "requires_action" ? actionData.paymentIntentId : null;
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Your card will be charged {l.price}</h1>
      <p className="mt-4 text-lg" data-testid="gift-summary">
        {`A gift ticket of ${l.days} days for ${l.recipient}. We will email it to ${l.recipientEmail} on ${l.deliverOn}.`}
      </p>
      <Outcome outcome={refusal} />
      {challenge ? <TestChallenge Form={Form} paymentIntentId={challenge} attemptId={l.attemptId} busy={navigation.state !== "idle"} /> : null}
      {l.testMode ? (
        // Hidden, not gone, during the challenge: a failed one brings it back as it was typed.
        <Form method="post" noValidate hidden={challenge !== null} className="mt-6 space-y-4 rounded-lg border-2 border-dashed border-gold-dark bg-white p-5" data-testid="test-card-form">
          <p className="font-semibold text-gold-deep">Test mode: no card is charged</p>
          <input type="hidden" name="attemptId" value={l.attemptId} />
          <TextField label="Card number" name="cardNumber" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required />
          <div className="grid grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1fr)] items-start gap-3">
            <TextField label="Expiration date" name="expiry" labelClassName="whitespace-nowrap text-sm sm:text-base" placeholder="MM/YY" autoComplete="cc-exp" required />
            <TextField label="CVC" name="cvc" labelClassName="whitespace-nowrap text-sm sm:text-base" inputMode="numeric" autoComplete="cc-csc" required />
            <TextField label="ZIP code" name="zip" labelClassName="whitespace-nowrap text-sm sm:text-base" inputMode="numeric" autoComplete="postal-code" required />
          </div>
          <SubmitButton busy={navigation.state === "submitting"}>Authorize Payment</SubmitButton>
        </Form>
      ) : (
        <StripeCardForm publishableKey={l.publishableKey ?? ""} attemptId={l.attemptId} fetcher={fetcher} />
      )}
    </section>
  );
}
