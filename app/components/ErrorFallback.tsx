/** The route error fallback (spec section 2): apology, Contact Us, home after 7 seconds. */
import { Link } from "react-router";
import { MESSAGES } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { useRedirectAfter } from "~/lib/use-redirect-after";

export function ErrorFallback() {
  useRedirectAfter("/", TIMING.errorPageRedirect);
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="font-display text-4xl font-bold uppercase text-ink">{MESSAGES.errorHeadline}</h1>
      <p className="mt-6 text-lg text-gray-800">{MESSAGES.errorApology}</p>
      <p className="mt-6">
        <Link to="/contact" className="rounded bg-ink px-5 py-3 font-semibold uppercase text-gold hover:bg-steel">
          Contact Us
        </Link>
      </p>
    </section>
  );
}
