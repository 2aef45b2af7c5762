/**
 * The card form when Stripe is configured: Stripe.js (loaded from Stripe's host) mounts a card
 * Element, creates a PaymentMethod, and the page action charges it; a PaymentIntent that answers
 * `requires_action` goes through stripe.handleNextAction with its client secret (Stripe's
 * 3-D Secure step), then the action confirms the payment by reading it back (decision 059).
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { FetcherWithComponents } from "react-router";
import type { PaymentPageResult } from "~/shared/payment-results";
import { SubmitButton } from "./FormFields";
import { useNonce } from "./nonce";

interface StripeCardElement {
  mount(el: HTMLElement): void;
  destroy(): void;
}
interface StripeJs {
  elements(): { create(kind: "card", options?: object): StripeCardElement };
  createPaymentMethod(o: { type: "card"; card: StripeCardElement }): Promise<{ paymentMethod?: { id: string }; error?: { message?: string } }>;
  handleNextAction(o: { clientSecret: string }): Promise<{ error?: { message?: string } }>;
}
declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs;
  }
}

const STRIPE_JS = "https://js.stripe.com/v3/";

function loadStripe(nonce: string): Promise<void> {
  if (window.Stripe) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = STRIPE_JS;
    s.nonce = nonce;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error("Stripe.js could not be loaded"));
    document.head.appendChild(s);
  });
}

export function StripeCardForm({
  publishableKey,
  attemptId,
  fetcher,
}: {
  publishableKey: string;
  attemptId: string;
  fetcher: FetcherWithComponents<PaymentPageResult>;
}) {
  const nonce = useNonce();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ js: StripeJs; card: StripeCardElement } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let card: StripeCardElement | undefined;
    loadStripe(nonce)
      .then(() => {
        const js = window.Stripe!(publishableKey);
        card = js.elements().create("card", { hidePostalCode: false });
        if (mountRef.current) card.mount(mountRef.current);
        stripe.current = { js, card };
      })
      .catch((e: Error) => setError(e.message));
    return () => card?.destroy();
  }, [publishableKey, nonce]);

  // Each answer asking for 3-D Secure is handled once: the fetcher keeps that answer while the
  // confirmation below is on its way, and the bank's step must not open a second time.
  const handled = useRef<PaymentPageResult | null>(null);
  const { data: answer, submit } = fetcher;
  useEffect(() => {
    const r = answer;
    if (r?.status !== "requires_action" || !stripe.current || handled.current === r) return;
    handled.current = r;
    stripe.current.js
      .handleNextAction({ clientSecret: r.clientSecret })
      // Completed, failed or closed: the server reads the PaymentIntent back and answers with
      // its outcome (a failed step is a card error with Stripe's own message, and the page's
      // next try is a new payment).
      .then(() => submit({ intent: "confirm", attemptId, paymentIntentId: r.paymentIntentId }, { method: "post" }))
      .catch((e: Error) => setError(e.message));
  }, [answer, submit, attemptId]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe.current) return;
    const { paymentMethod, error: e } = await stripe.current.js.createPaymentMethod({ type: "card", card: stripe.current.card });
    if (e || !paymentMethod) return setError(e?.message ?? "Please check your card details.");
    setError(null);
    fetcher.submit({ attemptId, paymentMethodId: paymentMethod.id }, { method: "post" });
  }

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-4 rounded-lg bg-white p-5 shadow">
      <label className="block font-semibold">Card details</label>
      <div ref={mountRef} className="rounded border border-gray-400 px-3 py-3" />
      {error ? (
        <p role="alert" className="text-red-800">
          {error}
        </p>
      ) : null}
      <SubmitButton busy={fetcher.state !== "idle"}>Authorize Payment</SubmitButton>
    </form>
  );
}
