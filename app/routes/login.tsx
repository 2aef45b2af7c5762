/**
 * Login (spec sections 2, 4, 5): email pattern checked before any request ('Please enter a
 * valid email address', 3.5 s); then paid (/ after 2 s), expired (/admission/payment after 5 s),
 * unpaid (after 7.5 s), or the server's message for 4 s. Members are sent to /.
 * A press before the page's scripts run sends the form natively at once (decision 036): the
 * action's page shows the same banner, marked field, kept email and timed redirect.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { data, Link, useActionData, useFetcher, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { PasskeyButton } from "~/components/PasskeyButton";
import { useFormOutcome } from "~/lib/use-redirect-after";
import type { Route } from "./+types/login";
import { useAlert, type Alert } from "~/components/AlertBanner";
import { EMAIL_INPUT, PasswordField, SubmitButton, TextField } from "~/components/FormFields";
import { EMAIL_PATTERN, loginSchema } from "~/shared/account-schemas";
import { readFlash } from "~/lib/flash.server";
import { staticPageMeta } from "~/lib/meta";
import { PAGE_MESSAGES, SERVER_MESSAGES, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors } from "~/lib/use-form-errors";
import { redirectMembers } from "~/lib/guards.server";
import type { HydrationHandle } from "~/lib/hydration";
import { consoleReturn, secondStep } from "~/lib/staff-sign-in.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  // Not on the page answering this page's own form (decision 036): the new member sees the message first.
  if (!context.formAnswer) redirectMembers(context);
  const flash = readFlash(request.headers.get("cookie"), context.settings.publicUrl);
  const body = { loggedOut: flash.key === "logout" ? SERVER_MESSAGES.logout : null };
  return flash.clear ? data(body, { headers: { "Set-Cookie": flash.clear } }) : body;
}

/**
 * After this page's own login the layout revalidates (member navigation), but this loader must
 * not: it would send the new member to / at once instead of after the success message (2 s).
 */
export function shouldRevalidate({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction === "/login") return false;
  return defaultShouldRevalidate;
}

/** `typed`: the email as typed, sent back with a refusal (never the password), so a form the browser posted itself comes back filled. */
type LoginResult = { login: boolean; expired?: boolean; unpaid?: boolean; message: string; typed?: { emailAddress: string } };

/**
 * What the page shows for a result, the same whether its script or the action's page shows it:
 * the banner and how long it stays, the field marked, and where it goes after how long.
 */
