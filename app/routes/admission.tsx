/**
 * Admission (sign-up), spec sections 2, 4, 5: every field and message, live match icons on the
 * confirm fields, show/hide password, price and validity from config, terms checkbox. Success:
 * signed in, optional newsletter recorded, on to /admission/payment. An existing email: the
 * server's message, then /login after 3.5 s. Alerts clear after 4 s. Members are sent to /.
 * A press before the page's scripts run, on a form that passes the checks the page can make
 * without them, is sent natively at once (decision 036): the action's page shows the same
 * banner, marked fields, kept entries (never the passwords) and timed redirect.
 */
import { useRef, useState, type FormEvent } from "react";
import { data, Link, useActionData, useFetcher } from "react-router";
import { useFormOutcome } from "~/lib/use-redirect-after";
import type { Route } from "./+types/admission";
import { useAlert, type Alert } from "~/components/AlertBanner";
import { CheckboxField, EMAIL_INPUT, PasswordField, SubmitButton, TextField } from "~/components/FormFields";
import { EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN, signUpSchema } from "~/shared/account-schemas";
import { staticPageMeta } from "~/lib/meta";
import { PAGE_MESSAGES, SERVER_MESSAGES } from "~/shared/messages";
import { formatPrice } from "~/shared/money";
import { TIMING } from "~/lib/timing";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors, type FieldErrors } from "~/lib/use-form-errors";
import { redirectMembers } from "~/lib/guards.server";
import type { HydrationHandle } from "~/lib/hydration";
import { IDEMPOTENCY_FIELD, newIdempotencyKey } from "~/shared/idempotency";
import { actionAnswer, formKeys, redirectAnswer } from "../../server/idempotency/form-writes.server";
import { fieldErrors } from "~/shared/form-errors";

export async function loader({ context }: Route.LoaderArgs) {
  redirectMembers(context);
  // A new key per render: a double submit or a retried POST is one account (decision 025).
  return { price: formatPrice(context.settings.ticketPriceCents), days: context.settings.ticketDays, idempotencyKey: newIdempotencyKey() };
}

/** What was typed, sent back with a refusal (never the passwords), so a form the browser posted itself comes back filled. */
type Typed = { firstName: string; lastName: string; emailAddress: string; emailAddressConfirm: string; emailOptIn: boolean; termsAndConditions: boolean };
/** `errors`: every field's message when the action's own check of the fields refused them. */
type SignUpResult = { success: boolean; message: string; errors?: FieldErrors; typed?: Typed };

/** The form's controls in page order: the banner shows the first one's message, focus goes to it. */
const FIELD_ORDER = ["firstName", "lastName", "emailAddress", "emailAddressConfirm", "password", "passwordConfirm", "emailOptIn", "termsAndConditions"];

