/**
 * The link of a staff invitation. A new staff member's (decision 063): the page says
 * "Choose your password for the staff console" and the console opens once it is saved (the
 * emailed link proves the mailbox, as a sign-in code does: decision 055); a used, replaced or
 * expired link says so as it opens, with no form. A member's own account's (decision 049): the
 * page names the role offered and a button accepts it (a POST, so a mail scanner that opens
 * links grants nothing). Signed in as her, the button alone; signed out, her password on the
 * same form signs her in and accepts (under the login's slow-down). Until she accepts she is
 * not on the staff and the console stays closed. Spent links and another account's are refused.
 */
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/staff-invitation";
import { AccountForm, AccountFormPage, answeredField, Outcome, type FormOutcome } from "~/components/account/AccountForm";
import { PasswordField, TextField } from "~/components/FormFields";
import { finishSignIn } from "~/lib/staff-sign-in.server";
import { passwordResetSchema } from "~/shared/account-schemas";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { SERVER_MESSAGES } from "~/shared/messages";
import { STAFF_MESSAGES } from "~/shared/staff-messages";
import { pageMeta } from "~/lib/meta";

const tokenOf = (value: unknown) => (typeof value === "string" && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null);

/** What the page says, instead of its form, for a new staff member's link that cannot choose a password. */
const NEW_LINK_ENDED = { used: STAFF_MESSAGES.newLinkUsed, replaced: STAFF_MESSAGES.newLinkReplaced, expired: STAFF_MESSAGES.newLinkExpired } as const;

const NOTHING = { accepted: null, refused: null, invitation: null, choose: null, token: null, signedIn: false, signInLink: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // After accepting (the action's redirect, so the spent link is not read again): the role now held.
  const role = context.viewer?.role;
  if (url.searchParams.has("accepted") && role && role !== "member") return { ...NOTHING, accepted: STAFF_MESSAGES.accepted(role), signedIn: true };
  const token = tokenOf(url.searchParams.get("token"));
  const { staff } = context.services.admin;
  const invitation = token ? await staff.checkInvitation(token) : null;
  if (token && !invitation) {
    // A new staff member's link: checked as it opens (nothing is spent).
    const link = await staff.passwordInvitation(token);
    if (link.state === "usable") return { ...NOTHING, choose: { email: link.email, role: link.role }, token, signedIn: Boolean(context.viewer) };
    if (link.state !== "unknown") return data({ ...NOTHING, refused: NEW_LINK_ENDED[link.state], signInLink: link.state === "used" }, { status: 410 });
  }
  if (!token || !invitation) return data({ ...NOTHING, refused: STAFF_MESSAGES.linkInvalid }, { status: 410 });
  const viewer = context.viewer;
  if (viewer && viewer.userId !== invitation.userId) return data({ ...NOTHING, refused: STAFF_MESSAGES.linkOtherAccount, signedIn: true }, { status: 403 });
  return { ...NOTHING, invitation: { email: invitation.email, role: invitation.role }, token, signedIn: Boolean(viewer) };
}

/** A new staff member chooses the password with the link; the session starts and the console opens. */
async function choosePassword(request: Request, context: Route.ActionArgs["context"], form: Record<string, FormDataEntryValue>) {
  const parsed = passwordResetSchema.safeParse(form);
  const token = tokenOf(form.token);
  const link = token ? await context.services.admin.staff.passwordInvitation(token) : ({ state: "unknown" } as const);
  if (link.state !== "usable") return data<AcceptOutcome>({ ok: false, message: link.state === "unknown" ? STAFF_MESSAGES.linkInvalid : NEW_LINK_ENDED[link.state] }, { status: 410 });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return data<AcceptOutcome>({ ok: false, message: issue.message, errors: { [String(issue.path[0])]: issue.message } }, { status: 400 });
  }
  const reset = await context.services.accounts.resetPassword(parsed.data.token, parsed.data.password);
  if (!reset) return data<AcceptOutcome>({ ok: false, message: STAFF_MESSAGES.linkInvalid }, { status: 410 });
  context.logger.info({ user: reset.userId }, "staff invitation: password chosen");
  return finishSignIn(context, request, reset.userId, "/admin", null);
}

type AcceptOutcome = FormOutcome;

export async function action({ request, context }: Route.ActionArgs) {
  const limited = rateLimitedAnswer<AcceptOutcome>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "choose") return choosePassword(request, context, form);
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
  const { accepted, invitation, choose, refused, token, signedIn, signInLink } = loaderData;
  if (choose && token) {
    return (
      <AccountFormPage title={STAFF_MESSAGES.chooseTitle} intro={<p>{STAFF_MESSAGES.chooseIntro(choose.email, choose.role)}</p>} back={false}>
        <Outcome outcome={actionData} />
        <AccountForm submit={STAFF_MESSAGES.chooseSubmit}>
          <input type="hidden" name="intent" value="choose" />
          <input type="hidden" name="token" value={token} />
          {/* The account's address, for the browser's password manager to save the password with. */}
          <input type="email" name="username" value={choose.email} autoComplete="username" readOnly hidden />
          <PasswordField label="Your new password (8-16 characters)" autoComplete="new-password" required {...answeredField(actionData, "password")} defaultValue={undefined} />
          <PasswordField label="Confirm your new password" autoComplete="new-password" required {...answeredField(actionData, "confirmPassword")} defaultValue={undefined} />
        </AccountForm>
      </AccountFormPage>
    );
  }
  return (
    <AccountFormPage title="Staff invitation" intro={invitation ? <p>{STAFF_MESSAGES.acceptExplained}</p> : undefined} back={!refused || signedIn}>
      {refused ? <Outcome outcome={{ ok: false, message: refused }} /> : <Outcome outcome={accepted ? { ok: true, message: accepted } : actionData} />}
      {signInLink ? (
        <p className="mt-6">
          <Link to="/login?redirectTo=%2Fadmin" className="font-semibold text-steel underline hover:text-ink">
            Sign in to the staff console
          </Link>
        </p>
      ) : null}
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
