/**
 * /admin/payments (admins only, as the Overview's payments line: emails and names are personal
 * data; decision 062): every ticket payment (first ticket or renewal) and paid gift ticket with
 * its refund, newest activity first, paged; filtered by period, kind, status and a search by
 * email or payment id; the period's totals (payments, refunds, net); the filtered rows as CSV in
 * Stripe's payments export's columns. A payment that bought nothing shows as "Bought nothing"
 * with its reason, to be refunded from the provider's dashboard. On a phone each row is a card
 * (AdminTable).
 */
import { data, Link } from "react-router";
import type { Route } from "./+types/payments";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ChoiceSelect } from "~/components/admin/ChoiceSelect";
import { ConsoleHeading, KeepSort, Pager } from "~/components/admin/ConsoleUi";
import { formatPrice } from "~/shared/money";
import { longDate } from "~/shared/ticket-words";
import { museumClock, requireConsole } from "./guard.server";
import { listPage } from "./list-query";
import { PERIODS, paymentsFilter, paymentsFilterSearch } from "./payments-filter";

const KIND_WORDS = { ticket: "Ticket", renewal: "Renewal", gift: "Gift ticket" } as const;
const STATUS_WORDS = { paid: "Paid", refunded: "Refunded", unmatched: "Bought nothing" } as const;
/** Why a payment bought nothing, and what to do: it is refunded where it was paid. */
const INCIDENT_WORDS = {
  amount_mismatch: "the amount or currency is not the ticket's price; refund it from the payment provider's dashboard",
  unknown_account: "no account has this payment's account id; refund it from the payment provider's dashboard",
  unknown_gift: "the gift ticket it paid for was no longer there; refund it from the payment provider's dashboard",
} as const;
const GIFT_STATE_WORDS = { unpaid: "not paid", scheduled: "to be sent", sent: "sent, not redeemed", redeemed: "redeemed", expired: "not redeemed in time", revoked: "revoked", refunded: "refunded after redemption" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "members");
  const service = context.services.admin.payments;
  const url = new URL(request.url);
  const { period, filter, error, typed } = paymentsFilter(url, service.today());
  const form = { period, from: error ? typed.from : filter.from, to: error ? typed.to : filter.to, kind: filter.kind ?? "", status: filter.status ?? "", q: filter.q ?? "" };
  if (error) return data({ error, form, rows: [], total: 0, totals: null, page: 1, pageSize: 50, search: "", exportHref: "", range: "" }, { status: 400 });
  const clock = museumClock(context);
  const [list, totals] = await Promise.all([listPage(request, ["date"] as const, "date", (query) => service.list({ ...filter, page: query.page, pageSize: query.pageSize })), service.totals(filter)]);
  return {
    error: null,
    form,
    rows: list.rows.map((r) => ({
      id: `${r.source}-${r.id}`,
      paidAt: clock.minute(r.paidAt),
      refundedAt: r.refundedAt ? clock.minute(r.refundedAt) : null,
      kind: KIND_WORDS[r.kind],
      // An unmatched payment may be in another currency: its amount and code, without the dollar sign.
      amount: r.currency.toLowerCase() === "usd" ? formatPrice(r.amountCents) : `${(r.amountCents / 100).toFixed(2)} ${r.currency.toUpperCase()}`,
      status: STATUS_WORDS[r.status],
      giftState: r.giftState ? GIFT_STATE_WORDS[r.giftState] : r.incident && r.status === "unmatched" ? INCIDENT_WORDS[r.incident] : null,
      who: r.email ? `${r.name ?? ""} <${r.email}>`.trim() : r.receiptEmail ?? (r.source === "incident" ? "no account" : "a deleted account"),
      memberHref: r.source !== "gift" && r.userId ? `/admin/members/${r.userId}` : null,
      recipient: r.recipient,
      card: r.cardLast4 ? `${r.cardBrand ?? "card"} •••• ${r.cardLast4}` : "—",
      providerPaymentId: r.providerPaymentId,
    })),
    total: list.total,
    totals: { payments: { count: totals.payments.count, money: formatPrice(totals.payments.cents) }, refunds: { count: totals.refunds.count, money: formatPrice(totals.refunds.cents) }, net: formatPrice(totals.netCents) },
    page: list.query.page,
    pageSize: list.query.pageSize,
    search: list.search,
    exportHref: `/admin/payments/export?${paymentsFilterSearch({ period, ...filter })}`,
    range: `${longDate(filter.from)} – ${longDate(filter.to)}`,
  };
}

