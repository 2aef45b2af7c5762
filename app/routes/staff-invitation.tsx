/**
 * The link of a staff invitation sent to a member's own account (decision 049): the
 * page names the role offered and a button accepts it (a POST, so a mail scanner that opens
 * links grants nothing). Signed in as her, the button alone; signed out, her password on the
 * same form signs her in and accepts (under the login's slow-down). Until she accepts she is
 * not on the staff and the console stays closed. Spent links and another account's are refused.
 */
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/staff-invitation";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { TextField } from "~/components/FormFields";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { SERVER_MESSAGES } from "~/shared/messages";
import { STAFF_MESSAGES } from "~/shared/staff-messages";
import { pageMeta } from "~/lib/meta";

const tokenOf = (value: unknown) => (typeof value === "string" && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null);

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // After accepting (the action's redirect, so the spent link is not read again): the role now held.
  const role = context.viewer?.role;
  if (url.searchParams.has("accepted") && role && role !== "member") return { accepted: STAFF_MESSAGES.accepted(role), refused: null, invitation: null, token: null, signedIn: true };
  const token = tokenOf(url.searchParams.get("token"));
  const invitation = token ? await context.services.admin.staff.checkInvitation(token) : null;
  if (!token || !invitation) return data({ accepted: null, refused: STAFF_MESSAGES.linkInvalid, invitation: null, token: null, signedIn: false }, { status: 410 });
  const viewer = context.viewer;
  if (viewer && viewer.userId !== invitation.userId) return data({ accepted: null, refused: STAFF_MESSAGES.linkOtherAccount, invitation: null, token: null, signedIn: true }, { status: 403 });
  return { accepted: null, refused: null, invitation: { email: invitation.email, role: invitation.role }, token, signedIn: Boolean(viewer) };
}

type AcceptOutcome = FormOutcome;

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<AcceptOutcome>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = Object.fromEntries(await request.formData());
  const token = tokenOf(form.token);
  const { admin, accounts, sessionCookies } = context.services;
  const invitation = token ? await admin.staff.checkInvitation(token) : null;
  if (!token || !invitation) return data<AcceptOutcome>({ ok: false, message: STAFF_MESSAGES.linkInvalid }, { status: 410 });
  let userId = context.viewer?.userId;
  let headers: HeadersInit | undefined;
  if (!userId) {
    // Signed out: her password signs her in first, under the login's slow-down (decision 010).
    const password = typeof form.password === "string" ? form.password : "";
    const started = password ? await accounts.startSession(invitation.email, password, context.clientIp) : ({ outcome: "invalid" } as const);
    if (started.outcome === "throttled") return data<AcceptOutcome>({ ok: false, message: SERVER_MESSAGES.loginRateLimited }, { status: 429 });
    if (started.outcome === "invalid") return data<AcceptOutcome>({ ok: false, message: STAFF_MESSAGES.wrongPassword, errors: { password: STAFF_MESSAGES.wrongPassword } }, { status: 401 });
    if (started.outcome === "second_step") return data<AcceptOutcome>({ ok: false, message: SIGN_IN_MESSAGES.staffOnLoginPage }, { status: 403 });
    userId = started.userId;
    headers = { "Set-Cookie": await sessionCookies.start({ cookie: request.headers.get("cookie") }, started.token) };
  }
  const accepted = await admin.staff.acceptInvitation(token, userId);
  if (!accepted.ok) {
    const message = accepted.reason === "other_account" ? STAFF_MESSAGES.linkOtherAccount : STAFF_MESSAGES.linkInvalid;
    return data<AcceptOutcome>({ ok: false, message }, { status: accepted.reason === "other_account" ? 403 : 410, headers });
  }
  context.logger.info({ user: userId, role: accepted.role }, "staff invitation accepted");
  return redirect("/staff/invitation?accepted", { headers });
}

export function meta() {
  return [...pageMeta("Staff invitation", "Accept an invitation to the museum website's staff console."), { name: "robots", content: "noindex" }];
}

export default function StaffInvitation({ loaderData, actionData }: Route.ComponentProps) {
  const { accepted, invitation, refused, token, signedIn } = loaderData;
  return (
    <AccountFormPage title="Staff invitation" intro={invitation ? <p>{STAFF_MESSAGES.acceptExplained}</p> : undefined}>
      {refused ? <Outcome outcome={{ ok: false, message: refused }} /> : <Outcome outcome={accepted ? { ok: true, message: accepted } : actionData} />}
      {accepted ? (
        <p className="mt-6">
          <Link to="/admin" className="font-semibold text-steel underline hover:text-ink" reloadDocument>
            Open the staff console
          </Link>
        </p>
      ) : invitation && token ? (
        <>
          <h2 className="mt-6 text-xl font-bold">{STAFF_MESSAGES.acceptQuestion(invitation.role)}</h2>
          {signedIn ? null : <p className="mt-2">{STAFF_MESSAGES.acceptSignIn(invitation.email)}</p>}
          <AccountForm submit="Accept the invitation">
            <input type="hidden" name="token" value={token} />
            {signedIn ? null : <TextField label="Your password" type="password" autoComplete="current-password" {...answeredField(actionData, "password")} required />}
          </AccountForm>
        </>
      ) : null}
    </AccountFormPage>
  );
}
