/**
 * The gift's redeem link (decision 018). Opening it changes nothing (mail scanners
 * open links): the page says who gave the ticket, with their message, and a button. Signed in,
 * the button adds the ticket to the account; signed out, the page offers to sign in or to
 * create an account (the recipient's address filled in), and redeems in the same step. A link
 * already redeemed, expired, revoked by a refund or unknown gets its own clear message.
 */
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/gift-redeem";
import { Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { CheckboxField, PasswordField, SubmitButton, TextField } from "~/components/FormFields";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { loginSchema, signUpSchema } from "~/shared/account-schemas";
import { GIFT_MESSAGES, type RedeemRefusal } from "~/shared/gift-schemas";
import { SERVER_MESSAGES } from "~/shared/messages";
import { fieldErrors } from "~/shared/form-errors";

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

const REFUSED: Record<RedeemRefusal, { message: string; status: number }> = {
  invalid: { message: GIFT_MESSAGES.linkInvalid, status: 404 },
  redeemed: { message: GIFT_MESSAGES.linkRedeemed, status: 410 },
  expired: { message: GIFT_MESSAGES.linkExpired, status: 410 },
  revoked: { message: GIFT_MESSAGES.linkRevoked, status: 410 },
};

export async function loader({ params, context }: Route.LoaderArgs) {
  const check = TOKEN.test(params.token) ? await context.services.gifts.check(params.token) : ({ ok: false, reason: "invalid" } as const);
  if (!check.ok) return data({ refused: REFUSED[check.reason].message, gift: null, viewer: null }, { status: REFUSED[check.reason].status });
  const g = check.gift;
  const v = context.viewer;
  return {
    refused: null,
    gift: { from: `${g.buyerFirstName} ${g.buyerLastName}`, message: g.message, days: g.daysGranted, recipient: { firstName: g.recipientFirstName, lastName: g.recipientLastName, email: g.recipientEmail } },
    viewer: v ? { firstName: v.firstName, email: v.emailAddress } : null,
  };
}

type RedeemOutcome = FormOutcome & { form?: "signin" | "signup" };

export async function action({ request, params, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<RedeemOutcome>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  if (!TOKEN.test(params.token)) return data<RedeemOutcome>({ ok: false, message: GIFT_MESSAGES.linkInvalid }, { status: 404 });
  const form = Object.fromEntries(await request.formData());
  const { accounts, gifts, sessions, sessionCookies } = context.services;
  const carrier = { cookie: request.headers.get("cookie") };
  let userId = context.viewer?.userId ?? null;
  let cookie: string | null = null;

  if (form.intent === "signin") {
    const parsed = loginSchema.safeParse(form);
    if (!parsed.success) return data<RedeemOutcome>({ ok: false, form: "signin", message: parsed.error.issues[0].message, errors: fieldErrors(parsed.error) }, { status: 400 });
    const result = await accounts.startSession(parsed.data.emailAddress, parsed.data.password, context.clientIp);
    if (result.outcome === "throttled") return data<RedeemOutcome>({ ok: false, form: "signin", message: SERVER_MESSAGES.loginRateLimited }, { status: 429 });
    if (result.outcome === "invalid") return data<RedeemOutcome>({ ok: false, form: "signin", message: SERVER_MESSAGES.loginFailed }, { status: 401 });
    if (result.outcome === "second_step") return data<RedeemOutcome>({ ok: false, form: "signin", message: SIGN_IN_MESSAGES.staffOnLoginPage }, { status: 403 });
    userId = result.userId;
    cookie = await sessionCookies.start(carrier, result.token);
  } else if (form.intent === "signup") {
    const parsed = signUpSchema.safeParse(form);
    if (!parsed.success) return data<RedeemOutcome>({ ok: false, form: "signup", message: parsed.error.issues[0].message, errors: fieldErrors(parsed.error) }, { status: 400 });
    const result = await accounts.signUp(parsed.data);
    if (!result.ok) return data<RedeemOutcome>({ ok: false, form: "signup", message: SERVER_MESSAGES.emailTaken }, { status: 409 });
    userId = await sessions.userIdFor(result.token);
    cookie = await sessionCookies.start(carrier, result.token);
  }
  if (!userId) return data<RedeemOutcome>({ ok: false, message: "Please sign in or create an account to redeem your gift." }, { status: 401 });

  const headers: HeadersInit = cookie ? { "Set-Cookie": cookie } : {};
  const r = await gifts.redeem(params.token, userId);
  if (!r.ok) return data<RedeemOutcome>({ ok: false, message: REFUSED[r.reason].message }, { status: REFUSED[r.reason].status, headers });
  // The account page says so, with the ticket's new last day (this page's link is spent now).
  return redirect("/account?gift=redeemed", { headers });
}

export function meta() {
  return [...pageMeta("Redeem your gift ticket", "Redeem a museum ticket someone gave you."), { name: "robots", content: "noindex" }];
}

const H2 = "font-display text-xl font-bold uppercase tracking-wide";

export default function GiftRedeem({ loaderData: l, actionData: a }: Route.ComponentProps) {
  const errors = a?.errors ?? {};
  const signinErrors = a?.form === "signin" ? errors : {};
  const signupErrors = a?.form === "signup" ? errors : {};
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Your gift ticket</h1>
      <Outcome outcome={a} />
      {l.refused && !a ? <Outcome outcome={{ ok: false, message: l.refused }} /> : null}
      {l.refused ? (
        <p className="mt-6">
          <Link to="/gift" className="font-semibold text-steel underline hover:text-ink">
            Give a ticket yourself
          </Link>
        </p>
      ) : l.gift ? (
        <>
          <p className="mt-4 text-lg" data-testid="gift-from">
            {`${l.gift.from} gave you a ticket: ${l.gift.days} days of full access to the museum.`}
          </p>
          {l.gift.message ? <blockquote className="mt-3 whitespace-pre-line border-l-4 border-gold pl-4 italic">{l.gift.message}</blockquote> : null}
          {l.viewer ? (
            <Form method="post" className="mt-6">
              <input type="hidden" name="intent" value="redeem" />
              <p className="mb-3">{`You are signed in as ${l.viewer.email}.`}</p>
              <SubmitButton busy={false}>Add the ticket to my account</SubmitButton>
            </Form>
          ) : (
            <>
              <Form method="post" noValidate className="mt-6 space-y-4 rounded border border-stone-300 bg-white p-5" aria-labelledby="redeem-signin">
                <h2 id="redeem-signin" className={H2}>
                  I have an account
                </h2>
                <input type="hidden" name="intent" value="signin" />
                <TextField label="Email address" name="emailAddress" type="email" autoComplete="email" defaultValue={l.gift.recipient.email} error={signinErrors.emailAddress} required />
                <PasswordField label="Password" name="password" autoComplete="current-password" error={signinErrors.password} required />
                <SubmitButton busy={false}>Sign in and redeem</SubmitButton>
              </Form>
              <Form method="post" noValidate className="mt-6 space-y-4 rounded border border-stone-300 bg-white p-5" aria-labelledby="redeem-signup">
                <h2 id="redeem-signup" className={H2}>
                  I am new here
                </h2>
                <input type="hidden" name="intent" value="signup" />
                <TextField label="First name" name="firstName" autoComplete="given-name" defaultValue={l.gift.recipient.firstName} error={signupErrors.firstName} required />
                <TextField label="Last name" name="lastName" autoComplete="family-name" defaultValue={l.gift.recipient.lastName} error={signupErrors.lastName} required />
                <TextField label="Your email address" name="emailAddress" type="email" autoComplete="email" defaultValue={l.gift.recipient.email} error={signupErrors.emailAddress} required />
                <TextField label="Confirm your email address" name="emailAddressConfirm" type="email" autoComplete="email" defaultValue={l.gift.recipient.email} error={signupErrors.emailAddressConfirm} required />
                <PasswordField label="Choose a password" name="password" autoComplete="new-password" error={signupErrors.password} required />
                <PasswordField label="Confirm your password" name="passwordConfirm" autoComplete="new-password" error={signupErrors.passwordConfirm} required />
                <CheckboxField name="termsAndConditions" error={signupErrors.termsAndConditions}>
                  I agree to the{" "}
                  <Link to="/termsandconditions" className="text-blue-800 underline" target="_blank">
                    Terms and Conditions
                  </Link>
                </CheckboxField>
                <SubmitButton busy={false}>Create my account and redeem</SubmitButton>
              </Form>
            </>
          )}
        </>
      ) : null}
    </section>
  );
}
