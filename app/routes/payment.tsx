/**
 * Payment (spec sections 2, 4): the price from config, a greeting by first name, the card form
 * and 'Authorize Payment'. Without a signed-in account: the spec's message and /login after 5 s.
 * Success: the server's message, / after 3.5 s. Errors: the card's message for 3.5 s, a server
 * error's for 5 s. Test mode (no Stripe keys) takes Stripe's test card numbers; with keys, the
 * card is entered in Stripe Elements and never reaches this server.
 */
import { randomUUID } from "node:crypto";
import { useState } from "react";
import { data, useFetcher, useNavigate } from "react-router";
import type { Route } from "./+types/payment";
import { useAlert } from "~/components/AlertBanner";
import { SubmitButton, TextField } from "~/components/FormFields";
import { StripeCardForm } from "~/components/StripeCardForm";
import { pageMeta } from "~/lib/meta";
import { SERVER_MESSAGES } from "~/lib/messages";
import { formatPrice } from "~/lib/money";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { useRedirectAfter } from "~/lib/use-redirect-after";
import type { PaymentOutcome } from "../../server/payments/payment-service";
import { testPaymentMethodFor } from "../../server/payments/test-cards";

export async function loader({ context }: Route.LoaderArgs) {
  const v = context.viewer;
  const provider = context.services.payments.provider;
  return {
    firstName: v?.firstName ?? null,
    validThrough: v?.validThrough ?? null,
    price: formatPrice(context.settings.ticketPriceCents),
    days: context.settings.ticketDays,
    /** One key per visit to this page: a double click or a retry is the same payment. */
    attemptId: randomUUID(),
    testMode: provider.kind === "test",
    publishableKey: provider.publishableKey,
  };
}

export type PaymentResult =
  | { status: "succeeded"; message: string }
  | { status: "requires_action"; clientSecret: string; paymentIntentId: string }
  | { status: "card_error" | "server_error" | "not_logged_in"; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.viewer;
  if (!viewer) return data<PaymentResult>({ status: "not_logged_in", message: SERVER_MESSAGES.notLoggedInForPayment }, { status: 401 });
  const form = Object.fromEntries(await request.formData());
  const str = (k: string) => (typeof form[k] === "string" ? (form[k] as string) : "");
  const attemptId = str("attemptId");
  if (!/^[0-9a-f-]{36}$/.test(attemptId)) return data<PaymentResult>({ status: "server_error", message: SERVER_MESSAGES.paymentServerError }, { status: 400 });
  const { payments } = context.services;

  if (str("intent") === "confirm") {
    const outcome = await payments.confirm({ userId: viewer.userId, providerPaymentId: str("paymentIntentId"), receiptEmail: viewer.emailAddress });
    return answer(outcome);
  }

  let paymentMethodId = str("paymentMethodId");
  if (payments.provider.kind === "test") {
    const card = testPaymentMethodFor({ cardNumber: str("cardNumber"), expiry: str("expiry"), cvc: str("cvc"), zip: str("zip") }, new Date());
    if (!card.ok) return data<PaymentResult>({ status: "card_error", message: card.message }, { status: 402 });
    paymentMethodId = card.paymentMethodId;
  }
  if (!paymentMethodId) return data<PaymentResult>({ status: "card_error", message: "Please enter your card details." }, { status: 400 });
  const outcome = await payments.pay({
    userId: viewer.userId,
    paymentMethodId,
    receiptEmail: viewer.emailAddress,
    idempotencyKey: `${viewer.userId}:${attemptId}`,
  });
  return answer(outcome);
}

function answer(outcome: PaymentOutcome) {
  switch (outcome.status) {
    case "succeeded":
      return data<PaymentResult>({ status: "succeeded", message: outcome.message });
    case "requires_action":
      return data<PaymentResult>({ status: "requires_action", clientSecret: outcome.clientSecret, paymentIntentId: outcome.providerPaymentId }, { status: 202 });
    case "card_error":
      return data<PaymentResult>({ status: "card_error", message: outcome.message }, { status: 402 });
    case "server_error":
      return data<PaymentResult>({ status: "server_error", message: outcome.message }, { status: 503 });
  }
}

function NotLoggedIn() {
  useRedirectAfter("/login", TIMING.notLoggedInRedirect);
  return (
    <div role="alert" className="mt-6 rounded border-l-4 border-red-700 bg-red-50 px-4 py-3 font-medium text-red-900" data-testid="not-logged-in">
      {SERVER_MESSAGES.notLoggedInForPayment}
    </div>
  );
}

export default function Payment({ loaderData }: Route.ComponentProps) {
  const { firstName, price, days, attemptId, testMode, publishableKey } = loaderData;
  const fetcher = useFetcher<PaymentResult>();
  const navigate = useNavigate();
  const { show } = useAlert();
  const [done, setDone] = useState(false);

  useOnNewResult(fetcher.data, (r) => {
    if (r.status === "requires_action") return;
    if (r.status === "succeeded") {
      setDone(true);
      show({ type: "success", message: r.message });
      const id = setTimeout(() => navigate("/"), TIMING.paymentRedirect);
      return () => clearTimeout(id);
    }
    show({ type: "danger", message: r.message }, r.status === "card_error" ? TIMING.paymentCardError : TIMING.paymentServerError);
  });

  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Your card will be charged {price}</h1>
      {firstName === null ? (
        <NotLoggedIn />
      ) : (
        <>
          <p className="mt-4 text-lg">
            Hello, {firstName}! One ticket gives you {days} days of full access to the museum.
          </p>
          {done ? null : testMode ? (
            <fetcher.Form method="post" className="mt-6 space-y-4 rounded-lg border-2 border-dashed border-gold-dark bg-white p-5" data-testid="test-card-form">
              <p className="font-semibold text-gold-deep">Test mode: no card is charged</p>
              <input type="hidden" name="attemptId" value={attemptId} />
              <TextField label="Card number" name="cardNumber" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required />
              <div className="grid grid-cols-3 gap-3">
                <TextField label="Expiration date" name="expiry" placeholder="MM/YY" autoComplete="cc-exp" required />
                <TextField label="CVC" name="cvc" inputMode="numeric" autoComplete="cc-csc" required />
                <TextField label="ZIP code" name="zip" inputMode="numeric" autoComplete="postal-code" required />
              </div>
              <SubmitButton busy={fetcher.state !== "idle"}>Authorize Payment</SubmitButton>
            </fetcher.Form>
          ) : (
            <StripeCardForm publishableKey={publishableKey ?? ""} attemptId={attemptId} fetcher={fetcher} />
          )}
        </>
      )}
    </section>
  );
}

export function meta() {
  return [...pageMeta("Payment", "Pay for your museum ticket."), { name: "robots", content: "noindex" }];
}
