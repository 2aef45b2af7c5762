/**
 * The link sent to a new email address: signed in to the account that asked, the
 * page shows the new address and a button that makes the change (a POST, so a mail scanner
 * that opens links changes nothing). Used, expired or unknown links and another account's link
 * are refused with a clear message.
 */
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/account-email-confirm";
import { AccountFormPage, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { emailChangeTokenSchema } from "~/lib/account-settings-schemas";
import { requireAccount } from "~/lib/guards.server";
import { formRateLimited } from "~/lib/form-action.server";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";

const REFUSED = { invalid: ACCOUNT_MESSAGES.emailLinkInvalid, other_account: ACCOUNT_MESSAGES.emailLinkOtherAccount, email_taken: ACCOUNT_MESSAGES.emailTaken } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const viewer = requireAccount(context, `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  const parsed = emailChangeTokenSchema.safeParse({ token: url.searchParams.get("token") ?? "" });
  if (!parsed.success) return data({ token: null, newEmail: null, refused: ACCOUNT_MESSAGES.emailLinkInvalid }, { status: 400 });
  const check = await context.services.accountSettings.checkEmailChange(parsed.data.token, viewer.userId);
  if (!check.ok) return data({ token: null, newEmail: null, refused: REFUSED[check.reason] }, { status: check.reason === "invalid" ? 410 : 403 });
  return { token: parsed.data.token, newEmail: check.newEmail, refused: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const url = new URL(request.url);
  const viewer = requireAccount(context, `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  const parsed = emailChangeTokenSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data<FormOutcome>({ ok: false, message: ACCOUNT_MESSAGES.emailLinkInvalid }, { status: 400 });
  const r = await context.services.accountSettings.confirmEmailChange(parsed.data.token, viewer.userId);
  if (!r.ok) return data<FormOutcome>({ ok: false, message: REFUSED[r.reason] }, { status: r.reason === "invalid" ? 410 : r.reason === "email_taken" ? 409 : 403 });
  // Done: the account page says so (this page's link is spent, so its loader would refuse it now).
  return redirect("/account?changed=email");
}

export function meta() {
  return [...pageMeta("Confirm your new email address", "Confirm the new email address of your museum account."), { name: "robots", content: "noindex" }];
}

export default function AccountEmailConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const done = actionData !== undefined;
  return (
    <AccountFormPage title="Confirm your new email address">
      {done ? (
        <Outcome outcome={actionData} />
      ) : loaderData.refused ? (
        <Outcome outcome={{ ok: false, message: loaderData.refused }} />
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p>
            Use <strong data-testid="new-email">{loaderData.newEmail}</strong> as the email address of your account from now on?
          </p>
          <input type="hidden" name="token" value={loaderData.token ?? ""} />
          <button type="submit" className="rounded bg-ink px-6 py-3 font-semibold uppercase tracking-wide text-gold hover:bg-steel">
            Confirm new address
          </button>
        </Form>
      )}
      {done || loaderData.refused ? (
        <p className="mt-6">
          <Link to="/account" className="font-semibold text-steel underline hover:text-ink">
            Go to your account
          </Link>
        </p>
      ) : null}
    </AccountFormPage>
  );
}
