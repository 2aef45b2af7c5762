/**
 * Contact (spec sections 2, 4, 5): first and last name, email, subject (seven options), message,
 * newsletter consent checked by default. On submit: spinner and scroll to top; success hides the
 * form with the green message and goes to / after 3.5 s; failure shows the red message and the
 * form again. The message is stored and emailed to the museum in one transaction.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { data, useActionData, useFetcher } from "react-router";
import { useRedirectAfter, useSettledNavigate } from "~/lib/use-redirect-after";
import type { Route } from "./+types/contact";
import { AlertBox } from "~/components/AlertBanner";
import { RecaptchaNotice, useRecaptcha } from "~/components/BotCheck";
import { GuardedForm } from "~/components/GuardedForm";
import { CheckboxField, FieldError, INPUT_CLASS, invalidProps, Spinner, SubmitButton, TextField } from "~/components/FormFields";
import { contactSchema } from "~/shared/contact-schemas";
import { staticPageMeta } from "~/lib/meta";
import { BOTCHECK_MESSAGES, CONTACT_MESSAGES, CONTACT_SUBJECTS, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { postJson } from "~/lib/post-json";
import { constraintErrors, useFormErrors, type FieldErrors } from "~/lib/use-form-errors";
import { rateLimitedAnswer } from "~/lib/guards.server";
import type { HydrationHandle } from "~/lib/hydration";
import { IDEMPOTENCY_FIELD, IDEMPOTENCY_HEADER, newIdempotencyKey } from "~/shared/idempotency";
import { actionAnswer, formKeys } from "../../server/idempotency/form-writes.server";

/** What was typed, sent back with a refusal to a form the browser posted itself, so nothing typed is lost. */
type Typed = Partial<Record<"firstName" | "lastName" | "email" | "subject" | "message", string>> & { subscribe?: boolean };
type Result = { ok: boolean; message: string; typed?: Typed };

function typedIn(form: Record<string, FormDataEntryValue>): Typed {
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  return { firstName: text("firstName"), lastName: text("lastName"), email: text("email"), subject: text("subject"), message: text("message"), subscribe: form.subscribe === "on" };
}

