/** Change the password: the current one is asked; every other session ends. */
import { data } from "react-router";
import type { Route } from "./+types/account-password";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { changePasswordSchema } from "~/lib/account-settings-schemas";
import { requireAccount } from "~/lib/guards.server";
import { checkedForm, formRateLimited } from "~/lib/form-action.server";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";
import { sessionTokenFrom } from "../../server/accounts/session-cookie.server";

const BACK = "/login?redirectTo=%2Faccount%2Fpassword";

export async function loader({ context }: Route.LoaderArgs) {
  requireAccount(context, BACK);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const viewer = requireAccount(context, BACK);
  const parsed = await checkedForm(request, changePasswordSchema);
  if (!parsed.ok) return parsed.answer;
  const token = sessionTokenFrom(request.headers.get("cookie")) ?? "";
  const outcome = await context.services.accountSettings.changePassword(viewer.userId, token, parsed.data.currentPassword, parsed.data.password);
  if (outcome === "wrong_password") {
    return data<FormOutcome>({ ok: false, message: ACCOUNT_MESSAGES.wrongPassword, errors: { currentPassword: ACCOUNT_MESSAGES.wrongPassword } }, { status: 400 });
  }
  return { ok: true, message: ACCOUNT_MESSAGES.passwordChanged } as FormOutcome;
}

export function meta() {
  return [...pageMeta("Change your password", "Change the password of your museum account."), { name: "robots", content: "noindex" }];
}

export default function AccountPassword({ actionData }: Route.ComponentProps) {
  const field = (name: string) => answeredField(actionData, name);
  return (
    <AccountFormPage title="Change your password" intro={<p>Every other device signed in to your account is signed out when you change it.</p>}>
      <Outcome outcome={actionData} />
      <AccountForm submit="Change password">
        <TextField label="Current password" type="password" autoComplete="current-password" {...field("currentPassword")} required />
        <TextField label="New password (8 to 16 characters)" type="password" autoComplete="new-password" {...field("password")} required />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...field("passwordConfirm")} required />
      </AccountForm>
    </AccountFormPage>
  );
}