/** The errors in page order (a message not tied to a control last), so their first is the banner's. */
function inPageOrder(errors: FieldErrors): FieldErrors {
  const rank = (name: string) => (FIELD_ORDER.includes(name) ? FIELD_ORDER.indexOf(name) : FIELD_ORDER.length);
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * What the page shows for a refusal, the same whether its script or the action's page shows it:
 * the banner and how long it stays, the fields marked, and where it goes after how long.
 */
function outcomeOf(r: SignUpResult): { alert: Alert; clearAfterMs?: number; errors: FieldErrors; redirect?: readonly [string, number] } {
  if (r.message === PAGE_MESSAGES.noAnswer) return { alert: { type: "danger", message: r.message }, errors: {} };
  // An existing account: the server's message, then /login after 3.5 s (spec section 4).
  if (r.message === SERVER_MESSAGES.emailTaken) {
    return { alert: { type: "danger", message: r.message }, clearAfterMs: TIMING.signUpAlert, errors: { emailAddress: r.message }, redirect: ["/login", TIMING.signUpFailureRedirect] };
  }
  const errors = r.errors ? inPageOrder(r.errors) : { form: r.message };
  return { alert: { type: "danger", message: Object.values(errors).find(Boolean) ?? r.message }, clearAfterMs: TIMING.signUpAlert, errors };
}

const text = (v: unknown) => (typeof v === "string" ? v : "");

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const typed: Typed = {
    firstName: text(form.firstName),
    lastName: text(form.lastName),
    emailAddress: text(form.emailAddress),
    emailAddressConfirm: text(form.emailAddressConfirm),
    emailOptIn: form.emailOptIn !== undefined,
    termsAndConditions: form.termsAndConditions !== undefined,
  };
  // Every refusal also sets the banner of the page it comes with when the browser posted the form
  // itself (no script running yet, decision 036); a script reads only the result.
  const refuse = (result: SignUpResult, status: number) => {
    const { alert, clearAfterMs } = outcomeOf(result);
    context.formAnswer = { alert, clearAfterMs };
    return data<SignUpResult>({ ...result, typed }, { status });
  };
  if (context.rateLimited) return refuse({ success: false, message: context.rateLimited }, 429);
  const { accounts, sessions, idempotency, database } = context.services;
  const refusal = (message: string): SignUpResult => ({ success: false, message });
  const keys = formKeys({ idempotency, db: database.db, route: "form:admission", owner: context.viewer?.userId ?? null, form, refusal });
  if (keys.malformed) return refuse(keys.malformed.body, keys.malformed.status);
  const parsed = signUpSchema.safeParse(form);
  if (!parsed.success) {
    const errors = inPageOrder(fieldErrors(parsed.error));
    return refuse({ success: false, message: Object.values(errors).find(Boolean) ?? parsed.error.issues[0].message, errors }, 400);
  }
  // The router follows the redirect itself; navigating from the page after the fetcher settles
  // races React Router's revalidation and can leave the old page on screen.
  const answer = await keys.run(async (tx) => {
    const result = await accounts.createAccount(parsed.data, tx);
    if (!result.ok) return { status: 409, body: { success: false, message: SERVER_MESSAGES.emailTaken } satisfies SignUpResult };
    return redirectAnswer("/admission/payment", result.userId);
  });
  if (answer.status >= 400) return refuse(answer.body as SignUpResult, answer.status);
  // A replay signs in too (the same fields, password included, are what a login asks for), but
  // never after the account's sessions were ended; a deleted account is refused (decision 047).
  const session = answer.ref ? await sessions.startForSignUp(answer.ref, answer.storedAt) : "ended";
  if (session === "gone") return refuse({ success: false, message: SERVER_MESSAGES.signUpAccountGone }, 410);
  const cookie = session === "ended" ? null : await context.services.sessionCookies.start({ cookie: request.headers.get("cookie") }, session.token);
  return actionAnswer<SignUpResult>(answer, cookie ? { "Set-Cookie": cookie } : undefined);
}

const EMPTY = { firstName: "", lastName: "", emailAddress: "", emailAddressConfirm: "", password: "", passwordConfirm: "" };

