/**
 * Subscribe (spec sections 2, 4, 5): 'Subscribe to our Newsletter!', First Name, Last Name,
 * Email Address, consent checked by default, bot-check notice, Submit. Spinner with the form
 * hidden while sending; green message and form hidden on success, red message and the form
 * again on failure; scroll to top on load and on success; / 3 s after submitting.
 * A press before the page's scripts run is the browser's own post: the action's page shows the
 * same result, field message, kept entries and timed redirect (decision 036).
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { data, useActionData, useFetcher } from "react-router";
import { useRedirectAfter, useSettledNavigate } from "~/lib/use-redirect-after";
import type { Route } from "./+types/subscribe";
import { AlertBox } from "~/components/AlertBanner";
import { RecaptchaNotice, useRecaptcha } from "~/components/BotCheck";
import { GuardedForm } from "~/components/GuardedForm";
import { CheckboxField, Spinner, SubmitButton, TextField } from "~/components/FormFields";
import { subscribeSchema } from "~/shared/contact-schemas";
import { staticPageMeta } from "~/lib/meta";
import { BOTCHECK_MESSAGES, SUBSCRIBE_MESSAGES, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { postJson } from "~/lib/post-json";
import { constraintErrors, useFormErrors } from "~/lib/use-form-errors";
import { IDEMPOTENCY_FIELD, IDEMPOTENCY_HEADER, newIdempotencyKey } from "~/shared/idempotency";
import { actionAnswer, formKeys } from "../../server/idempotency/form-writes.server";

/** What was typed, sent back with a refusal to a form the browser posted itself, so nothing typed is lost. */
type Typed = { firstName: string; lastName: string; emailAddress: string; subscribe: boolean };
/** `field`: the field a refusal's message belongs to (marked, focused, its message in the banner). */
type Result = { ok: boolean; message: string; field?: string; typed?: Typed };

export async function loader({ context }: Route.LoaderArgs) {
  // A new key per render: a double submit or a retried POST is one subscription (decision 025).
  return { museumEmail: context.settings.contactEmail, idempotencyKey: newIdempotencyKey() };
}

/** The spec's field messages (section 5) and the field each one marks. */
const SUBSCRIBE_FIELD_MESSAGES: Record<string, string> = {
  [VALIDATION.firstNameRequired]: "firstName",
  [VALIDATION.lastNameRequired]: "lastName",
  [VALIDATION.emailRequired]: "emailAddress",
  [VALIDATION.subscribeConsentRequired]: "subscribe",
};

/** The form's fields: a refusal the schema gives for one of them is that field's to fix. */
const SUBSCRIBE_FIELDS = new Set(Object.values(SUBSCRIBE_FIELD_MESSAGES));
/** The field `message` marks: named by the refusal, else known by the spec's message. */
const fieldOf = (r: { message?: string; field?: string }) => (r.field && SUBSCRIBE_FIELDS.has(r.field) ? r.field : SUBSCRIBE_FIELD_MESSAGES[r.message ?? ""]);

