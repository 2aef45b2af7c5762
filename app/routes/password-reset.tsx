/**
 * Reset password (/password/reset?token=...): 'Reset your account password', the two password
 * fields with show/hide and success ticks, 'Submit Request'. The alert above the form clears
 * after 3 s; mismatched passwords are cleared after 3 s; success goes to /login after 3 s.
 */
import { knownAfterReset } from "~/lib/staff-sign-in.server";
import { useRef, useState, type FormEvent } from "react";
import { data, Link, useActionData, useFetcher, type ShouldRevalidateFunctionArgs } from "react-router";
import { useSettledNavigate } from "~/lib/use-redirect-after";
import type { Route } from "./+types/password-reset";
import { AlertBox, type Alert } from "~/components/AlertBanner";
import { PasswordField, SubmitButton } from "~/components/FormFields";
import { PASSWORD_MAX, PASSWORD_MIN, passwordResetSchema, TOKEN_MISSING } from "~/shared/account-schemas";
import { pageMeta } from "~/lib/meta";
import { SERVER_MESSAGES, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors, type FieldErrors } from "~/lib/use-form-errors";
import { rateLimitedAnswer } from "~/lib/guards.server";

/** What the page says, instead of its form, for a link that cannot set a password. */
const LINK_ENDED = {
  used: SERVER_MESSAGES.resetLinkUsed,
  expired: SERVER_MESSAGES.resetLinkExpired,
  unknown: SERVER_MESSAGES.resetLinkUnknown,
} as const;

/**
 * The link is checked as it is opened (nothing is spent): without a token, with one cut short,
 * used or expired, the page says so and offers a new link, with no form to fill in vain. The
 * page itself answers 200: after a form the browser posted itself, React Router would send the
 * loader's status with the action's answer (a successful reset is then a used link).
 */
export async function loader({ request, context }: Route.LoaderArgs): Promise<{ token: string; ended: string | null }> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (token === "") return { token, ended: TOKEN_MISSING };
  const state = tokenProblem(token) ? "unknown" : await context.services.accounts.resetLinkState(token);
  return state === "usable" ? { token, ended: null } : { token: "", ended: LINK_ENDED[state] };
}

/** After its own post the page keeps what it shows (the outcome, then /login): the link it spent is not read again. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

type Result = { ok: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<Result>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const parsed = passwordResetSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<Result>({ ok: false, message: parsed.error.issues[0].message }, { status: 400 });
  let reset: Awaited<ReturnType<typeof context.services.accounts.resetPassword>>;
  try {
    reset = await context.services.accounts.resetPassword(parsed.data.token, parsed.data.password);
    if (!reset) return data<Result>({ ok: false, message: SERVER_MESSAGES.resetInvalidToken }, { status: 400 });
  } catch (error) {
    context.logger.error({ err: error }, "password reset failed");
    return data<Result>({ ok: false, message: SERVER_MESSAGES.resetFallback }, { status: 503 });
  }
  const headers = new Headers({ "Set-Cookie": context.services.sessionCookies.cleared() });
  // The link proves the mailbox as an emailed code does: a staff account's next sign-in here asks none (decision 055).
  const device = await knownAfterReset(context, request, reset.userId);
  if (device) headers.append("Set-Cookie", device);
  return data<Result>({ ok: true, message: SERVER_MESSAGES.resetDone }, { headers });
}

const validLength = (p: string) => p.length >= PASSWORD_MIN && p.length <= PASSWORD_MAX;

/** What is wrong with the link's token (the schema's own words), or null when it looks usable. */
function tokenProblem(token: string): string | null {
  const sample = "x".repeat(PASSWORD_MIN);
  const check = passwordResetSchema.safeParse({ token, password: sample, confirmPassword: sample });
  return check.error?.issues.find((i) => i.path[0] === "token")?.message ?? null;
}

