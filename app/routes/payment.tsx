/**
 * Payment (spec sections 2, 4): the price from config, a greeting by first name, the card form
 * and 'Authorize Payment'. Without a signed-in account: the spec's message and /login after 5 s.
 * Success: the server's message, / after 3.5 s. Errors: the card's message for 3.5 s, a server
 * error's for 5 s. Test mode (no Stripe keys) takes Stripe's test card numbers; with keys, the
 * card is entered in Stripe Elements and never reaches this server.
 */
import { randomUUID } from "node:crypto";
import { useRef, useState, type FormEvent } from "react";
import { data, useFetcher } from "react-router";
import type { Route } from "./+types/payment";
import { useAlert } from "~/components/AlertBanner";
import { SubmitButton, TextField } from "~/components/FormFields";
import { constraintErrors, useFormErrors, type FieldErrors } from "~/lib/use-form-errors";
import { useHydrated } from "~/lib/use-hydrated";
import { orNoAnswer } from "~/lib/no-answer";
import { StripeCardForm } from "~/components/StripeCardForm";
import { pageMeta } from "~/lib/meta";
import { PAGE_MESSAGES, SERVER_MESSAGES } from "~/shared/messages";
import { formatPrice } from "~/shared/money";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { useRedirectAfter, useSettledNavigate } from "~/lib/use-redirect-after";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { answerPayment, paymentMethodFromForm, testChallengeFromForm } from "~/lib/card-payment.server";
import { TestChallenge } from "~/components/TestChallenge";
import { longDate } from "~/shared/ticket-words";
import type { PaymentOutcome } from "../../server/payments/payment-service.server";
import type { PaymentPageResult, PaymentResult } from "~/shared/payment-results";

