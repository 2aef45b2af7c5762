/**
 * Test mode's 3-D Secure challenge (decision 059), in place of the card form while a test card's
 * payment waits for it, as Stripe's test mode shows its "Complete / Fail" page: the person
 * completes or fails the authentication. The choice posts `intent=authenticate` to the page's
 * action, through `Form` (a fetcher's, or the router's: it also works without JavaScript).
 * Leaving the page without choosing pays nothing.
 */
import { useEffect, useRef, type ComponentType, type ReactNode } from "react";

export function TestChallenge({
  Form,
  paymentIntentId,
  attemptId,
  busy,
}: {
  Form: ComponentType<{ method: "post"; className?: string; children: ReactNode }>;
  paymentIntentId: string;
  attemptId: string;
  busy: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Said and focused when it appears: the card form the person just sent is out of sight.
  useEffect(() => {
    heading.current?.focus();
  }, [paymentIntentId]);
  const button = "rounded px-6 py-3 font-semibold uppercase tracking-wide disabled:opacity-60";
  return (
    <section aria-labelledby="test-challenge-title" className="mt-6 space-y-4 rounded-lg border-2 border-dashed border-gold-dark bg-white p-5" data-testid="test-challenge">
      <p className="font-semibold text-gold-deep">Test mode: no card is charged</p>
      <h2 id="test-challenge-title" ref={heading} tabIndex={-1} className="font-display text-2xl font-bold uppercase tracking-wide">
        3-D Secure test
      </h2>
      <p>This test card asks for 3-D Secure, the check a bank makes that it is really you. With a real card your bank would ask now. Here you choose what the bank answers.</p>
      <Form method="post" className="flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="authenticate" />
        <input type="hidden" name="attemptId" value={attemptId} />
        <input type="hidden" name="paymentIntentId" value={paymentIntentId} />
        <button type="submit" name="choice" value="complete" disabled={busy} className={`${button} bg-ink text-gold hover:bg-steel`}>
          Complete authentication
        </button>
        <button type="submit" name="choice" value="fail" disabled={busy} className={`${button} border-2 border-ink bg-white text-ink hover:bg-gray-100`}>
          Fail authentication
        </button>
      </Form>
    </section>
  );
}
