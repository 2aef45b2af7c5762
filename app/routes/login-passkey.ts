/**
 * POST /login/passkey: the server's half of a passkey ceremony (decision 056), called by
 * PasskeyButton with a url-encoded form and answered in JSON. Two calls each:
 *
 * - `intent=begin`: the options for the browser's `navigator.credentials`, with the challenge
 *   kept on a sign-in step (the `museum_signin` cookie). `purpose` is `sign-in` (the login page:
 *   any passkey of this site), `step` (a staff sign-in's second step: the account's passkeys) or
 *   `add` (a signed-in account adds one: its password within the last 10 minutes, or a member's
 *   typed now, checked whenever typed).
 * - `intent=finish` with the browser's `response` (JSON): checked against that challenge once;
 *   a sign-in answers where to go, with the session's cookies; an added passkey answers a message.
 */
import { data } from "react-router";
import type { Route } from "./+types/login-passkey";
import { actingRole, REAUTH_MAX_AGE_MS } from "~/shared/console-areas";
import { SIGN_IN_MESSAGES } from "~/shared/staff-sign-in-words";
import { browserName } from "~/lib/browser-name.server";
import { consoleReturn, currentStep, signedIn, STEP_COOKIE, stepTokenOf } from "~/lib/staff-sign-in.server";
import { siteCookie, sessionTokenFrom } from "../../server/accounts/session-cookie.server";
import { relyingParty, PASSKEY_NAME_MAX } from "../../server/accounts/passkeys.server";
import { SIGN_IN_STEP_MS } from "../../server/accounts/staff-sign-in.server";

/** What a ceremony's call answers (PasskeyButton reads it). */
export type PasskeyAnswer = { options?: unknown; redirect?: string; confirm?: string; ok?: boolean; message?: string; field?: "password" };

const MAX_RESPONSE_CHARS = 16_000;