/** In the browser: no answer (a dropped connection) is shown on the page, with the form kept as typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): SignUpResult => ({ success: false, message }));
}

export default function Admission({ loaderData }: Route.ComponentProps) {
  const { price, days } = loaderData;
  const fetcher = useFetcher<SignUpResult>();
  // The action's answer to a form the browser posted itself (decision 036): rendered by the server.
  const posted = useActionData<SignUpResult>();
  const answered = posted ? outcomeOf(posted) : null;
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors({ alertMs: TIMING.signUpAlert, initial: answered?.errors });
  const { show } = useAlert();
  // What was typed comes back with a refusal, the passwords excepted (never written into a page).
  const [f, setF] = useState(() => {
    const t = posted?.typed;
    return t ? { ...EMPTY, firstName: t.firstName, lastName: t.lastName, emailAddress: t.emailAddress, emailAddressConfirm: t.emailAddressConfirm } : EMPTY;
  });
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setF((v) => ({ ...v, [k]: e.target.value }));
    fix(k);
  };
  // The field the action's page opens on: the first one marked, as the script's report focuses.
  const firstMarked = answered ? FIELD_ORDER.find((name) => answered.errors[name]) : undefined;
  const focusFirst = (name: string) => (firstMarked === name ? { autoFocus: true } : {});

  useFormOutcome(fetcher.data, posted, (r) => outcomeOf(r).redirect, (r) => {
    if (r.success) return false;
    const { alert, errors: marked } = outcomeOf(r);
    if (r.message === PAGE_MESSAGES.noAnswer) {
      show(alert);
      return false;
    }
    report(formRef.current, marked);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = signUpSchema.safeParse(form);
    if (!parsed.success) {
      event.preventDefault();
      report(event.currentTarget, fieldErrors(parsed.error));
    }
  }

  const emailsMatch = f.emailAddressConfirm !== "" && f.emailAddress.toLowerCase() === f.emailAddressConfirm.toLowerCase() && EMAIL_PATTERN.test(f.emailAddress);
  const passwordOk = f.password.length >= PASSWORD_MIN && f.password.length <= PASSWORD_MAX;
  const passwordsMatch = f.passwordConfirm !== "" && passwordOk && f.password === f.passwordConfirm;

  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Admission</h1>
      <p className="mt-4 text-lg">
        Welcome to the Pittsburgh Sports Museum &amp; Hall of Fame! Your ticket opens every exhibit: the photos, the full
        stories and the biographies of everyone on the Wall of Fame.
      </p>
      <p className="mt-4 rounded bg-ink px-4 py-3 text-lg font-semibold text-gold" data-testid="price">
        Admission: {price}, valid for {days} days
      </p>
      {/* Sent at once, natively, when pressed before the scripts run and the fields pass the checks
          the page makes without them: the browser's own (required, the patterns) and the twins'
          match (`data-same-as`, decision 036); else held until they run, which check as the spec says. */}
      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-6 grid gap-4 sm:grid-cols-2" data-submit-early="">
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={loaderData.idempotencyKey} />
        <TextField label="First name" name="firstName" autoComplete="given-name" required {...focusFirst("firstName")} value={f.firstName} onChange={set("firstName")} error={errors.firstName} />
        <TextField label="Last name" name="lastName" autoComplete="family-name" required {...focusFirst("lastName")} value={f.lastName} onChange={set("lastName")} error={errors.lastName} />
        <TextField
          label="Email address"
          name="emailAddress"
          {...EMAIL_INPUT}
          {...focusFirst("emailAddress")}
          value={f.emailAddress}
          onChange={set("emailAddress")}
          className="sm:col-span-2"
          error={errors.emailAddress}
        />
        <TextField
          label="Confirm email address"
          name="emailAddressConfirm"
          type="email"
          autoComplete="email"
          required
          data-same-as="emailAddress"
          {...focusFirst("emailAddressConfirm")}
          value={f.emailAddressConfirm}
          onChange={set("emailAddressConfirm")}
          className="sm:col-span-2"
          error={errors.emailAddressConfirm}
          status={f.emailAddressConfirm ? { ok: emailsMatch, label: emailsMatch ? "Email addresses match" : "Email addresses do not match" } : null}
        />
        <PasswordField
          label={`Password (${PASSWORD_MIN}-${PASSWORD_MAX} characters)`}
          name="password"
          autoComplete="new-password"
          required
          pattern={`.{${PASSWORD_MIN},${PASSWORD_MAX}}`}
          {...focusFirst("password")}
          value={f.password}
          onChange={set("password")}
          className="sm:col-span-2"
          error={errors.password}
          status={f.password ? { ok: passwordOk, label: passwordOk ? "Password length is fine" : "Password must be 8 to 16 characters" } : null}
        />
        <PasswordField
          label="Confirm password"
          name="passwordConfirm"
          autoComplete="new-password"
          required
          data-same-as="password"
          {...focusFirst("passwordConfirm")}
          value={f.passwordConfirm}
          onChange={set("passwordConfirm")}
          className="sm:col-span-2"
          error={errors.passwordConfirm}
          status={f.passwordConfirm ? { ok: passwordsMatch, label: passwordsMatch ? "Passwords match" : "Passwords do not match" } : null}
        />
        <CheckboxField name="emailOptIn" className="sm:col-span-2" defaultChecked={posted?.typed?.emailOptIn}>
          Yes, send me emails and announcements from the museum (optional)
        </CheckboxField>
        <CheckboxField
          name="termsAndConditions"
          className="sm:col-span-2"
          required
          defaultChecked={posted?.typed?.termsAndConditions}
          {...focusFirst("termsAndConditions")}
          error={errors.termsAndConditions}
          onChange={() => fix("termsAndConditions")}
        >
          I have read and agree to the{" "}
          <Link to="/termsandconditions" className="text-blue-800 underline" target="_blank">
            Terms and Conditions
          </Link>
        </CheckboxField>
        <div className="sm:col-span-2">
          <SubmitButton busy={fetcher.state !== "idle"}>Proceed to Payment</SubmitButton>
        </div>
      </fetcher.Form>
      <p className="mt-6">
        Already a member?{" "}
        <Link to="/login" className="font-semibold text-blue-800 underline">
          Login
        </Link>
      </p>
      <p className="mt-2">
        Buying for someone else?{" "}
        <Link to="/gift" className="font-semibold text-blue-800 underline">
          Give a ticket
        </Link>
      </p>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, {
    title: "Admission",
    description: "Buy your museum ticket: photos, full exhibit texts and biographies.",
    path: "/admission",
    card: "admission",
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };
