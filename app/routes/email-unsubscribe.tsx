/**
 * The unsubscribe link of the ticket reminders: `List-Unsubscribe` points here with a
 * signed token. A POST (the mail client's one click, RFC 8058, or the button on this page) turns
 * the account's reminders off; a GET only asks, so a mail scanner opening links changes nothing.
 * No sign-in needed: the token names the account and is signed by the site. Mail providers post
 * from their servers (no Origin); a browser page of another site is refused as for every form.
 */
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/email-unsubscribe";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { ACCOUNT_MESSAGES } from "~/shared/messages";

type Answer = { state: "ask" | "done" | "invalid"; message: string; token: string };

async function accountOf(request: Request, context: Route.LoaderArgs["context"], form?: FormData) {
  const inUrl = new URL(request.url).searchParams.get("token");
  const token = inUrl ?? (typeof form?.get("token") === "string" ? String(form.get("token")) : "");
  const userId = context.services.reminders.accountOfToken(token);
  const on = userId ? await context.services.reminders.remindersOn(userId) : null;
  return { token, tokenInUrl: inUrl !== null, userId: on === null ? null : userId, remindersOn: on === true };
}

const invalid = (token: string) => data<Answer>({ state: "invalid", message: ACCOUNT_MESSAGES.unsubscribeLinkInvalid, token }, { status: 404 });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { token, userId, remindersOn } = await accountOf(request, context);
  if (!userId) return invalid(token);
  // Opened again once they are off (or shown after a post that carried its token in the body).
  if (!remindersOn) return { state: "done", message: ACCOUNT_MESSAGES.unsubscribed, token } satisfies Answer;
  return { state: "ask", message: ACCOUNT_MESSAGES.unsubscribeConfirm, token } satisfies Answer;
}

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<Answer>(context, (message) => ({ state: "invalid", message, token: "" }));
  if (limited) return limited;
  const { token, tokenInUrl, userId } = await accountOf(request, context, await request.formData().catch(() => undefined));
  if (!userId || !(await context.services.reminders.setRemindersOn(userId, false))) return invalid(token);
  // The page's answer comes from its loader too, which reads the token from the address only: a
  // post that carried it in the body alone is sent to the address that names it (303).
  if (!tokenInUrl) throw redirect(`/email/unsubscribe?token=${encodeURIComponent(token)}`, 303);
  return { state: "done", message: ACCOUNT_MESSAGES.unsubscribed, token } satisfies Answer;
}

export function meta() {
  return [...pageMeta("Ticket reminders", "Stop the museum's ticket reminder emails."), { name: "robots", content: "noindex" }];
}

export default function EmailUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData ?? loaderData;
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Ticket reminders</h1>
      <p role={answer.state === "invalid" ? "alert" : "status"} className="mt-4" data-testid="unsubscribe-message">
        {answer.message}
      </p>
      {answer.state === "ask" ? (
        <Form method="post" className="mt-6">
          <input type="hidden" name="token" value={answer.token} />
          <button type="submit" className="rounded bg-ink px-6 py-3 font-semibold uppercase tracking-wide text-gold hover:bg-steel">
            Stop ticket reminders
          </button>
        </Form>
      ) : null}
      <p className="mt-6">
        <Link to="/account" className="font-semibold text-steel underline hover:text-ink">
          Your account
        </Link>
      </p>
    </section>
  );
}
