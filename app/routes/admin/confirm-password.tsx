/**
 * /admin/confirm-password: refunds, role changes and exports of personal data ask for the
 * password again when it was last entered more than 10 minutes ago; this page takes it and
 * sends the staff member back to the page they came from, where they send the form again.
 */
import { Form, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/confirm-password";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { sessionTokenFrom } from "../../../server/accounts/session-cookie.server";
import { consoleAnswer, formText, requireConsole, safeReturnPath, type ConsoleResult } from "./guard.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "dashboard");
  const redirectTo = safeReturnPath(new URL(request.url).searchParams.get("redirectTo"));
  return { redirectTo, refund: /[?&]resume=refund(?:&|$)/.test(redirectTo) };
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
  await context.services.sessions.markPasswordEntered(token);
  return redirect(safeReturnPath(formText(form, "redirectTo")));
}

export default function ConfirmPassword({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const error = result && "errors" in result ? result.errors?.password : undefined;
  return (
    <section className="max-w-md">
      <ConsoleHeading>Confirm your password</ConsoleHeading>
      <p className="mb-4">This action needs your password again (it was last entered more than 10 minutes ago).</p>
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
        <PrimaryButton busy={busy}>Confirm</PrimaryButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Confirm your password | Staff console" }];
}
