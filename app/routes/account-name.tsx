/** Change the account's name. */
import type { Route } from "./+types/account-name";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { changeNameSchema } from "~/lib/account-settings-schemas";
import { requireAccount } from "~/lib/guards.server";
import { checkedForm, formRateLimited } from "~/lib/form-action.server";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount%2Fname");
  return { firstName: viewer.firstName, lastName: viewer.lastName };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount%2Fname");
  const parsed = await checkedForm(request, changeNameSchema, { keepTyped: true });
  if (!parsed.ok) return parsed.answer;
  await context.services.accountSettings.changeName(viewer.userId, parsed.data);
  return { ok: true, message: ACCOUNT_MESSAGES.nameChanged } as FormOutcome;
}

export function meta() {
  return [...pageMeta("Change your name", "Change the name of your museum account."), { name: "robots", content: "noindex" }];
}

export default function AccountName({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountFormPage title="Change your name">
      <Outcome outcome={actionData} />
      <AccountForm submit="Save name">
        <TextField label="First name" autoComplete="given-name" {...answeredField(actionData, "firstName", loaderData.firstName)} required />
        <TextField label="Last name" autoComplete="family-name" {...answeredField(actionData, "lastName", loaderData.lastName)} required />
      </AccountForm>
    </AccountFormPage>
  );
}