type Row = Exclude<Route.ComponentProps["loaderData"]["rows"], never[]>[number];
const col = adminColumns<Row>();
const link = "font-semibold text-blue-800 underline";
const columns = [
  col.display({ id: "date", header: "Date", cell: ({ row }) => (
    <>
      {row.original.paidAt}
      {row.original.refundedAt ? <span className="block text-stone-700">refunded {row.original.refundedAt}</span> : null}
    </>
  ) }),
  col.accessor("kind", { header: "Kind" }),
  col.accessor("amount", { header: "Amount" }),
  col.display({ id: "status", header: "Status", cell: ({ row }) => (
    <>
      <strong>{row.original.status}</strong>
      {row.original.giftState ? ` · ${row.original.giftState}` : ""}
    </>
  ) }),
  col.display({ id: "who", header: "Customer", cell: ({ row }) => {
    const r = row.original;
    const who = r.memberHref ? <Link to={r.memberHref} className={link}>{r.who}</Link> : r.who;
    return (
      <span className="break-words">
        {r.recipient ? <>From {who} to {r.recipient} (<Link to="/admin/gifts" className={link}>gift tickets</Link>)</> : who}
      </span>
    );
  } }),
  col.accessor("card", { header: "Card" }),
  col.display({ id: "providerPaymentId", header: "Payment id", cell: ({ row }) => <code className="break-all">{row.original.providerPaymentId}</code> }),
];

const field = "rounded border border-stone-500 px-2 py-1";
const PERIOD_CHOICES = PERIODS.map((p) => ({ id: p.value, name: p.label }));
const KIND_CHOICES = (["ticket", "renewal", "gift"] as const).map((id) => ({ id, name: KIND_WORDS[id] }));
const STATUS_CHOICES = (["paid", "refunded", "unmatched"] as const).map((id) => ({ id, name: STATUS_WORDS[id] }));

/** A day of the custom period: choosing one switches the period to "Custom dates" (without JavaScript, choose it by hand). */
function DateField({ name, label, value }: { name: string; label: string; value: string }) {
  const custom = (event: React.ChangeEvent<HTMLInputElement>) => {
    const period = event.currentTarget.form?.elements.namedItem("period");
    if (period instanceof HTMLSelectElement) period.value = "custom";
  };
  return (
    <div>
      <label htmlFor={name} className="block font-semibold">
        {label}
      </label>
      <input id={name} name={name} type="date" defaultValue={value} onChange={custom} className={field} />
    </div>
  );
}

export default function Payments({ loaderData }: Route.ComponentProps) {
  const { error, form, rows, total, totals, page, pageSize, search, exportHref, range } = loaderData;
  return (
    <section>
      <ConsoleHeading
        actions={
          exportHref ? (
            <a href={exportHref} className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel" download>
              Export these payments (CSV)
            </a>
          ) : null
        }
      >
        Payments
      </ConsoleHeading>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm" role="search" aria-label="Filter payments">
        <KeepSort />
        <ChoiceSelect id="period" name="period" label="Period" options={PERIOD_CHOICES} defaultValue={form.period} />
        <DateField name="from" label="From" value={form.from} />
        <DateField name="to" label="To" value={form.to} />
        <ChoiceSelect id="kind" name="kind" label="Kind" empty="All" options={KIND_CHOICES} defaultValue={form.kind} />
        <ChoiceSelect id="status" name="status" label="Status" empty="All" options={STATUS_CHOICES} defaultValue={form.status} />
        <div className="min-w-0">
          <label htmlFor="q" className="block font-semibold">
            Email (beginning) or payment id
          </label>
          <input id="q" name="q" type="search" defaultValue={form.q} className={`${field} max-w-full`} />
        </div>
        <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
          Show
        </button>
      </form>
      {error ? (
        <p role="alert" className="mb-4 rounded border border-red-700 bg-red-50 p-3 font-semibold text-red-800" data-testid="payments-error">
          {error}
        </p>
      ) : null}
      {totals ? (
        <>
          <h2 className="mb-2 text-lg font-bold">{range}</h2>
          <dl className="mb-4 grid grid-cols-1 gap-2 text-sm sm:grid-cols-3" data-testid="payments-totals">
            {[
              { id: "payments", label: "Payments", value: `${totals.payments.count} · ${totals.payments.money}` },
              { id: "refunds", label: "Refunds", value: `${totals.refunds.count} · ${totals.refunds.money}` },
              { id: "net", label: "Net (payments less refunds)", value: totals.net },
            ].map((t) => (
              <div key={t.id} className="rounded border border-stone-300 p-3">
                <dt className="font-semibold">{t.label}</dt>
                <dd data-testid={`totals-${t.id}`}>{t.value}</dd>
              </div>
            ))}
          </dl>
          <AdminTable caption="Payments" columns={columns} rows={rows} rowKey={(r) => r.id} />
          <Pager page={page} pageSize={pageSize} total={total} search={search} />
        </>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Payments | Staff console" }];
}
