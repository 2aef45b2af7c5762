/**
 * Change the email address: the current password is asked; nothing changes until
 * the link sent to the new address is opened by this account. The old address is told.
 */
import { data } from "react-router";
import type { Route } from "./+types/account-email";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { changeEmailSchema } from "~/lib/account-settings-schemas";
import { requireAccount } from "~/lib/guards.server";
import { checkedForm, formRateLimited } from "~/lib/form-action.server";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";
import { typedValues } from "~/shared/form-errors";

const BACK = "/login?redirectTo=%2Faccount%2Femail";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAccount(context, BACK);
  return { emailAddress: viewer.emailAddress };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const viewer = requireAccount(context, BACK);
  const parsed = await checkedForm(request, changeEmailSchema, { keepTyped: true });
  if (!parsed.ok) return parsed.answer;
  const values = typedValues(parsed.form);
  const r = await context.services.accountSettings.requestEmailChange(viewer.userId, parsed.data.emailAddress, parsed.data.currentPassword);
  if (!r.ok) {
    const [field, message, status] =
      r.reason === "wrong_password"
        ? ["currentPassword", ACCOUNT_MESSAGES.wrongPassword, 400]
        : r.reason === "same_email"
          ? ["emailAddress", ACCOUNT_MESSAGES.sameEmail, 400]
          : r.reason === "email_taken"
            ? ["emailAddress", ACCOUNT_MESSAGES.emailTaken, 409]
            : ["form", ACCOUNT_MESSAGES.emailLinkInvalid, 404];
    return data<FormOutcome>({ ok: false, message, errors: { [field]: message }, values }, { status });
  }
  return { ok: true, message: ACCOUNT_MESSAGES.emailChangeSent(parsed.data.emailAddress) } as FormOutcome;
}

export function meta() {
  return [...pageMeta("Change your email address", "Change the email address of your museum account."), { name: "robots", content: "noindex" }];
}

export default function AccountEmail({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountFormPage
      title="Change your email address"
      intro={
        <p>
          Your account uses <strong data-testid="current-email">{loaderData.emailAddress}</strong>. We will send a link to the new address; the change
          takes effect once you open it, signed in to this account.
        </p>
      }
    >
      <Outcome outcome={actionData} />
      <AccountForm submit="Send the link">
        <TextField label="New email address" type="email" autoComplete="email" {...answeredField(actionData, "emailAddress")} required />
        <TextField label="Current password" type="password" autoComplete="current-password" {...answeredField(actionData, "currentPassword")} required />
      </AccountForm>
    </AccountFormPage>
  );
}
