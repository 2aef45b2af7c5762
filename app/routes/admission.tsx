/**
 * Admission (sign-up), spec sections 2, 4, 5: every field and message, live match icons on the
 * confirm fields, show/hide password, price and validity from config, terms checkbox. Success:
 * signed in, optional newsletter recorded, on to /admission/payment. An existing email: the
 * server's message, then /login after 3.5 s. Alerts clear after 4 s. Members are sent to /.
 */
import { useRef, useState, type FormEvent } from "react";
import { data, Link, useFetcher } from "react-router";
import { useSettledNavigate } from "~/lib/use-redirect-after";
import type { Route } from "./+types/admission";
import { useAlert } from "~/components/AlertBanner";
import { CheckboxField, PasswordField, SubmitButton, TextField } from "~/components/FormFields";
import { EMAIL_PATTERN, PASSWORD_MAX, PASSWORD_MIN, signUpSchema } from "~/shared/account-schemas";
import { staticPageMeta } from "~/lib/meta";
import { PAGE_MESSAGES, SERVER_MESSAGES } from "~/shared/messages";
import { formatPrice } from "~/shared/money";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors } from "~/lib/use-form-errors";
import { rateLimitedAnswer, redirectMembers } from "~/lib/guards.server";
import type { HydrationHandle } from "~/lib/hydration";
import { IDEMPOTENCY_FIELD, newIdempotencyKey } from "~/shared/idempotency";
import { actionAnswer, formKeys, redirectAnswer } from "../../server/idempotency/form-writes.server";
import { fieldErrors } from "~/shared/form-errors";

export async function loader({ context }: Route.LoaderArgs) {
  redirectMembers(context);
  // A new key per render: a double submit or a retried POST is one account (decision 025).
  return { price: formatPrice(context.settings.ticketPriceCents), days: context.settings.ticketDays, idempotencyKey: newIdempotencyKey() };
}

type SignUpResult = { success: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<SignUpResult>(context, (message) => ({ success: false, message }));
  if (limited) return limited;
  const form = Object.fromEntries(await request.formData());
  const { accounts, sessions, idempotency, database } = context.services;
  const refusal = (message: string): SignUpResult => ({ success: false, message });
  const keys = formKeys({ idempotency, db: database.db, route: "form:admission", owner: context.viewer?.userId ?? null, form, refusal });
  if (keys.malformed) return actionAnswer<SignUpResult>(keys.malformed);
  const parsed = signUpSchema.safeParse(form);
  if (!parsed.success) return data<SignUpResult>({ success: false, message: parsed.error.issues[0].message }, { status: 400 });
  // The router follows the redirect itself; navigating from the page after the fetcher settles
  // races React Router's revalidation and can leave the old page on screen.
  const answer = await keys.run(async (tx) => {
    const result = await accounts.createAccount(parsed.data, tx);
    if (!result.ok) return { status: 409, body: { success: false, message: SERVER_MESSAGES.emailTaken } satisfies SignUpResult };
    return redirectAnswer("/admission/payment", result.userId);
  });
  // A replay signs in too: the same key and fields, password included, are what a login asks for.
  const session = answer.ref ? await sessions.create(answer.ref) : null;
  const cookie = session ? await context.services.sessionCookies.start({ cookie: request.headers.get("cookie") }, session.token) : null;
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
  const navigate = useSettledNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors({ alertMs: TIMING.signUpAlert });
  const { show } = useAlert();
  const [f, setF] = useState(EMPTY);
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setF((v) => ({ ...v, [k]: e.target.value }));
    fix(k);
  };

  useOnNewResult(fetcher.data, (r) => {
    if (r.success) return;
    const taken = r.message === SERVER_MESSAGES.emailTaken;
    if (r.message === PAGE_MESSAGES.noAnswer) return show({ type: "danger", message: r.message });
    report(formRef.current, taken ? { emailAddress: r.message } : { form: r.message });
    if (!taken) return;
    const id = setTimeout(() => navigate("/login"), TIMING.signUpFailureRedirect);
    return () => clearTimeout(id);
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
      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-6 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name={IDEMPOTENCY_FIELD} value={loaderData.idempotencyKey} />
        <TextField label="First name" name="firstName" autoComplete="given-name" value={f.firstName} onChange={set("firstName")} error={errors.firstName} />
        <TextField label="Last name" name="lastName" autoComplete="family-name" value={f.lastName} onChange={set("lastName")} error={errors.lastName} />
        <TextField label="Email address" name="emailAddress" type="email" autoComplete="email" value={f.emailAddress} onChange={set("emailAddress")} className="sm:col-span-2" error={errors.emailAddress} />
        <TextField
          label="Confirm email address"
          name="emailAddressConfirm"
          type="email"
          autoComplete="email"
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
          value={f.passwordConfirm}
          onChange={set("passwordConfirm")}
          className="sm:col-span-2"
          error={errors.passwordConfirm}
          status={f.passwordConfirm ? { ok: passwordsMatch, label: passwordsMatch ? "Passwords match" : "Passwords do not match" } : null}
        />
        <CheckboxField name="emailOptIn" className="sm:col-span-2">
          Yes, send me emails and announcements from the museum (optional)
        </CheckboxField>
        <CheckboxField name="termsAndConditions" className="sm:col-span-2" error={errors.termsAndConditions} onChange={() => fix("termsAndConditions")}>
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
