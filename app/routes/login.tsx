/**
 * Login (spec sections 2, 4, 5): email pattern checked before any request ('Please enter a
 * valid email address', 3.5 s); then paid (/ after 2 s), expired (/admission/payment after 5 s),
 * unpaid (after 7.5 s), or the server's message for 4 s. Members are sent to /.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { data, Link, redirect, useFetcher, type ShouldRevalidateFunctionArgs } from "react-router";
import { useSettledNavigate } from "~/lib/use-redirect-after";
import type { Route } from "./+types/login";
import { useAlert } from "~/components/AlertBanner";
import { PasswordField, SubmitButton, TextField } from "~/components/FormFields";
import { EMAIL_PATTERN, loginSchema } from "~/shared/account-schemas";
import { readFlash } from "~/lib/flash.server";
import { staticPageMeta } from "~/lib/meta";
import { PAGE_MESSAGES, SERVER_MESSAGES, VALIDATION } from "~/shared/messages";
import { TIMING } from "~/lib/timing";
import { useOnNewResult } from "~/lib/use-timed-result";
import { orNoAnswer } from "~/lib/no-answer";
import { useFormErrors } from "~/lib/use-form-errors";
import { rateLimitedAnswer, redirectMembers } from "~/lib/guards.server";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ request, context }: Route.LoaderArgs) {
  redirectMembers(context);
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

type LoginResult = { login: boolean; expired?: boolean; unpaid?: boolean; message: string };

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<LoginResult>(context, (message) => ({ login: false, message }));
  if (limited) return limited;
  const form = Object.fromEntries(await request.formData());
  const parsed = loginSchema.safeParse(form);
  if (!parsed.success) return data<LoginResult>({ login: false, message: parsed.error.issues[0].message }, { status: 400 });
  const { accounts, sessionCookies } = context.services;
  // Slowed down per client IP and account (decision 010); the host limits each IP overall.
  const result = await accounts.startSession(parsed.data.emailAddress, parsed.data.password, context.clientIp);
  if (result.outcome === "throttled") return data<LoginResult>({ login: false, message: SERVER_MESSAGES.loginRateLimited }, { status: 429 });
  if (result.outcome === "invalid") return data<LoginResult>({ login: false, message: SERVER_MESSAGES.loginFailed }, { status: 401 });
  const headers = { "Set-Cookie": await sessionCookies.start({ cookie: request.headers.get("cookie") }, result.token) };
  // Staff go to the console (the page the console's guard sent them from, else /admin), never to
  // the membership payment page: a staff account's membership status is not theirs to settle here.
  const back = new URL(request.url).searchParams.get("redirectTo");
  if ((await accounts.findById(result.userId))?.role !== "member") return redirect(back && /^\/admin(?:[/?]|$)/.test(back) ? back : "/admin", { headers });
  const { status, account } = result;
  const message =
    status === "paid" ? SERVER_MESSAGES.loginSuccess(account.firstName) : status === "expired" ? SERVER_MESSAGES.loginExpired : SERVER_MESSAGES.loginUnpaid;
  return data<LoginResult>({ login: status === "paid", expired: status === "expired", unpaid: status === "unpaid", message }, { headers });
}

/** In the browser: no answer (a dropped connection) is shown on the page, with the form kept as typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return orNoAnswer(serverAction, (message): LoginResult => ({ login: false, message }));
}

export default function Login({ loaderData }: Route.ComponentProps) {
  const fetcher = useFetcher<LoginResult>();
  const navigate = useSettledNavigate();
  const { show } = useAlert();
  const formRef = useRef<HTMLFormElement>(null);
  const { errors, report, fix } = useFormErrors();
  const [email, setEmail] = useState("");
  const shownLogout = useRef(false);

  // After logout: the server's alert, scroll to top after 500 ms, alert cleared after 4500 ms.
  useEffect(() => {
    if (!loaderData.loggedOut || shownLogout.current) return;
    shownLogout.current = true;
    show({ type: "success", message: loaderData.loggedOut }, TIMING.logoutAlert);
    const id = setTimeout(() => window.scrollTo({ top: 0 }), TIMING.logoutScroll);
    return () => clearTimeout(id);
  }, [loaderData.loggedOut, show]);

  useOnNewResult(fetcher.data, (r) => {
    let to: string | null = null;
    let after = 0;
    if (r.login) {
      show({ type: "success", message: r.message });
      [to, after] = ["/", TIMING.loginSuccessRedirect];
    } else if (r.expired) {
      show({ type: "warning", message: r.message });
      [to, after] = ["/admission/payment", TIMING.loginExpiredRedirect];
    } else if (r.unpaid) {
      show({ type: "warning", message: r.message });
      [to, after] = ["/admission/payment", TIMING.loginUnpaidRedirect];
    } else if (r.message === PAGE_MESSAGES.noAnswer) {
      show({ type: "danger", message: r.message });
    } else {
      // Which of the two was wrong is not said (no account enumeration): the password is retyped.
      report(formRef.current, { password: r.message }, { alertMs: TIMING.loginError });
    }
    if (!to) return;
    const target = to;
    const id = setTimeout(() => navigate(target), after);
    return () => clearTimeout(id);
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
        <PasswordField label="Password" name="password" autoComplete="current-password" onChange={() => fix("password")} error={errors.password} />
        <SubmitButton busy={fetcher.state !== "idle"}>Login Now</SubmitButton>
      </fetcher.Form>
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
