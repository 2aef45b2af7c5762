/**
 * /login/verify: a staff sign-in's second step (decision 055), after the right password
 * on the login page. The code from the authenticator app or a recovery code, or a passkey, when
 * the account has one (decision 056); else the six-digit code just emailed (this browser has not signed in to
 * the account before). Plain POST forms, so it works before and without JavaScript.
 */
import { Form, data, Link, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/login-verify";
import { Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { SubmitButton, TextField } from "~/components/FormFields";
import { PasskeyButton } from "~/components/PasskeyButton";
import { formRateLimited } from "~/lib/form-action.server";
import { pageMeta } from "~/lib/meta";
import { currentStep, finishSignIn, STEP_COOKIE } from "~/lib/staff-sign-in.server";
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { siteCookie } from "../../server/accounts/session-cookie.server";

/** The address the code went to, shown with most of its name hidden: the page is before the sign-in. */
function maskedEmail(email: string): string {
  const [name, domain] = email.split("@");
  return `${name.slice(0, 2)}${"•".repeat(Math.max(1, Math.min(6, name.length - 2)))}@${domain}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const current = await currentStep(context, request);
  // No step (ended, expired, or this page opened by itself): the page says so and links to the login.
  if (!current) return { ended: true, app: false, passkey: false, emailedTo: null };
  const factors = await context.services.staffSignIn.factors(current.step.userId);
  return {
    ended: false,
    app: factors.app,
    passkey: factors.passkeys.length > 0,
    emailedTo: factors.app || factors.passkeys.length ? null : maskedEmail(current.step.email),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const current = await currentStep(context, request);
  const ended = (message: string = SIGN_IN_MESSAGES.stepEnded) =>
    data<FormOutcome>({ ok: false, message }, { status: 410, headers: { "Set-Cookie": siteCookie(STEP_COOKIE, "", 0, context.settings.publicUrl) } });
  if (!current) return ended();
  const { token, step } = current;
  const signIn = context.services.staffSignIn;
  const form = await request.formData();
  if (form.get("intent") === "resend") {
    const sent = await signIn.sendEmailCode(token);
    if (sent === "ended") return ended();
    return data<FormOutcome>({ ok: sent === "sent", message: sent === "sent" ? SIGN_IN_MESSAGES.emailSent : SIGN_IN_MESSAGES.emailResendWait }, { status: sent === "sent" ? 200 : 429 });
  }
  const code = String(form.get("code") ?? "").slice(0, 40);
  const strong = await signIn.hasStrongFactor(step.userId);
  const checked = strong ? await signIn.checkCode(step.userId, code, context.clientIp) : await signIn.checkEmailCode(token, code, context.clientIp);
  if (checked === "ok") return finishSignIn(context, request, step.userId, step.redirectTo ?? "/admin", token);
  if (checked === "throttled") return data<FormOutcome>({ ok: false, message: SIGN_IN_MESSAGES.throttled, errors: { code: SIGN_IN_MESSAGES.throttled } }, { status: 429 });
  if (await signIn.stepFailed(token)) return ended();
  const message = checked === "used" ? SIGN_IN_MESSAGES.usedCode : SIGN_IN_MESSAGES.wrongCode;
  return data<FormOutcome>({ ok: false, message, errors: { code: message } }, { status: 400 });
}

export function meta() {
  return [...pageMeta("Confirm it is you", "The second step of a staff sign-in."), { name: "robots", content: "noindex" }];
}

export default function LoginVerify({ loaderData }: Route.ComponentProps) {
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const { app, passkey, emailedTo } = loaderData;
  const ended = loaderData.ended || outcome?.message === SIGN_IN_MESSAGES.stepEnded;
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Confirm it is you</h1>
      <p className="mt-3" hidden={ended}>
        {emailedTo
          ? `Your password was right. We emailed a six-digit code to ${emailedTo}: enter it to finish signing in on this browser.`
          : "Your password was right. Finish signing in with your second step."}
      </p>
      <Outcome outcome={outcome ?? (loaderData.ended ? { ok: false, message: SIGN_IN_MESSAGES.stepEnded } : undefined)} />
      {ended ? (
        <p className="mt-6">
          <Link to="/login" className="font-semibold text-steel underline hover:text-ink">
            Back to the login page
          </Link>
        </p>
      ) : (
        <>
          {app || emailedTo ? (
            <Form method="post" noValidate className="mt-6 space-y-4">
              <TextField
                label={app ? "Code from your authenticator app, or a recovery code" : "Code from the email"}
                name="code"
                inputMode={app ? "text" : "numeric"}
                autoComplete="one-time-code"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={20}
                required
                autoFocus
                error={outcome?.errors?.code}
              />
              <SubmitButton busy={busy}>Verify</SubmitButton>
            </Form>
          ) : null}
          {passkey ? (
            <div className="mt-6">
              <PasskeyButton purpose="step" className="w-full rounded bg-ink px-4 py-2 font-semibold text-white disabled:opacity-60">
                Use a passkey
              </PasskeyButton>
            </div>
          ) : null}
          {emailedTo ? (
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="resend" />
              <button type="submit" className="font-semibold text-steel underline hover:text-ink">
                Email me a new code
              </button>
            </Form>
          ) : null}
          <p className="mt-6">
            <Link to="/login" className="text-steel underline hover:text-ink">
              Start again with another account
            </Link>
          </p>
        </>
      )}
    </section>
  );
}