export async function loader({ context }: Route.LoaderArgs) {
  const v = context.viewer;
  const provider = context.services.payments.provider;
  return {
    firstName: v?.firstName ?? null,
    validThrough: v?.validThrough ?? null,
    /** What this payment would make the ticket's last day: a renewal extends from the current end. */
    newValidThrough: v ? longDate(context.services.membership.validThroughAfterPurchase(v.validThrough)) : null,
    currentValidThrough: v?.member && v.validThrough ? longDate(v.validThrough) : null,
    price: formatPrice(context.settings.ticketPriceCents),
    days: context.settings.ticketDays,
    /** One key per visit to this page: a double click or a retry is the same payment. */
    attemptId: randomUUID(),
    testMode: provider.kind === "test",
    publishableKey: provider.publishableKey,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<PaymentResult>(context, (message) => ({ status: "server_error", message }));
  if (limited) return limited;
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
  if (str("intent") === "authenticate") {
    const challenge = testChallengeFromForm(str, payments.provider);
    if ("refused" in challenge) return challenge.refused;
    return answer(await payments.answerChallenge({ userId: viewer.userId, receiptEmail: viewer.emailAddress, ...challenge }));
  }

  const card = paymentMethodFromForm(str, payments.provider);
  if ("refused" in card) return card.refused;
  const paymentMethodId = card.paymentMethodId;
  const outcome = await payments.pay({
    userId: viewer.userId,
    paymentMethodId,
    receiptEmail: viewer.emailAddress,
    idempotencyKey: `${viewer.userId}:${attemptId}`,
  });
  return answer(outcome);
}

function answer(outcome: PaymentOutcome) {
  return answerPayment(outcome, (message) => data<PaymentResult>({ status: "succeeded", message }));
}

/**
 * In the browser the card form posts through here. When no answer comes back (a dropped
 * connection, or a failure before the action could answer) the page says so and keeps the form
 * instead of showing the error page. The 503 keeps React Router from reloading the page's data,
 * and the page keeps its attempt id, so pressing Authorize Payment again is the same payment.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): PaymentPageResult => ({ status: "no_answer", message }), PAGE_MESSAGES.paymentNoAnswer);
}

/** A fresh attempt id (UUID v4), also where crypto.randomUUID is missing (plain http). */
function newAttemptId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The test-mode field a card message is about. */
function cardField(message: string): string {
  if (/expir/i.test(message) && !/card has expired/i.test(message)) return "expiry";
  if (/security code|cvc/i.test(message)) return "cvc";
  if (/postal|zip/i.test(message)) return "zip";
  return "cardNumber";
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
  const { firstName, price, days, testMode, publishableKey } = loaderData;
  const fetcher = useFetcher<PaymentPageResult>();
  const navigate = useSettledNavigate();
  const { show, clear } = useAlert();
  // The ticket's new last day once paid: what the page said this payment would make it (the
  // loader's reload after the payment would already count from the new end).
  const [paidThrough, setPaidThrough] = useState<string | null>(null);
  const done = paidThrough !== null;
  // One id per payment, kept by the page (not re-read from the loader): every retry of the
  // same payment (a double click, no answer) sends it again, so it is charged at most once.
  const [attemptId, setAttemptId] = useState<string>(loaderData.attemptId);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors();
  // Test mode: the payment waiting for its 3-D Secure challenge (Stripe shows its own with keys).
  const [challenge, setChallenge] = useState<string | null>(null);

  useOnNewResult(fetcher.data, (r) => {
    setChallenge(testMode && r.status === "requires_action" ? r.paymentIntentId : null);
    if (r.status === "requires_action") return;
    if (r.status === "succeeded") {
      setPaidThrough(loaderData.newValidThrough ?? "");
      show({ type: "success", message: r.message });
      const id = setTimeout(() => navigate("/"), TIMING.paymentRedirect);
      return () => clearTimeout(id);
    }
    if (r.status === "no_answer") return show({ type: "danger", message: r.message });
    if (r.status === "card_error") {
      // The card was refused, nothing was charged: the next try (maybe another card) is a new payment.
      setAttemptId(newAttemptId());
      // After a failed challenge the form shows again now, so its field can take the focus.
      if (formRef.current) formRef.current.hidden = false;
      const field: FieldErrors = testMode ? { [cardField(r.message)]: r.message } : { card: r.message };
      report(formRef.current, field, { alertMs: TIMING.paymentCardError });
      return;
    }
    show({ type: "danger", message: r.message }, TIMING.paymentServerError);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (report(event.currentTarget, constraintErrors(event.currentTarget))) return event.preventDefault();
    clear();
  }
  /** A required card field: the page's own message when empty, marked until it is changed. */
  const field = (name: string, emptyMessage: string) => ({
    name,
    required: true,
    error: errors[name],
    onInvalid: (e: FormEvent<HTMLInputElement>) => e.currentTarget.setCustomValidity(e.currentTarget.value === "" ? emptyMessage : ""),
    onInput: (e: FormEvent<HTMLInputElement>) => {
      e.currentTarget.setCustomValidity("");
      fix(name);
    },
  });

  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">{done ? `Your card was charged ${price}` : `Your card will be charged ${price}`}</h1>
      {firstName === null ? (
        <NotLoggedIn />
      ) : done ? (
        // Paid: nothing on the page may read like a charge still to come.
        <p className="mt-4 text-lg" data-testid="paid-through">
          {paidThrough ? `Thank you, ${firstName}! Your ticket is valid through ${paidThrough}.` : `Thank you, ${firstName}!`}
        </p>
      ) : (
        <>
          <p className="mt-4 text-lg">
            Hello, {firstName}! One ticket gives you {days} days of full access to the museum.
          </p>
          {loaderData.newValidThrough ? (
            <p className="mt-2" data-testid="new-valid-through">
              {loaderData.currentValidThrough
                ? `Your ticket is valid through ${loaderData.currentValidThrough}; this one adds ${days} days after that, so it will be valid through ${loaderData.newValidThrough}.`
                : `Your ticket will be valid through ${loaderData.newValidThrough}.`}
            </p>
          ) : null}
          {testMode && challenge ? <TestChallenge Form={fetcher.Form} paymentIntentId={challenge} attemptId={attemptId} busy={fetcher.state !== "idle"} /> : null}
          {testMode ? (
            // Hidden, not gone, during the challenge: a failed one brings it back as it was typed.
            <fetcher.Form
              ref={formRef}
              method="post"
              noValidate={hydrated}
              onSubmit={onSubmit}
              hidden={challenge !== null}
              className="mt-6 space-y-4 rounded-lg border-2 border-dashed border-gold-dark bg-white p-5"
              data-testid="test-card-form"
            >
              <p className="font-semibold text-gold-deep">Test mode: no card is charged</p>
              <input type="hidden" name="attemptId" value={attemptId} />
              <TextField label="Card number" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" {...field("cardNumber", PAGE_MESSAGES.cardNumberRequired)} />
              {/* One row on every screen: the wider first column keeps 'Expiration date' on one line. */}
              <div className="grid grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)_minmax(0,1fr)] items-start gap-3">
                <TextField label="Expiration date" labelClassName="whitespace-nowrap text-sm sm:text-base" placeholder="MM/YY" autoComplete="cc-exp" {...field("expiry", PAGE_MESSAGES.cardExpiryRequired)} />
                <TextField label="CVC" labelClassName="whitespace-nowrap text-sm sm:text-base" inputMode="numeric" autoComplete="cc-csc" {...field("cvc", PAGE_MESSAGES.cardCvcRequired)} />
                <TextField label="ZIP code" labelClassName="whitespace-nowrap text-sm sm:text-base" inputMode="numeric" autoComplete="postal-code" {...field("zip", PAGE_MESSAGES.cardZipRequired)} />
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
