/**
 * One payment's receipt, printable: the museum's name, amount, card brand and last 4,
 * date and the ticket period it granted. Only the account's own payments; anything else is 404.
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/account-receipt";
import { longDate, longDateOfInstant, periodGranted } from "~/shared/ticket-words";
import { calendarDateIn } from "~/shared/calendar";
import { requireAccount } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { SITE_NAME } from "~/shared/site";
import { formatAmount } from "~/shared/money";

export async function loader({ context, params }: Route.LoaderArgs) {
  const viewer = requireAccount(context, `/login?redirectTo=${encodeURIComponent(`/account/receipts/${params.paymentId}`)}`);
  const r = await context.services.accountData.receipt(viewer.userId, params.paymentId);
  if (!r) throw data(null, { status: 404 });
  const timeZone = context.services.config.MUSEUM_TIME_ZONE;
  const period = periodGranted(r.validThroughAfter, r.daysGranted, calendarDateIn(timeZone, new Date(r.paidAt)));
  const brand = r.cardBrand ? r.cardBrand.charAt(0).toUpperCase() + r.cardBrand.slice(1) : "Card";
  return {
    museum: SITE_NAME,
    name: r.name,
    date: longDateOfInstant(r.paidAt, timeZone),
    amount: formatAmount(r.amountCents, r.currency),
    card: r.cardLast4 ? `${brand} ending in ${r.cardLast4}` : null,
    days: r.daysGranted,
    periodFrom: longDate(period.from),
    periodTo: longDate(period.to),
    reference: r.reference,
    refunded: r.refundedAt ? longDateOfInstant(r.refundedAt, timeZone) : null,
  };
}

export function meta() {
  return [...pageMeta("Receipt", "A receipt for a museum ticket."), { name: "robots", content: "noindex" }];
}

export default function Receipt({ loaderData: r }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      <p className="print:hidden">
        <Link to="/account" className="font-semibold text-steel underline hover:text-ink">
          Back to your account
        </Link>
      </p>
      <article className="mt-4 rounded border border-stone-300 bg-white p-6" data-testid="receipt">
        <h1 className="font-display text-2xl font-bold uppercase tracking-wide">Receipt</h1>
        <p className="mt-1 font-semibold">{r.museum}</p>
        <dl className="mt-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="font-semibold">Date</dt>
          <dd>{r.date}</dd>
          <dt className="font-semibold">Account</dt>
          <dd>{r.name}</dd>
          <dt className="font-semibold">Item</dt>
          <dd>Museum ticket ({r.days} days)</dd>
          <dt className="font-semibold">Amount</dt>
          <dd data-testid="receipt-amount">{r.amount}</dd>
          {r.card ? (
            <>
              <dt className="font-semibold">Paid with</dt>
              <dd data-testid="receipt-card">{r.card}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Ticket period</dt>
          <dd data-testid="receipt-period">
            {r.periodFrom} to {r.periodTo}
          </dd>
          <dt className="font-semibold">Reference</dt>
          <dd className="break-all">{r.reference}</dd>
          {r.refunded ? (
            <>
              <dt className="font-semibold">Refunded</dt>
              <dd>{r.refunded}</dd>
            </>
          ) : null}
        </dl>
      </article>
      <p className="mt-6 print:hidden">
        <button
          type="button"
          onClick={() => window.print()}
          className="rounded bg-ink px-6 py-3 font-semibold uppercase tracking-wide text-gold hover:bg-steel"
        >
          Print this receipt
        </button>
      </p>
    </section>
  );
}
