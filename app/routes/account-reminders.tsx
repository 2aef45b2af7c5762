/**
 * Turn the ticket's expiry reminders on or off. The account page's button posts here
 * and comes back to /account with the outcome; a refused post (bad value, rate limit) shows it
 * here, with the button again.
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/account-reminders";
import { AccountFormPage, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { RemindersForm } from "~/components/account/RemindersForm";
import { requireAccount } from "~/lib/guards.server";
import { formRateLimited } from "~/lib/form-action.server";
import { pageMeta } from "~/lib/meta";
import { ACCOUNT_MESSAGES } from "~/shared/messages";

const SIGN_IN = "/login?redirectTo=%2Faccount";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAccount(context, SIGN_IN);
  const on = await context.services.reminders.remindersOn(viewer.userId);
  if (on === null) throw data(null, { status: 404 });
  return { on, words: on ? ACCOUNT_MESSAGES.remindersOn(context.services.config.REMINDER_DAYS) : ACCOUNT_MESSAGES.remindersOff };
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = formRateLimited(context);
  if (limited) return limited;
  const viewer = requireAccount(context, SIGN_IN);
  const choice = (await request.formData()).get("reminders");
  if (choice !== "on" && choice !== "off") return data<FormOutcome>({ ok: false, message: ACCOUNT_MESSAGES.remindersChoice }, { status: 400 });
  await context.services.reminders.setRemindersOn(viewer.userId, choice === "on");
  return redirect("/account?changed=reminders");
}

export function meta() {
  return [...pageMeta("Ticket reminders", "Turn the museum's ticket reminder emails on or off."), { name: "robots", content: "noindex" }];
}

export default function AccountReminders({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountFormPage title="Ticket reminders">
      <Outcome outcome={actionData} />
      <p className="mt-4" data-testid="reminders-status">
        {loaderData.words}
      </p>
      <RemindersForm on={loaderData.on} />
    </AccountFormPage>
  );
}