function outcomeOf(r: LoginResult): { alert: Alert; clearAfterMs?: number; field?: "emailAddress" | "password"; redirect?: readonly [string, number] } {
  if (r.login) return { alert: { type: "success", message: r.message }, redirect: ["/", TIMING.loginSuccessRedirect] };
  if (r.expired) return { alert: { type: "warning", message: r.message }, redirect: ["/admission/payment", TIMING.loginExpiredRedirect] };
  if (r.unpaid) return { alert: { type: "warning", message: r.message }, redirect: ["/admission/payment", TIMING.loginUnpaidRedirect] };
  if (r.message === PAGE_MESSAGES.noAnswer) return { alert: { type: "danger", message: r.message } };
  // The browser's own post of a mistyped address (no script at all) reads as the page's own check.
  if (r.message === VALIDATION.loginEmailInvalid) return { alert: { type: "danger", message: r.message }, clearAfterMs: TIMING.invalidEmail, field: "emailAddress" };
  // Which of the two was wrong is not said (no account enumeration): the password is retyped.
  return { alert: { type: "danger", message: r.message }, clearAfterMs: TIMING.loginError, field: "password" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const typed = { emailAddress: typeof form.emailAddress === "string" ? form.emailAddress : "" };
  // Every answer also sets the banner of the page it comes with when the browser posted the form
  // itself (no script running yet, decision 036); a script reads only the result.
  const answer = (result: LoginResult, init?: ResponseInit) => {
    const { alert, clearAfterMs } = outcomeOf(result);
    context.formAnswer = { alert, clearAfterMs };
    return data<LoginResult>(result, init);
  };
  const refuse = (message: string, status: number) => answer({ login: false, message, typed }, { status });
  if (context.rateLimited) return refuse(context.rateLimited, 429);
  const parsed = loginSchema.safeParse(form);
  if (!parsed.success) return refuse(parsed.error.issues[0].message, 400);
  const { accounts, sessionCookies, sessions } = context.services;
  // Slowed down per client IP and account (decision 010); the host limits each IP overall.
  const result = await accounts.startSession(parsed.data.emailAddress, parsed.data.password, context.clientIp, request.headers.get("user-agent"));
  if (result.outcome === "throttled") return refuse(SERVER_MESSAGES.loginRateLimited, 429);
  if (result.outcome === "invalid") return refuse(SERVER_MESSAGES.loginFailed, 401);
  // Staff go on to their second step (decision 055), then to the console (the page the console's
  // guard sent them from, else /admin), never to the membership payment page. A deactivated staff
  // account that is also a member's signs in as the member it is (decision 049).
  if (result.outcome === "second_step") return secondStep(context, request, result.userId, consoleReturn(new URL(request.url).searchParams.get("redirectTo")));
  const headers = { "Set-Cookie": await sessionCookies.start({ cookie: request.headers.get("cookie") }, result.token) };
  // The page this answer comes with shows the new session's header, as the script's reload of the layout does.
  context.viewer = await sessions.viewerFor(result.token);
  const { status, account } = result;
  const message =
    status === "paid" ? SERVER_MESSAGES.loginSuccess(account.firstName) : status === "expired" ? SERVER_MESSAGES.loginExpired : SERVER_MESSAGES.loginUnpaid;
  return answer({ login: status === "paid", expired: status === "expired", unpaid: status === "unpaid", message }, { headers });
}

/** In the browser: no answer (a dropped connection) is shown on the page, with the form kept as typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): LoginResult => ({ login: false, message }));
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<LoginResult>();
  // The action's answer to a form the browser posted itself (decision 036): rendered by the server.
  const posted = useActionData<LoginResult>();
  const answered = posted ? outcomeOf(posted) : null;
  const { show } = useAlert();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors({ initial: answered?.field ? { [answered.field]: posted?.message } : undefined });
  const [email, setEmail] = useState(posted?.typed?.emailAddress ?? "");
  const shownLogout = useRef(false);
  const redirectTo = useSearchParams()[0].get("redirectTo");

  // After logout: the server's alert, scroll to top after 500 ms, alert cleared after 4500 ms.
  useEffect(() => {
    if (!loaderData.loggedOut || shownLogout.current) return;
    shownLogout.current = true;
    show({ type: "success", message: loaderData.loggedOut }, TIMING.logoutAlert);
    const id = setTimeout(() => window.scrollTo({ top: 0 }), TIMING.logoutScroll);
    return () => clearTimeout(id);
  }, [loaderData.loggedOut, show]);

  useFormOutcome(fetcher.data, posted, (r) => outcomeOf(r).redirect, (r) => {
    const { alert, clearAfterMs, field } = outcomeOf(r);
    if (field) report(formRef.current, { [field]: r.message }, { alertMs: clearAfterMs });
    else show(alert, clearAfterMs);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!EMAIL_PATTERN.test(email.trim())) {
      event.preventDefault();
      report(event.currentTarget, { emailAddress: VALIDATION.loginEmailInvalid }, { alertMs: TIMING.invalidEmail });
    }
  }

  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-4xl font-bold uppercase tracking-wide">Member Login</h1>
      {/* Sent at once, natively, when pressed before the scripts run and the address has the
          pattern's shape (decision 036); else held until they run, which check it as the spec says. */}
      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-6 space-y-4" data-submit-early="">
        <TextField
          label="Email address"
          name="emailAddress"
          {...EMAIL_INPUT}
          autoFocus={answered?.field === "emailAddress"}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            fix("emailAddress");
          }}
          error={errors.emailAddress}
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          autoFocus={answered?.field === "password"}
          onChange={() => fix("password")}
          error={errors.password}
        />
        <SubmitButton busy={fetcher.state !== "idle"}>Login Now</SubmitButton>
      </fetcher.Form>
      {/* An extra way in for an account that added a passkey (decision 056); the password stays. */}
      <div className="mt-4">
        <PasskeyButton purpose="sign-in" fields={() => ({ redirectTo: redirectTo ?? "" })} className="w-full rounded border-2 border-ink px-4 py-2 font-semibold hover:bg-stone-100 disabled:opacity-60">
          Sign in with a passkey
        </PasskeyButton>
      </div>
      <p className="mt-6">
        <Link to="/password/request" className="text-blue-800 underline">
          Forgot your password?
        </Link>
      </p>
      <p className="mt-2">
        Not a member yet?{" "}
        <Link to="/admission" className="font-semibold text-blue-800 underline">
          Sign Up Here
        </Link>
      </p>
    </section>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return staticPageMeta(matches, { title: "Login", description: "Log in to your museum account.", path: "/login", card: "page" });
}

// Scripts on intent; at once after a logout, whose alert and scroll are timed (decision 016).
export const handle: HydrationHandle = { hydrate: (data) => ((data as { loggedOut?: string | null } | undefined)?.loggedOut ? "now" : "intent") };
