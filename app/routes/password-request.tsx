/**
 * Forgot password: one email field, 'Submit Request'. Empty: 'Please provide a valid email
 * address.' The answer is the same whether or not the account exists; / after 3 s.
 */
import { useRef, useState, type FormEvent } from "react";
import { data, useFetcher } from "react-router";
import { useSettledNavigate } from "~/lib/use-redirect-after";
import type { Route } from "./+types/password-request";
import { useAlert } from "~/components/AlertBanner";
import { SubmitButton, TextField } from "~/components/FormFields";
import { passwordResetRequestSchema } from "~/shared/account-schemas";
import { staticPageMeta } from "~/lib/meta";
import { SERVER_MESSAGES, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors } from "~/lib/use-form-errors";
import { rateLimitedAnswer } from "~/lib/guards.server";

type Result = { ok: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<Result>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const parsed = passwordResetRequestSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<Result>({ ok: false, message: VALIDATION.forgotEmailRequired }, { status: 400 });
  try {
    await context.services.accounts.requestPasswordReset(parsed.data.emailAddress);
  } catch (error) {
    context.logger.error({ err: error }, "password reset request failed");
    return data<Result>({ ok: false, message: SERVER_MESSAGES.forgotFallback }, { status: 503 });
  }
  return { ok: true, message: SERVER_MESSAGES.resetRequested } satisfies Result;
}

/** In the browser: no answer (a dropped connection) is shown on the page, with the form kept as typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): Result => ({ ok: false, message }));
}

export default function PasswordRequest() {
  const fetcher = useFetcher<Result>();
  const navigate = useSettledNavigate();
  const { show } = useAlert();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors();
  const [email, setEmail] = useState("");

  useOnNewResult(fetcher.data, (r) => {
    if (!r.ok) {
      if (r.message === VALIDATION.forgotEmailRequired) report(formRef.current, { emailAddress: r.message });
      else show({ type: "danger", message: r.message || SERVER_MESSAGES.forgotFallback });
      return;
    }
    show({ type: "success", message: r.message });
    const id = setTimeout(() => navigate("/"), TIMING.forgotPasswordRedirect);
    return () => clearTimeout(id);
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
      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <TextField
          label="Email address"
          name="emailAddress"
          type="email"
          autoComplete="email"
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
