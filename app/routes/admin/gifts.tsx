/**
 * /admin/gifts (admins only: buyers' and recipients' names and emails are personal data): every
 * paid or pending gift ticket, newest first, with its state (scheduled, sent, redeemed, expired,
 * revoked, refunded), filtered by status and paged. Refund (password asked again after 10
 * minutes): an unredeemed gift is revoked and its link stops working; a redeemed one takes back
 * the days it gave. Audited.
 */
import { Form, useActionData } from "react-router";
import type { Route } from "./+types/gifts";
import { ConsoleHeading, ConsoleNotice, Pager, RefundForm, REFUND_RESUME_NOTICE } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { formatPrice } from "~/shared/money";
import { uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, requireRecentPassword, refundReturnTo, resumedRefund, unconfirmedRefund } from "./guard.server";
import { pageParam, searchOf } from "./list-query";

const STATUSES = ["unpaid", "paid", "redeemed", "refunded"] as const;
const STATE_WORDS = { unpaid: "not paid (abandoned)", scheduled: "paid, to be sent", sent: "sent", redeemed: "redeemed", expired: "expired", revoked: "revoked (refunded)", refunded: "refunded after redemption" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "gifts");
  const url = new URL(request.url);
  const status = STATUSES.find((s) => s === url.searchParams.get("status"));
  const page = pageParam(url);
  const { rows, total } = await context.services.gifts.list({ status, page, pageSize: 50 });
  const clock = museumClock(context);
  const stamp = (d: Date | null) => (d ? clock.minute(d) : null);
  return {
    rows: rows.map((g) => ({
      id: g.id,
      buyer: `${g.buyerFirstName} ${g.buyerLastName} <${g.buyerEmail}>`,
      recipient: `${g.recipientFirstName} ${g.recipientLastName} <${g.recipientEmail}>`,
      deliverOn: g.deliverOn,
      amount: formatPrice(g.amountCents),
      state: STATE_WORDS[g.state],
      refundable: g.status === "paid" || g.status === "redeemed",
      paidAt: stamp(g.paidAt),
      redeemedAt: stamp(g.redeemedAt),
    })),
    total,
    page,
    status: status ?? "",
    search: searchOf(url),
    resume: rows.some((g) => g.id === resumedRefund(url) && (g.status === "paid" || g.status === "redeemed")) ? resumedRefund(url) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "gifts");
  const limited = rateLimitedAnswer(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  if (formText(form, "intent") !== "refund") return consoleAnswer({ ok: false, message: "Unknown action." });
  const gift = uuidSchema.safeParse(formText(form, "giftId"));
  if (!gift.success) return consoleAnswer({ ok: false, message: "No such gift." });
  const unconfirmed = unconfirmedRefund(form);
  if (unconfirmed) return unconfirmed;
  await requireRecentPassword(context, request, refundReturnTo("/admin/gifts", gift.data));
  try {
    return consoleAnswer(await context.services.gifts.refund(actorOf(staff), gift.data));
  } catch (error) {
    context.logger.error({ err: error }, "gift refund failed");
    return consoleAnswer({ ok: false, message: "The payment provider did not accept the refund; nothing was changed. Please try again or refund it in Stripe's dashboard." }, 502);
  }
}

export default function Gifts({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const { rows, total, page, status, search, resume } = loaderData;
  return (
    <section>
      <ConsoleHeading>Gift tickets</ConsoleHeading>
      <ConsoleNotice result={result ?? (resume ? { ok: true, message: REFUND_RESUME_NOTICE } : null)} />
      <Form method="get" className="mb-4 flex items-end gap-3">
        <div>
          <label htmlFor="status" className="block font-semibold">
            Status
          </label>
          <select id="status" name="status" defaultValue={status} className="rounded border border-stone-500 px-2 py-1">
            <option value="">All</option>
            <option value="paid">Paid, not redeemed</option>
            <option value="redeemed">Redeemed</option>
            <option value="refunded">Refunded</option>
            <option value="unpaid">Not paid</option>
          </select>
        </div>
        <button type="submit" className="rounded bg-ink px-4 py-1.5 font-semibold text-gold">
          Show
        </button>
      </Form>
      {rows.length === 0 ? <p>No gift tickets.</p> : null}
      <ul className="space-y-2">
        {rows.map((g) => (
          <li key={g.id} className="flex flex-wrap items-center gap-3 rounded border border-stone-300 p-3" data-testid="gift">
            <span>
              From {g.buyer} to {g.recipient} · sent on {g.deliverOn} · {g.amount} · <strong data-testid="gift-state">{g.state}</strong>
              {g.paidAt ? ` · paid ${g.paidAt}` : ""}
              {g.redeemedAt ? ` · redeemed ${g.redeemedAt}` : ""}
            </span>
            {g.refundable ? (
              <RefundForm field="giftId" id={g.id} what={`the gift to ${g.recipient}`} resumed={!result && resume === g.id} />
            ) : null}
          </li>
        ))}
      </ul>
      <Pager page={page} pageSize={50} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Gift tickets | Staff console" }];
}