const text = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * The browser posts the form here itself when no script runs (yet: decision 036), and the answer
 * is what the page's script shows: a field's message on that field and in the banner, the form
 * kept as typed; any other refusal the red failure text (the script counts any failure of its
 * calls as one), the form kept; success the green message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const failure = SUBSCRIBE_MESSAGES.failure(context.settings.contactEmail);
  const typed: Typed = { firstName: text(form.firstName), lastName: text(form.lastName), emailAddress: text(form.emailAddress), subscribe: form.subscribe !== undefined };
  const refusal = (message: string, field?: string): Result => {
    const marks = fieldOf({ message, field });
    return marks ? { ok: false, message, field: marks, typed } : { ok: false, message: failure, typed };
  };
  const refuse = (message: string, status: number, field?: string) => {
    const result = refusal(message, field);
    // A field's message is in the banner from the answer's first paint, where the script's check puts it.
    if (result.field) context.formAnswer = { alert: { type: "danger", message: result.message } };
    return data<Result>(result, { status });
  };
  if (context.rateLimited) return refuse(context.rateLimited, 429);
  const { botCheck, newsletter, logger, idempotency, database } = context.services;
  const keys = formKeys({ idempotency, db: database.db, route: "form:subscribe", owner: context.viewer?.userId ?? null, form, refusal });
  const stored = keys.malformed ?? (await keys.stored());
  if (stored) return actionAnswer<Result>(stored);
  const check = await botCheck.verify({ honeypot: form.website, token: form.recaptchaToken, ip: context.clientIp });
  if (!check.ok) return refuse(check.reason === "honeypot" ? BOTCHECK_MESSAGES.honeypot : BOTCHECK_MESSAGES.failed, 400);
  const parsed = subscribeSchema.safeParse({ ...form, subscribe: form.subscribe ?? false });
  if (!parsed.success) return refuse(parsed.error.issues[0].message, 400, String(parsed.error.issues[0].path[0]));
  if (!parsed.data.subscribe) return refuse(VALIDATION.subscribeConsentRequired, 400);
  try {
    const { firstName, lastName, emailAddress } = parsed.data;
    return actionAnswer<Result>(
      await keys.run(async (tx) => {
        await newsletter.subscribe({ email: emailAddress, firstName, lastName, consent: true }, tx);
        return { status: 200, body: { ok: true, message: SUBSCRIBE_MESSAGES.success } satisfies Result };
      }),
    );
  } catch (error) {
    logger.error({ err: error }, "subscription failed");
    return refuse(failure, 503);
  }
}

/**
 * In the browser: the bot check runs with action 'submit', then POST /api/subscribes always and
 * POST /api/mc/subscribe with consent (spec section 7). Any exception counts as failure.
 */
async function sendSubscription(form: FormData, museumEmail: string): Promise<Result> {
  const firstName = String(form.get("firstName") ?? "");
  const lastName = String(form.get("lastName") ?? "");
  const emailAddress = String(form.get("emailAddress") ?? "");
  const consent = form.get("subscribe") === "on";
  const key = { [IDEMPOTENCY_HEADER]: String(form.get(IDEMPOTENCY_FIELD) ?? "") };
  try {
    const local = await postJson("/api/subscribes", { firstName, lastName, emailAddress, subscribe: consent, website: form.get("website") ?? "" }, key);
    // A field the server refused (an address that is not email-shaped) is the person's to fix: its own message, not the failure's.
    const field = local.status === 400 && local.body.message ? fieldOf(local.body) : undefined;
    if (!local.ok && field && local.body.message) return { ok: false, message: local.body.message, field };
    if (!local.ok) throw new Error(local.body.message ?? "subscribe failed");
    if (consent) {
      const synced = await postJson("/api/mc/subscribe", { firstName, lastName, email: emailAddress, audience: "museum-newsletter" }, key);
      if (!synced.ok) throw new Error(synced.body.message ?? "subscribe failed");
    }
    return { ok: true, message: SUBSCRIBE_MESSAGES.success };
  } catch {
    return { ok: false, message: SUBSCRIBE_MESSAGES.failure(museumEmail) };
  }
}

