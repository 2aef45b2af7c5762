/**
 * Reset password (/password/reset?token=...): 'Reset your account password', the two password
 * fields with show/hide and success ticks, 'Submit Request'. The alert above the form clears
 * after 3 s; mismatched passwords are cleared after 3 s; success goes to /login after 3 s.
 */
import { useState, type FormEvent } from "react";
import { data, useFetcher, useNavigate } from "react-router";
import type { Route } from "./+types/password-reset";
import { AlertBox, type Alert } from "~/components/AlertBanner";
import { PasswordField, SubmitButton } from "~/components/FormFields";
import { PASSWORD_MAX, PASSWORD_MIN, passwordResetSchema } from "~/lib/account-schemas";
import { pageMeta } from "~/lib/meta";
import { SERVER_MESSAGES, VALIDATION } from "~/lib/messages";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { clearedSessionCookie } from "../../server/accounts/session-cookie";
import { PASSWORD_RESET } from "../../server/security/throttle";

export async function loader({ request }: Route.LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

type Result = { ok: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = passwordResetSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<Result>({ ok: false, message: parsed.error.issues[0].message }, { status: 400 });
  if (!(await context.services.throttle.allow(PASSWORD_RESET, context.clientIp))) {
    return data<Result>({ ok: false, message: SERVER_MESSAGES.tooManyRequests }, { status: 429 });
  }
  try {
    const ok = await context.services.accounts.resetPassword(parsed.data.token, parsed.data.password);
    if (!ok) return data<Result>({ ok: false, message: SERVER_MESSAGES.resetInvalidToken }, { status: 400 });
  } catch (error) {
    context.logger.error({ err: error }, "password reset failed");
    return data<Result>({ ok: false, message: SERVER_MESSAGES.resetFallback }, { status: 503 });
  }
  return data<Result>(
    { ok: true, message: SERVER_MESSAGES.resetDone },
    { headers: { "Set-Cookie": clearedSessionCookie(context.settings.publicUrl.startsWith("https://")) } },
  );
}

const validLength = (p: string) => p.length >= PASSWORD_MIN && p.length <= PASSWORD_MAX;

export default function PasswordReset({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<Result>();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [alert, setAlert] = useState<Alert | null>(null);

  function flash(next: Alert, then?: () => void) {
    setAlert(next);
    setTimeout(() => {
      setAlert(null);
      then?.();
    }, TIMING.resetAlert);
  }

  useOnNewResult(fetcher.data, (r) => {
    flash({ type: r.ok ? "success" : "danger", message: r.message || SERVER_MESSAGES.resetFallback });
    if (!r.ok) return;
    const id = setTimeout(() => navigate("/login"), TIMING.resetRedirect);
    return () => clearTimeout(id);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (password !== confirm) {
      event.preventDefault();
      flash({ type: "danger", message: VALIDATION.resetPasswordsMismatch }, () => {
        setPassword("");
        setConfirm("");
      });
      return;
    }
    if (!validLength(password)) {
      event.preventDefault();
      flash({ type: "danger", message: VALIDATION.resetPasswordLength });
    }
  }

  const passwordOk = validLength(password);
  const confirmOk = passwordOk && confirm === password;
  const check = passwordResetSchema.safeParse({ token: loaderData.token, password, confirmPassword: confirm });

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Reset your account password</h1>
      <div className="mt-4 min-h-12" data-testid="reset-alert">
        {alert ? <AlertBox alert={alert} /> : null}
      </div>
      <fetcher.Form method="post" noValidate onSubmit={onSubmit} className="mt-2 space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField
          label="Enter your new password (8-16 characters)"
          name="password"
          required
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          status={passwordOk ? { ok: true, label: "Password length is fine" } : null}
        />
        <PasswordField
          label="Confirm your new password"
          name="confirmPassword"
          required
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          status={confirmOk ? { ok: true, label: "Passwords match" } : null}
        />
        <SubmitButton busy={fetcher.state !== "idle"}>Submit Request</SubmitButton>
        <span className="sr-only" aria-live="polite">{check.success ? "Ready to submit" : ""}</span>
      </fetcher.Form>
    </section>
  );
}

export function meta() {
  return [...pageMeta("Reset password", "Choose a new password for your museum account."), { name: "robots", content: "noindex" }];
}