/** A new key per render: a double submit or a retried POST of this form is one message (decision 025). */
export function loader() {
  return { idempotencyKey: newIdempotencyKey() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const limited = rateLimitedAnswer<Result>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const { botCheck, contact, logger, idempotency, database } = context.services;
  const refusal = (message: string): Result => ({ ok: false, message, typed: typedIn(form) });
  const keys = formKeys({ idempotency, db: database.db, route: "form:contact", owner: context.viewer?.userId ?? null, form, refusal });
  // A retry is answered before the bot check: its token was good once.
  const stored = keys.malformed ?? (await keys.stored());
  if (stored) return actionAnswer<Result>(stored);
  const check = await botCheck.verify({ honeypot: form.website, token: form.recaptchaToken, ip: context.clientIp });
  if (!check.ok) return data<Result>(refusal(check.reason === "honeypot" ? BOTCHECK_MESSAGES.honeypot : BOTCHECK_MESSAGES.failed), { status: 400 });
  const parsed = contactSchema.safeParse({ ...form, subscribe: form.subscribe ?? false });
  if (!parsed.success) return data<Result>(refusal(parsed.error.issues[0].message), { status: 400 });
  try {
    return actionAnswer<Result>(
      await keys.run(async (tx) => {
        await contact.submit(parsed.data, { email: true, subscription: true }, tx);
        return { status: 200, body: { ok: true, message: CONTACT_MESSAGES.success } satisfies Result };
      }),
    );
  } catch (error) {
    logger.error({ err: error }, "contact message failed");
    return data<Result>(refusal(CONTACT_MESSAGES.failure), { status: 503 });
  }
}

/**
 * In the browser the form makes the calls of spec section 7, in order: the bot-checked
 * /api/email/contact (stored and emailed), /api/contact, then (not awaited) the two newsletter
 * calls. Any exception counts as failure. Without JavaScript the form posts to the action above.
 */
async function sendContact(form: FormData, recaptchaToken: string): Promise<Result> {
  const key = { [IDEMPOTENCY_HEADER]: String(form.get(IDEMPOTENCY_FIELD) ?? "") };
  const fields = {
    firstName: String(form.get("firstName") ?? ""),
    lastName: String(form.get("lastName") ?? ""),
    email: String(form.get("email") ?? ""),
    subject: String(form.get("subject") ?? ""),
    message: String(form.get("message") ?? ""),
    subscribe: form.get("subscribe") === "on",
  };
  try {
    const emailed = await postJson("/api/email/contact", { ...fields, recaptchaToken, website: form.get("website") ?? "" }, key);
    if (!emailed.ok) return { ok: false, message: emailed.status === 400 && emailed.body.message ? emailed.body.message : CONTACT_MESSAGES.failure };
    const stored = await postJson("/api/contact", fields, key);
    if (!stored.ok) return { ok: false, message: CONTACT_MESSAGES.failure };
    if (fields.subscribe) {
      const { firstName, lastName, email } = fields;
      void postJson("/api/mc/subscribe", { firstName, lastName, email, audience: "museum-newsletter" }, key).catch(() => undefined);
      void postJson("/api/subscribes", { firstName, lastName, emailAddress: email, subscribe: true }, key).catch(() => undefined);
    }
    return { ok: true, message: CONTACT_MESSAGES.success };
  } catch {
    return { ok: false, message: CONTACT_MESSAGES.failure };
  }
}

/** Fields named by a validation message the server may answer with. */
const CONTACT_FIELD_MESSAGES: Record<string, string> = {
  [VALIDATION.firstNameRequired]: "firstName",
  [VALIDATION.lastNameRequired]: "lastName",
  [VALIDATION.emailRequired]: "email",
  [VALIDATION.subjectRequired]: "subject",
  [VALIDATION.messageRequired]: "message",
};

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export default function Contact({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<Result>();
  // The action's answer to a form the browser posted itself (no scripts): rendered by the server.
  const posted = useActionData<Result>();
  const navigate = useSettledNavigate();
  const { getToken, enabled: botCheckRuns } = useRecaptcha();
  const [result, setResult] = useState<Result | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors();
  /** The spec's message for a field the browser finds invalid; typing clears the mark. */
  const check = (name: string, message: string) => ({
    onInvalid: (e: FormEvent<Field>) => e.currentTarget.setCustomValidity(message),
    onInput: (e: FormEvent<Field>) => {
      e.currentTarget.setCustomValidity("");
      fix(name);
    },
  });

  useEffect(() => {
    if (!result?.ok) return;
    const id = setTimeout(() => navigate("/"), TIMING.contactRedirect);
    return () => clearTimeout(id);
  }, [result, navigate]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    if (report(form, constraintErrors(form))) return;
    const formData = new FormData(form);
    window.scrollTo({ top: 0 });
    setResult(null);
    setSending(true);
    const outcome = await sendContact(formData, await getToken());
    setSending(false);
    setResult(outcome);
    if (outcome.ok) window.scrollTo({ top: 0 });
    else {
      // The form comes back with everything typed; a message about one field marks that field.
      const field = CONTACT_FIELD_MESSAGES[outcome.message];
      if (field) report(formRef.current, { [field]: outcome.message } satisfies FieldErrors);
    }
  }

  const answer = result ?? fetcher.data ?? posted;
  const done = answer?.ok === true;
  // A message the browser posted itself (no scripts yet) goes home after the same 3.5 s, counted
  // from when the answer was shown; what was typed comes back with a refusal.
  useRedirectAfter(posted?.ok && !result && !fetcher.data ? "/" : null, TIMING.contactRedirect);
  const typed = posted?.typed;
  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Contact Us</h1>
      <div className="mt-4" aria-live="polite">
        {sending ? <Spinner label="Sending your message" /> : null}
        {answer ? <AlertBox alert={{ type: answer.ok ? "success" : "danger", message: answer.message }} testId="contact-result" /> : null}
      </div>
      {done ? null : (
        // Hidden, not removed, while sending: a failure brings back everything that was typed.
        // Never the browser's own messages: a send before the scripts run is held and replayed
        // once they do (decision 016, addendum), and checked then with the spec's messages;
        // without scripts at all the server answers with them. A send whose fields pass the
        // browser's checks goes at once without waiting for the scripts (`data-submit-early`,
        // decision 036), unless the bot check needs its script's token.
        <GuardedForm
          fetcher={fetcher}
          ref={formRef}
          sending={sending}
          onSubmit={onSubmit}
          botCheckRuns={botCheckRuns}
          idempotencyKey={loaderData.idempotencyKey}
          className="mt-6 grid gap-4 sm:grid-cols-2"
          testId="contact-form"
        >
          <TextField label="First name" name="firstName" autoComplete="given-name" defaultValue={typed?.firstName} required error={errors.firstName} {...check("firstName", VALIDATION.firstNameRequired)} />
          <TextField label="Last name" name="lastName" autoComplete="family-name" defaultValue={typed?.lastName} required error={errors.lastName} {...check("lastName", VALIDATION.lastNameRequired)} />
          <TextField label="Email address" name="email" type="email" autoComplete="email" defaultValue={typed?.email} required className="sm:col-span-2" error={errors.email} {...check("email", VALIDATION.emailRequired)} />
          <div className="sm:col-span-2">
            <label htmlFor="contact-subject" className="mb-1 block font-semibold">
              Subject
            </label>
            <select id="contact-subject" name="subject" required defaultValue={typed?.subject ?? ""} className={INPUT_CLASS} {...check("subject", VALIDATION.subjectRequired)} {...invalidProps("contact-subject-error", errors.subject)}>
              <option value="" disabled>
                Choose a subject
              </option>
              {CONTACT_SUBJECTS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <FieldError id="contact-subject-error" error={errors.subject} />
          </div>
          <div className="sm:col-span-2">
            <label htmlFor="contact-message" className="mb-1 block font-semibold">
              Message
            </label>
            <textarea id="contact-message" name="message" defaultValue={typed?.message} required rows={7} maxLength={5000} className={INPUT_CLASS} {...check("message", VALIDATION.messageRequired)} {...invalidProps("contact-message-error", errors.message)} />
            <FieldError id="contact-message-error" error={errors.message} />
          </div>
          <CheckboxField name="subscribe" defaultChecked={typed?.subscribe ?? true} className="sm:col-span-2">
            Yes, subscribe me to the museum&apos;s newsletter
          </CheckboxField>
          <div className="sm:col-span-2">
            <RecaptchaNotice />
          </div>
          <div className="sm:col-span-2">
            <SubmitButton busy={false}>Send Message</SubmitButton>
          </div>
        </GuardedForm>
      )}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "Contact",
    description: "Write to the Pittsburgh Sports Museum: questions, items for the museum, corrections and nominations.",
    path: "/contact",
    card: "contact",
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
