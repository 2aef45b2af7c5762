/**
 * /admin/members/:id (admins only): a member's account, ticket and payments; send a password
 * reset link; grant a complimentary ticket with a reason; refund a payment (password asked
 * again after 10 minutes), which takes back exactly the days it gave.
 */
import { data, Form, Link, useActionData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/member";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, PrimaryButton, RefundForm, REFUND_RESUME_NOTICE } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, requireRecentPassword, unconfirmedRefund, refundReturnTo, resumedRefund, type ConsoleResult } from "./guard.server";
import { fieldErrors } from "~/shared/form-errors";
import { formatAmount } from "~/shared/money";

const complimentarySchema = z.object({
  days: z.coerce.number({ message: "Days must be a number" }).int("Days must be a whole number").min(1, "At least 1 day").max(3650, "At most 3650 days"),
  reason: z.string().trim().min(1, "Please give the reason").max(500, "At most 500 characters").refine((v) => [...v].every((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127), "The reason must be one line of text"),
});

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "members");
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const member = await context.services.admin.members.get(params.id);
  if (!member) throw data(null, { status: 404 });
  const clock = museumClock(context);
  const resumed = resumedRefund(new URL(request.url));
  return {
    resume: resumed && member.payments.some((p) => p.id === resumed && p.status === "succeeded") ? resumed : null,
    member: {
      ...member,
      createdAt: clock.day(member.createdAt),
      payments: member.payments.map((p) => ({ id: p.id, provider: p.provider, providerPaymentId: p.providerPaymentId, amountCents: p.amountCents, currency: p.currency, status: p.status, daysGranted: p.daysGranted, createdAt: clock.minute(p.createdAt), refundedAt: p.refundedAt ? clock.minute(p.refundedAt) : null })),
      complimentary: member.complimentary.map((c) => ({ id: c.id, days: c.days, reason: c.reason, grantedBy: c.grantedBy, createdAt: clock.day(c.createdAt) })),
    },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "members");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const form = await request.formData();
  const members = context.services.admin.members;
  const intent = formText(form, "intent");
  if (intent === "reset") return consoleAnswer(await members.sendPasswordReset(actorOf(staff), params.id));
  if (intent === "complimentary") {
    const parsed = complimentarySchema.safeParse({ days: formText(form, "days"), reason: formText(form, "reason") });
    if (!parsed.success) return consoleAnswer({ ok: false, message: "Please correct the complimentary ticket.", errors: fieldErrors(parsed.error) });
    return consoleAnswer(await members.grantComplimentary(actorOf(staff), params.id, parsed.data.days, parsed.data.reason));
  }
  if (intent === "refund") {
    const payment = uuidSchema.safeParse(formText(form, "paymentId"));
    if (!payment.success) return consoleAnswer({ ok: false, message: "No such payment." });
    const unconfirmed = unconfirmedRefund(form);
    if (unconfirmed) return unconfirmed;
    await requireRecentPassword(context, request, refundReturnTo(`/admin/members/${params.id}`, payment.data));
    const member = await members.get(params.id);
    if (!member?.payments.some((p) => p.id === payment.data)) return consoleAnswer({ ok: false, message: "No such payment." });
    try {
      return consoleAnswer(await members.refund(actorOf(staff), payment.data));
    } catch (error) {
      context.logger.error({ err: error }, "refund failed");
      return consoleAnswer({ ok: false, message: "The payment provider did not accept the refund; nothing was changed. Please try again or refund it in Stripe's dashboard." }, 502);
    }
  }
  return consoleAnswer({ ok: false, message: "Unknown action." });
}

export default function Member({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const m = loaderData.member;
  return (
    <section className="max-w-4xl">
      <p className="mb-2 text-sm">
        <Link to="/admin/members" className="text-blue-800 underline">
          All members
        </Link>
      </p>
      <ConsoleHeading>{`${m.firstName} ${m.lastName}`}</ConsoleHeading>
      <ConsoleNotice result={result ?? (loaderData.resume ? { ok: true, message: REFUND_RESUME_NOTICE } : null)} />
      <dl className="mb-6 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="font-semibold">Email</dt>
        <dd>{m.email}</dd>
        <dt className="font-semibold">Ticket</dt>
        <dd data-testid="member-state">{m.state}</dd>
        <dt className="font-semibold">Valid through</dt>
        <dd data-testid="member-valid-through">{m.validThrough ?? "—"}</dd>
        <dt className="font-semibold">Joined</dt>
        <dd>{m.createdAt}</dd>
        {m.role !== "member" ? (
          <>
            <dt className="font-semibold">Staff</dt>
            <dd data-testid="member-staff-role">{`also on the staff as ${m.role}`}</dd>
          </>
        ) : null}
      </dl>
      <Form method="post" className="mb-8">
        <PrimaryButton name="intent" value="reset">
          Send a password reset link
        </PrimaryButton>
      </Form>

      <h2 className="mb-2 text-xl font-bold">Payments</h2>
      {m.payments.length === 0 ? <p className="mb-6">No payments.</p> : null}
      <ul className="mb-8 space-y-2">
        {m.payments.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-3 rounded border border-stone-300 p-3" data-testid="payment">
            <span>
              {p.createdAt} · {formatAmount(p.amountCents, p.currency)} · {p.daysGranted} days · {p.provider} {p.providerPaymentId} ·{" "}
              <strong>{p.status === "refunded" ? `refunded ${p.refundedAt}` : "paid"}</strong>
            </span>
            {p.status === "succeeded" ? (
              <RefundForm field="paymentId" id={p.id} what={`the payment of ${p.createdAt}`} resumed={!result && loaderData.resume === p.id} />
            ) : null}
          </li>
        ))}
      </ul>

      <h2 className="mb-2 text-xl font-bold">Complimentary tickets</h2>
      <ul className="mb-4 list-disc pl-6">
        {m.complimentary.map((c) => (
          <li key={c.id}>
            {c.createdAt}: {c.days} days, by {c.grantedBy}: {c.reason}
          </li>
        ))}
      </ul>
      <UnsavedChanges saved={result}>
      <Form method="post" className="grid max-w-xl gap-3 sm:grid-cols-[8rem_1fr]">
        <input type="hidden" name="intent" value="complimentary" />
        <Field label="Days" name="days" error={errors.days}>
          <input {...inputProps("days", errors.days)} type="number" min={1} max={3650} defaultValue={120} required />
        </Field>
        <Field label="Reason" name="reason" error={errors.reason}>
          <input {...inputProps("reason", errors.reason)} required maxLength={500} />
        </Field>
        <div className="sm:col-span-2">
          <PrimaryButton>Grant a complimentary ticket</PrimaryButton>
        </div>
      </Form>
      </UnsavedChanges>
    </section>
  );
}

export function meta() {
  return [{ title: "Member | Staff console" }];
}
