/**
 * 'Delete my account': the password is asked again; then the personal data and every
 * session go at once, payments stay anonymized, and the address may sign up again.
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/account-delete";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { deleteAccountSchema } from "~/lib/account-settings-schemas";
import { requireAccount } from "~/lib/guards.server";
import { checkedForm, formRateLimited } from "~/lib/form-action.server";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";

const BACK = "/login?redirectTo=%2Faccount%2Fdelete";

export async function loader({ context }: Route.LoaderArgs) {
  requireAccount(context, BACK);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const viewer = requireAccount(context, BACK);
  const parsed = await checkedForm(request, deleteAccountSchema);
  if (!parsed.ok) return parsed.answer;
  const outcome = await context.services.accountLifecycle.deleteAccount(viewer.userId, parsed.data.currentPassword);
  if (outcome === "wrong_password") {
    return data<FormOutcome>({ ok: false, message: ACCOUNT_MESSAGES.wrongPassword, errors: { currentPassword: ACCOUNT_MESSAGES.wrongPassword } }, { status: 400 });
  }
  if (outcome === "staff") return data<FormOutcome>({ ok: false, message: ACCOUNT_MESSAGES.staffCannotDelete }, { status: 403 });
  context.logger.info({ user: viewer.userId }, "account deleted by its owner");
  return redirect("/account/deleted", { headers: { "Set-Cookie": context.services.sessionCookies.cleared() } });
}

export function meta() {
  return [...pageMeta("Delete your account", "Delete your museum account."), { name: "robots", content: "noindex" }];
}

export default function AccountDelete({ actionData }: Route.ComponentProps) {
  return (
    <AccountFormPage
      title="Delete your account"
      intro={
        <>
          <p>
            This deletes your name, email address, password, newsletter subscription and every signed-in session at once, and cannot be undone. A ticket
            still running ends with it, without a refund.
          </p>
          <p className="mt-2">
            Records of your payments are kept without your name, email address or card digits, as the law on bookkeeping asks (see the{" "}
            <a href="/privacypolicy" className="font-semibold text-steel underline hover:text-ink">
              privacy policy
            </a>
            ). You may want to <a href="/account/data" className="font-semibold text-steel underline hover:text-ink">download your data</a> first.
          </p>
        </>
      }
    >
      <Outcome outcome={actionData} />
      <AccountForm submit="Delete my account">
        <TextField label="Your password" type="password" autoComplete="current-password" {...answeredField(actionData, "currentPassword")} required />
      </AccountForm>
    </AccountFormPage>
  );
}
