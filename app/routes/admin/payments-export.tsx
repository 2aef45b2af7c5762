/**
 * GET /admin/payments/export?period=&from=&to=&kind=&status=&q=: the payments list's filtered
 * rows as CSV (decision 062), in the columns of Stripe's payments export (id, Created date
 * (UTC), Amount, Amount Refunded, Currency, Status, Description, Customer Email, Card Last4...)
 * followed by the museum's own as Stripe names metadata ("kind (metadata)"). Streamed, cells
 * neutralized against spreadsheet formulas (server/admin/csv.ts). Personal data: admins only,
 * password asked again after 10 minutes, the export audited.
 */
import type { Route } from "./+types/payments-export";
import { formatAmount } from "~/shared/money";
import { SITE_SHORT_NAME } from "~/shared/site";
import { actorOf, consoleAnswer, museumClock, requireConsole, requireRecentPassword } from "./guard.server";
import { paymentsFilter } from "./payments-filter";

const PAYMENTS_CSV_HEADER = [
  "id",
  "Created date (UTC)",
  "Amount",
  "Amount Refunded",
  "Currency",
  "Captured",
  "Status",
  "Description",
  "Refunded date (UTC)",
  "Card Brand",
  "Card Last4",
  "Customer Email",
  "kind (metadata)",
  "customer_name (metadata)",
  "gift_state (metadata)",
  "museum_id (metadata)",
] as const;

/** "2026-11-29 07:09:13": Stripe's exports write instants in UTC this way. */
const utc = (at: Date | null) => (at ? at.toISOString().slice(0, 19).replace("T", " ") : "");
/** "6.99": amounts in the currency's units, as Stripe's exports write them. */
const units = (cents: number) => (cents / 100).toFixed(2);
const capitalized = (s: string | null) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : "");

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "members");
  const url = new URL(request.url);
  const { payments, exports } = context.services.admin;
  const { filter, error } = paymentsFilter(url, payments.today());
  if (error) return consoleAnswer({ ok: false, message: error });
  await requireRecentPassword(context, request, url.pathname + url.search);
  const what = [`${filter.from} to ${filter.to}`, filter.kind ?? "", filter.status ?? "", filter.q ? `search "${filter.q}"` : ""].filter(Boolean).join(", ");
  await exports.record(actorOf(staff), "payment", `Exported payments (${what})`);
  const clock = museumClock(context);
  return exports.csv(`payments-${clock.day(new Date())}.csv`, PAYMENTS_CSV_HEADER, payments.batches(filter), (r) => [
    r.providerPaymentId,
    utc(r.paidAt),
    units(r.amountCents),
    units(r.status === "refunded" ? r.amountCents : 0),
    r.currency.toLowerCase(),
    "true",
    // Stripe's word for a payment taken and kept is "Paid", whether or not it bought anything here.
    r.status === "refunded" ? "Refunded" : "Paid",
    r.incident ? `${SITE_SHORT_NAME} payment that bought nothing (${r.incident.replace(/_/g, " ")})` : r.kind === "gift" ? `${SITE_SHORT_NAME} gift ticket for ${r.recipient ?? "a recipient"}, ${formatAmount(r.amountCents, r.currency)}` : `${SITE_SHORT_NAME} ${r.kind === "renewal" ? "ticket renewal" : "ticket"}, ${r.daysGranted} days`,
    utc(r.refundedAt),
    capitalized(r.cardBrand),
    r.cardLast4 ?? "",
    r.receiptEmail ?? r.email ?? "",
    r.kind,
    r.name ?? "",
    r.giftState ?? "",
    r.id,
  ]);
}
