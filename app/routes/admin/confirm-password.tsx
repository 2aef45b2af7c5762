/**
 * /admin/confirm-password: refunds, role changes, staff invitations, exports of personal data
 * and changes of one's second factors ask for the password again when it was last entered more
 * than 10 minutes ago, with the authenticator app's code (or a recovery code) when the account
 * has an app (decision 055); this page takes them and sends the staff member back to the page
 * they came from, where they send the form again.
 */
import { Form, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/confirm-password";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { sessionTokenFrom } from "../../../server/accounts/session-cookie.server";
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { consoleAnswer, formText, requireConsole, safeReturnPath, type ConsoleResult } from "./guard.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const redirectTo = safeReturnPath(new URL(request.url).searchParams.get("redirectTo"));
  const { app } = await context.services.staffSignIn.factors(staff.userId);
  return { redirectTo, refund: /[?&]resume=refund(?:&|$)/.test(redirectTo), app };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const token = sessionTokenFrom(request.headers.get("cookie"));
  if (!token || !(await context.services.admin.staff.checkPassword(staff.userId, formText(form, "password")))) {
    return consoleAnswer({ ok: false, message: "That password is not right.", errors: { password: "That password is not right." } });
  }
  const signIn = context.services.staffSignIn;
  if ((await signIn.factors(staff.userId)).app) {
    const checked = await signIn.checkCode(staff.userId, formText(form, "code"), context.clientIp);
    if (checked !== "ok") {
      const message = checked === "throttled" ? SIGN_IN_MESSAGES.throttled : checked === "used" ? SIGN_IN_MESSAGES.usedCode : SIGN_IN_MESSAGES.wrongCode;
      return consoleAnswer({ ok: false, message, errors: { code: message } }, checked === "throttled" ? 429 : 400);
    }
  }
  await context.services.sessions.markPasswordEntered(token);
  return redirect(safeReturnPath(formText(form, "redirectTo")));
}

export default function ConfirmPassword({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const error = result && "errors" in result ? result.errors?.password : undefined;
  const codeError = result && "errors" in result ? result.errors?.code : undefined;
  return (
    <section className="max-w-md">
      <ConsoleHeading>Confirm your password</ConsoleHeading>
      <p className="mb-4">
        This action needs your password again{loaderData.app ? ", with a code from your authenticator app" : ""} (it was last entered more than 10 minutes ago).
      </p>
      {loaderData.refund ? (
        <p className="mb-4 font-semibold" data-testid="refund-waiting">
          Nothing has been refunded yet. After your password you go back to the refund, ready to confirm.
        </p>
      ) : null}
      <ConsoleNotice result={result && "ok" in result ? result : null} />
      <Form method="post" className="space-y-4">
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field label="Password" name="password" error={error}>
          <input {...inputProps("password", error)} type="password" autoComplete="current-password" required />
        </Field>
        {loaderData.app ? (
          <Field label="Code from your authenticator app, or a recovery code" name="code" error={codeError}>
            <input {...inputProps("code", codeError)} autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} maxLength={20} required />
          </Field>
        ) : null}
        <PrimaryButton busy={busy}>Confirm</PrimaryButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Confirm your password | Staff console" }];
}
