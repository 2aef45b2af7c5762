/** Change the account's name. */
import { data } from "react-router";
import type { Route } from "./+types/account-name";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { changeNameSchema } from "~/lib/account-settings-schemas";
import { rateLimitedAnswer, requireAccount } from "~/lib/guards.server";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";
import { fieldErrors, typedValues } from "~/shared/form-errors";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount%2Fname");
  return { firstName: viewer.firstName, lastName: viewer.lastName };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<FormOutcome>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const viewer = requireAccount(context, "/login?redirectTo=%2Faccount%2Fname");
  const form = Object.fromEntries(await request.formData());
  const parsed = changeNameSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return data<FormOutcome>({ ok: false, message: Object.values(errors)[0], errors, values: typedValues(form) }, { status: 400 });
  }
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
