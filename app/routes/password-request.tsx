/**
 * Forgot password: one email field, 'Submit Request'. Empty: 'Please provide a valid email
 * address.' The answer is the same whether or not the account exists; / after 3 s.
 * A press before the page's scripts run is the browser's own post: the action's page shows the
 * same banner, marked field, kept address and timed redirect (decision 036).
 */
import { useRef, useState, type FormEvent } from "react";
import { data, useActionData, useFetcher } from "react-router";
import { useFormOutcome } from "~/lib/use-redirect-after";
import type { Route } from "./+types/password-request";
import { useAlert, type Alert } from "~/components/AlertBanner";
import { SubmitButton, TextField } from "~/components/FormFields";
import { passwordResetRequestSchema } from "~/shared/account-schemas";
import { staticPageMeta } from "~/lib/meta";
import { SERVER_MESSAGES, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors } from "~/lib/use-form-errors";

/** `typed`: the address as typed, sent back so a form the browser posted itself comes back filled. */
type Result = { ok: boolean; message: string; typed?: { emailAddress: string } };

/**
 * What the page shows for a result, the same whether its script or the action's page shows it:
 * the banner (it stays until the page is left), the field marked, and the timed redirect.
 */
function outcomeOf(r: Result): { alert: Alert; field?: "emailAddress"; redirect?: readonly [string, number] } {
  if (r.ok) return { alert: { type: "success", message: r.message }, redirect: ["/", TIMING.forgotPasswordRedirect] };
  if (r.message === VALIDATION.forgotEmailRequired) return { alert: { type: "danger", message: r.message }, field: "emailAddress" };
  return { alert: { type: "danger", message: r.message || SERVER_MESSAGES.forgotFallback } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const typed = { emailAddress: typeof form.emailAddress === "string" ? form.emailAddress : "" };
  // Every answer also sets the banner of the page it comes with when the browser posted the form
  // itself (no script running yet, decision 036); a script reads only the result.
  const answer = (result: Result, init?: ResponseInit) => {
    context.formAnswer = { alert: outcomeOf(result).alert };
    return data<Result>({ ...result, typed }, init);
  };
  if (context.rateLimited) return answer({ ok: false, message: context.rateLimited }, { status: 429 });
  const parsed = passwordResetRequestSchema.safeParse(form);
  if (!parsed.success) return answer({ ok: false, message: VALIDATION.forgotEmailRequired }, { status: 400 });
  try {
    await context.services.accounts.requestPasswordReset(parsed.data.emailAddress);
  } catch (error) {
    context.logger.error({ err: error }, "password reset request failed");
    return answer({ ok: false, message: SERVER_MESSAGES.forgotFallback }, { status: 503 });
  }
  return answer({ ok: true, message: SERVER_MESSAGES.resetRequested });
}

/** In the browser: no answer (a dropped connection) is shown on the page, with the form kept as typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): Result => ({ ok: false, message }));
}

export default function PasswordRequest() {
  const fetcher = useFetcher<Result>();
  // The action's answer to a form the browser posted itself (decision 036): rendered by the server.
  const posted = useActionData<Result>();
  const answered = posted ? outcomeOf(posted) : null;
  const { show } = useAlert();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors({ initial: answered?.field ? { [answered.field]: posted?.message } : undefined });
  const [email, setEmail] = useState(posted?.typed?.emailAddress ?? "");

  useFormOutcome(fetcher.data, posted, (r) => outcomeOf(r).redirect, (r) => {
    const { alert, field } = outcomeOf(r);
    if (field) report(formRef.current, { [field]: r.message });
    else show(alert);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (email.trim() === "") {
      event.preventDefault();
      report(event.currentTarget, { emailAddress: VALIDATION.forgotEmailRequired });
    }
  }

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Forgot your password?</h1>
      <p className="mt-3">Enter the email address of your account and we will send you a link to choose a new password.</p>
      {/* Before the scripts run a press is the browser's own post, answered as the script shows it (decision 036). */}
      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-6 space-y-4" data-submit-early="">
        <TextField
          label="Email address"
          name="emailAddress"
          type="email"
          autoComplete="email"
          required
          autoFocus={answered?.field === "emailAddress"}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            fix("emailAddress");
          }}
          error={errors.emailAddress}
        />
        <SubmitButton busy={fetcher.state !== "idle"}>Submit Request</SubmitButton>
      </fetcher.Form>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, { title: "Forgot password", description: "Request a link to reset your museum account password.", path: "/password/request", card: "page" });
}
