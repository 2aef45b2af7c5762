/** The 404 page (spec section 2): the refs stole the page; home after 5 seconds. */
import { Link } from "react-router";
import { MESSAGES } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { useRedirectAfter } from "~/lib/use-redirect-after";

export function NotFoundPage() {
  useRedirectAfter("/", TIMING.notFoundRedirect);
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="font-display text-4xl font-bold uppercase text-ink">{MESSAGES.notFoundHeadline}</h1>
      <p className="mt-6 font-display text-6xl font-bold text-gold-deep" data-testid="not-found-code">
        {MESSAGES.notFoundCode}
      </p>
      <p className="mt-6 text-gray-700">
        We&apos;ll take you back to the <Link to="/" className="underline">home page</Link> in{" "}
        {TIMING.notFoundRedirect / 1000} seconds.
      </p>
    </section>
  );
}
