/**
 * Give a ticket (decision 018): anyone, signed in or not, fills in their own and the
 * recipient's name and email, an optional message and the day the gift is sent (today or later
 * on the museum's calendar, at most a year ahead). A signed-in person's own details are filled
 * in. The details are kept as an unpaid draft and the card is asked for on the next page.
 */
import { data } from "react-router";
import type { Route } from "./+types/gift";
import { AccountForm, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { formRateLimited } from "~/lib/form-action.server";
import { staticPageMeta } from "~/lib/meta";

import { deliverOnProblem, GIFT_MESSAGE_MAX, giftFieldsSchema, lastDeliveryDay } from "~/shared/gift-schemas";
import { formatPrice } from "~/shared/money";
import { IDEMPOTENCY_FIELD, newIdempotencyKey } from "~/shared/idempotency";
import { actionAnswer, formKeys, redirectAnswer } from "../../server/idempotency/form-writes.server";
import { fieldErrors, typedValues } from "~/shared/form-errors";

export async function loader({ context }: Route.LoaderArgs) {
  const v = context.viewer;
  const today = context.services.gifts.today();
  return {
    buyer: { firstName: v?.firstName ?? "", lastName: v?.lastName ?? "", email: v?.emailAddress ?? "" },
    price: formatPrice(context.settings.ticketPriceCents),
    days: context.settings.ticketDays,
    today,
    lastDay: lastDeliveryDay(today),
    // A new key per render: a double submit or a retried POST is one draft (decision 025).
    idempotencyKey: newIdempotencyKey(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const form = Object.fromEntries(await request.formData());
  const { gifts, idempotency, database } = context.services;
  const owner = context.viewer?.userId ?? null;
  const keys = formKeys({ idempotency, db: database.db, route: "form:gift", owner, form, refusal: (message: string): FormOutcome => ({ ok: false, message }) });
  if (keys.malformed) return actionAnswer<FormOutcome>(keys.malformed);
  const parsed = giftFieldsSchema.safeParse(form);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  const today = context.services.gifts.today();
  if (parsed.success) {
    const problem = deliverOnProblem(parsed.data.deliverOn, today);
    if (problem) errors.deliverOn = problem;
  }
  if (!parsed.success || Object.keys(errors).length > 0) {
    return data<FormOutcome>({ ok: false, message: Object.values(errors)[0], errors, values: typedValues(form) }, { status: 400 });
  }
  const { data: input } = parsed;
  return actionAnswer<FormOutcome>(await keys.run(async (tx) => redirectAnswer(`/gift/${await gifts.createDraft(input, owner, tx)}/pay`)));
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "Give a ticket",
    description: "Give someone a ticket to the Pittsburgh Sports Museum & Hall of Fame, delivered by email on the day you choose.",
    path: "/gift",
    card: "gift",
  });
}

export default function Gift({ loaderData: l, actionData }: Route.ComponentProps) {
  const errors = actionData?.errors ?? {};
  const field = (name: string, fallback = "") => answeredField(actionData, name, fallback);
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Give a ticket</h1>
      <p className="mt-3">
        A gift ticket gives {l.days} days of full access to the museum for {l.price}. We email the recipient a link to redeem it on the day you choose; they
        sign in or create an account there, and the days are added to their ticket. You get a receipt by email.
      </p>
      <Outcome outcome={actionData} />
      <AccountForm submit="Continue to payment">
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={l.idempotencyKey} />
        <fieldset className="space-y-4">
          <legend className="font-display text-xl font-bold uppercase">From you</legend>
          <TextField label="Your first name" autoComplete="given-name" {...field("buyerFirstName", l.buyer.firstName)} required />
          <TextField label="Your last name" autoComplete="family-name" {...field("buyerLastName", l.buyer.lastName)} required />
          <TextField label="Your email address" type="email" autoComplete="email" {...field("buyerEmail", l.buyer.email)} required />
        </fieldset>
        <fieldset className="space-y-4">
          <legend className="font-display text-xl font-bold uppercase">For</legend>
          <TextField label="Recipient's first name" autoComplete="off" {...field("recipientFirstName")} required />
          <TextField label="Recipient's last name" autoComplete="off" {...field("recipientLastName")} required />
          <TextField label="Recipient's email address" type="email" autoComplete="off" {...field("recipientEmail")} required />
          <div>
            <label htmlFor="gift-message" className="mb-1 block font-semibold">
              Message (optional)
            </label>
            <textarea
              id="gift-message"
              name="message"
              rows={4}
              maxLength={GIFT_MESSAGE_MAX}
              defaultValue={field("message").defaultValue}
              autoFocus={field("message").autoFocus}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={errors.message ? "gift-message-error" : undefined}
              className="w-full rounded border border-gray-400 px-3 py-2 focus:border-ink focus:outline-2 focus:outline-gold aria-invalid:border-2 aria-invalid:border-red-700"
            />
            {errors.message ? (
              <p id="gift-message-error" className="mt-1 text-sm font-semibold text-red-800" data-testid="field-error">
                {errors.message}
              </p>
            ) : null}
          </div>
          <TextField label="Send it on" type="date" min={l.today} max={l.lastDay} {...field("deliverOn", l.today)} required />
        </fieldset>
      </AccountForm>
    </section>
  );
}