function parsed(text: string): unknown {
  if (!text || text.length > MAX_RESPONSE_CHARS) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const refuse = (message: string, status: number, extra: Partial<PasskeyAnswer> = {}) => data<PasskeyAnswer>({ ok: false, message, ...extra }, { status });
  if (context.rateLimited) return refuse(context.rateLimited, 429);
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const { passkeys, staffSignIn, sessions, accounts, admin } = context.services;
  const publicUrl = context.settings.publicUrl;
  const rp = relyingParty(publicUrl, request);
  const purpose = text("purpose");
  const intent = text("intent");
  const stepCookie = (token: string) => ({ "Set-Cookie": siteCookie(STEP_COOKIE, token, SIGN_IN_STEP_MS / 1000, publicUrl) });

  if (intent === "begin" && purpose === "sign-in") {
    const options = await passkeys.authenticationOptions(null, rp);
    const token = await staffSignIn.startStep(null, "passkey", consoleReturnOrNull(text("redirectTo")), options.challenge);
    return data<PasskeyAnswer>({ options }, { headers: stepCookie(token) });
  }
  if (intent === "begin" && purpose === "step") {
    const current = await currentStep(context, request);
    if (!current) return refuse(SIGN_IN_MESSAGES.stepEnded, 410);
    const options = await passkeys.authenticationOptions(current.step.userId, rp);
    await staffSignIn.setChallenge(current.token, options.challenge);
    return { options } satisfies PasskeyAnswer;
  }
  if (intent === "begin" && purpose === "add") {
    const viewer = context.viewer;
    if (!viewer) return refuse(SIGN_IN_MESSAGES.passkeySignedOut, 401);
    const sessionToken = sessionTokenFrom(request.headers.get("cookie"));
    const age = await sessions.passwordAgeMs(sessionToken);
    const recent = age !== null && age <= REAUTH_MAX_AGE_MS;
    // Staff confirm on the console's own page (password and the app's code).
    if (viewer.role !== "member" && !recent) return { confirm: "/admin/confirm-password?redirectTo=%2Fadmin%2Fsecurity" } satisfies PasskeyAnswer;
    // A member types the password here: needed when it was last given over 10 minutes ago, and checked whenever typed.
    const password = viewer.role === "member" ? text("password").slice(0, 200) : "";
    if (!password && !recent) return refuse(SIGN_IN_MESSAGES.passkeyPasswordMissing, 400, { field: "password" });
    if (password) {
      if (!(await admin.staff.checkPassword(viewer.userId, password))) return refuse(SIGN_IN_MESSAGES.passkeyPassword, 400, { field: "password" });
      if (sessionToken) await sessions.markPasswordEntered(sessionToken);
    }
    const options = await passkeys.registrationOptions(viewer.userId, rp);
    if (!options) return refuse(SIGN_IN_MESSAGES.passkeySignedOut, 401);
    const token = await staffSignIn.startStep(viewer.userId, "register", null, options.challenge);
    return data<PasskeyAnswer>({ options }, { headers: stepCookie(token) });
  }
  if (intent !== "finish") return refuse("Unknown action.", 400);

  const token = stepTokenOf(request);
  const step = token ? await staffSignIn.step(token) : null;
  const response = parsed(text("response"));
  if (!token || !step?.challenge) return refuse(SIGN_IN_MESSAGES.stepEnded, 410);
  const ended = { "Set-Cookie": siteCookie(STEP_COOKIE, "", 0, publicUrl) };

  if (step.purpose === "register") {
    const viewer = context.viewer;
    await staffSignIn.endStep(token);
    if (!viewer || viewer.userId !== step.userId) return refuse(SIGN_IN_MESSAGES.passkeySignedOut, 401);
    const name = text("name").replace(/[\p{Cc}\p{Cf}]/gu, "").trim().slice(0, PASSKEY_NAME_MAX) || browserName(request.headers.get("user-agent"));
    const added = response ? await passkeys.register(viewer.userId, { userId: viewer.userId, email: viewer.emailAddress }, response as never, step.challenge, rp, name) : false;
    if (!added) return data<PasskeyAnswer>({ ok: false, message: SIGN_IN_MESSAGES.passkeyNotAdded }, { status: 400, headers: ended });
    return data<PasskeyAnswer>({ ok: true, message: SIGN_IN_MESSAGES.passkeyAdded }, { headers: ended });
  }

  // A sign-in: the login page's (any account) or a staff sign-in's second step (that account's).
  const forAccount = step.purpose === "sign-in" ? step.userId : null;
  const userId = response && (step.purpose === "passkey" || forAccount) ? await passkeys.authenticate(response as never, step.challenge, rp, forAccount) : null;
  if (!userId) {
    // The login page's step ends with its one try; a second step keeps its own count of failures.
    if (step.purpose === "passkey") await staffSignIn.endStep(token);
    else if (await staffSignIn.stepFailed(token)) return refuse(SIGN_IN_MESSAGES.stepEnded, 410);
    return data<PasskeyAnswer>({ ok: false, message: SIGN_IN_MESSAGES.passkeyFailed }, { status: 401, headers: step.purpose === "passkey" ? ended : undefined });
  }
  const user = await accounts.findById(userId);
  if (!user) return refuse(SIGN_IN_MESSAGES.passkeyFailed, 401);
  if (actingRole(user) !== "member") {
    const { location, headers } = await signedIn(context, request, userId, step.redirectTo ?? "/admin", token);
    return data<PasskeyAnswer>({ redirect: location }, { headers });
  }
  await staffSignIn.endStep(token);
  const { token: session } = await sessions.create(userId, { clientIp: context.clientIp, userAgent: request.headers.get("user-agent") });
  const headers = new Headers(ended);
  headers.append("Set-Cookie", await context.services.sessionCookies.start({ cookie: request.headers.get("cookie") }, session));
  // As the login page: a member with a valid ticket goes home, one without to the admission payment.
  const paid = accounts.status(user.validThrough) === "paid";
  return data<PasskeyAnswer>({ redirect: paid ? "/" : "/admission/payment" }, { headers });
}

/** A console address the login page was sent from, else none (a member's sign-in goes by the ticket). */
function consoleReturnOrNull(value: string): string | null {
  return value ? consoleReturn(value) : null;
}