export default function Subscribe({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<Result>();
  // The action's answer to a form the browser posted itself (no scripts yet): rendered by the server.
  const posted = useActionData<Result>();
  const postedField = posted && !posted.ok ? posted.field : undefined;
  const navigate = useSettledNavigate();
  const { getToken, enabled: botCheckRuns } = useRecaptcha();
  const [result, setResult] = useState<Result | null>(null);
  const [sending, setSending] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors({ initial: postedField ? { [postedField]: posted?.message } : undefined });
  // Pressed again once the scripts run: the script's own timer takes over from the answer's.
  const [again, setAgain] = useState(false);

  // Braces matter: window.scrollTo returns a Promise in current Chromium, and an effect's return
  // value is its cleanup, which React would call (and crash on) when the page is left.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  useEffect(() => {
    if (!submitted) return;
    const id = setTimeout(() => navigate("/"), TIMING.subscribeRedirect);
    return () => clearTimeout(id);
  }, [submitted, navigate]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAgain(true);
    if (report(event.currentTarget, constraintErrors(event.currentTarget))) return;
    const formData = new FormData(event.currentTarget);
    setResult(null);
    setSending(true);
    setSubmitted(true);
    await getToken();
    const outcome = await sendSubscription(formData, loaderData.museumEmail);
    const field = outcome.ok ? undefined : outcome.field;
    if (field) {
      // The form comes back with the field marked and its message (nothing was stored, no
      // redirect); shown first, so the field can take the focus.
      flushSync(() => {
        setSending(false);
        setSubmitted(false);
      });
      report(formRef.current, { [field]: outcome.message });
      return;
    }
    setSending(false);
    setResult(outcome);
    if (outcome.ok) window.scrollTo({ top: 0 });
  }

  const shown = result ?? fetcher.data ?? (again || postedField ? null : posted) ?? null;
  const done = shown?.ok === true;
  // The browser's own post goes home after the same 3 s, counted from when its answer was shown;
  // a field's message keeps the person on the form, as the script does.
  useRedirectAfter(posted && !postedField && !again ? "/" : null, TIMING.subscribeRedirect);
  const typed = posted?.typed;
  /** Required, with the spec's message; an invalid field is marked until it is changed. */
  const required = (name: string, message: string) => ({
    name,
    required: true,
    autoFocus: postedField === name,
    error: errors[name],
    onInvalid: (e: FormEvent<HTMLInputElement>) => e.currentTarget.setCustomValidity(message),
    onInput: (e: FormEvent<HTMLInputElement>) => {
      e.currentTarget.setCustomValidity("");
      fix(name);
    },
  });
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">{SUBSCRIBE_MESSAGES.headline}</h1>
      <div className="mt-4" aria-live="polite">
        {sending ? <Spinner label="Subscribing" /> : null}
        {shown ? <AlertBox alert={{ type: shown.ok ? "success" : "danger", message: shown.message }} testId="subscribe-result" /> : null}
      </div>
      {done ? null : (
        // Hidden, not removed, while sending: a failure brings back everything that was typed.
        // Until the script runs, a send is the browser's own post, answered by the action as the
        // script would show it, with the spec's message on a refused field rather than the
        // browser's own wording (decision 036), unless the bot check needs its script's token.
        <GuardedForm
          fetcher={fetcher}
          ref={formRef}
          sending={sending}
          onSubmit={onSubmit}
          botCheckRuns={botCheckRuns}
          idempotencyKey={loaderData.idempotencyKey}
          className="mt-6 space-y-4"
          testId="subscribe-form"
        >
          <TextField label="First Name" autoComplete="given-name" defaultValue={typed?.firstName} {...required("firstName", VALIDATION.firstNameRequired)} />
          <TextField label="Last Name" autoComplete="family-name" defaultValue={typed?.lastName} {...required("lastName", VALIDATION.lastNameRequired)} />
          <TextField label="Email Address" type="email" autoComplete="email" defaultValue={typed?.emailAddress} {...required("emailAddress", VALIDATION.emailRequired)} />
          <CheckboxField defaultChecked={typed?.subscribe ?? true} {...required("subscribe", VALIDATION.subscribeConsentRequired)}>
            Yes, I would like to receive emails from the Pittsburgh Sports Museum &amp; Hall of Fame
          </CheckboxField>
          <RecaptchaNotice />
          <SubmitButton busy={false}>Submit</SubmitButton>
        </GuardedForm>
      )}
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "Subscribe",
    description: "Subscribe to the museum's newsletter.",
    path: "/subscribe",
    card: "subscribe",
  });
}