/** The field a server answer is about, if it is about one. */
function fieldOf(message: string): FieldErrors {
  if (message === VALIDATION.resetPasswordLength) return { password: message };
  if (message === VALIDATION.resetPasswordsMismatch) return { confirmPassword: message };
  return {};
}

/** In the browser: no answer (a dropped connection) is shown on the page, with the form kept as typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): Result => ({ ok: false, message }));
}

export default function PasswordReset({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<Result>();
  const navigate = useSettledNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [alert, setAlert] = useState<Alert | null>(null);
  // A browser without scripts posted the form itself: the action's answer, not the spent link's state.
  const posted = useActionData<Result>();
  const shown = alert ?? (posted && !fetcher.data ? ({ type: posted.ok ? "success" : "danger", message: posted.message } as Alert) : null);
  const ended = posted ? null : loaderData.ended;
  const formRef = useRef<HTMLFormElement>(null);
  // This page's alert box sits above its short form (spec), so the banner is not used.
  const { errors, report, fix, reset } = useFormErrors({ announce: false });

  function flash(next: Alert, then?: () => void) {
    setAlert(next);
    setTimeout(() => {
      setAlert(null);
      then?.();
    }, TIMING.resetAlert);
  }

  useOnNewResult(fetcher.data, (r) => {
    flash({ type: r.ok ? "success" : "danger", message: r.message || SERVER_MESSAGES.resetFallback });
    if (!r.ok) report(formRef.current, fieldOf(r.message));
    if (!r.ok) return;
    const id = setTimeout(() => navigate("/login"), TIMING.resetRedirect);
    return () => clearTimeout(id);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (password !== confirm) {
      event.preventDefault();
      report(event.currentTarget, { confirmPassword: VALIDATION.resetPasswordsMismatch });
      flash({ type: "danger", message: VALIDATION.resetPasswordsMismatch }, () => {
        setPassword("");
        setConfirm("");
        reset();
      });
      return;
    }
    if (!validLength(password)) {
      event.preventDefault();
      report(event.currentTarget, { password: VALIDATION.resetPasswordLength });
      flash({ type: "danger", message: VALIDATION.resetPasswordLength });
    }
  }

  const passwordOk = validLength(password);
  const confirmOk = passwordOk && confirm === password;
  const check = passwordResetSchema.safeParse({ token: loaderData.token, password, confirmPassword: confirm });

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Reset your account password</h1>
      {ended ? (
        // Said on arrival: without a usable link no new password can be set, so no form is shown.
        <div className="mt-4 space-y-2" data-testid="reset-token-missing">
          <AlertBox alert={{ type: "danger", message: ended }} />
          <p>
            <Link to="/password/request" className="font-semibold text-blue-800 underline">
              Request a new reset link
            </Link>
          </p>
        </div>
      ) : (
        <>
          <div className="mt-4 min-h-12" data-testid="reset-alert">
            {shown ? <AlertBox alert={shown} /> : null}
          </div>
          <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-2 space-y-4">
            <input type="hidden" name="token" value={loaderData.token} />
            <PasswordField
              label="Enter your new password (8-16 characters)"
              name="password"
              required
              autoComplete="new-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                fix("password");
              }}
              error={errors.password}
              status={passwordOk ? { ok: true, label: "Password length is fine" } : null}
            />
            <PasswordField
              label="Confirm your new password"
              name="confirmPassword"
              required
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => {
                setConfirm(e.target.value);
                fix("confirmPassword");
              }}
              error={errors.confirmPassword}
              status={confirmOk ? { ok: true, label: "Passwords match" } : null}
            />
            <SubmitButton busy={fetcher.state !== "idle"}>Submit Request</SubmitButton>
            <span className="sr-only" aria-live="polite">{check.success ? "Ready to submit" : ""}</span>
          </fetcher.Form>
        </>
      )}
    </section>
  );
}

export function meta() {
  return [...pageMeta("Reset password", "Choose a new password for your museum account."), { name: "robots", content: "noindex" }];
}
