/**
 * Staff sign-in's second step in the pages (decision 055): the login page hands a staff account
 * whose password was right to `secondStep`, and the step's page (or a passkey) ends it with
 * `finishSignIn`, which starts the session, remembers the browser and goes on to the console.
 */
import { redirect, type AppLoadContext } from "react-router";
import { readCookie, siteCookie } from "../../server/accounts/session-cookie.server";
import { actingRole } from "~/shared/console-areas";
import { DEVICE_DAYS, SIGN_IN_STEP_MS, type SignInStep } from "../../server/accounts/staff-sign-in.server";

export const STEP_COOKIE = "museum_signin";
export const DEVICE_COOKIE = "museum_device";
export const VERIFY_PATH = "/login/verify";

/** A console address to go on to after the sign-in, else /admin. */
export function consoleReturn(value: string | null | undefined): string {
  return value && /^\/admin(?:[/?]|$)/.test(value) && !/[\\\s]/.test(value) ? value : "/admin";
}

const cookieOf = (request: Request) => request.headers.get("cookie");
export const stepTokenOf = (request: Request) => readCookie(cookieOf(request), STEP_COOKIE);

/**
 * After a staff account's right password: straight in on a browser it has signed in on before
 * while it has no app or passkey; else a step that asks for the app's code or a passkey, or the
 * code just emailed.
 */
export async function secondStep(context: AppLoadContext, request: Request, userId: string, back: string): Promise<Response> {
  const { staffSignIn } = context.services;
  const strong = await staffSignIn.hasStrongFactor(userId);
  if (!strong && (await staffSignIn.isKnownDevice(userId, readCookie(cookieOf(request), DEVICE_COOKIE)))) {
    return finishSignIn(context, request, userId, back, null);
  }
  const token = await staffSignIn.startStep(userId, "sign-in", back);
  if (!strong) await staffSignIn.sendEmailCode(token);
  return redirect(VERIFY_PATH, { headers: { "Set-Cookie": siteCookie(STEP_COOKIE, token, SIGN_IN_STEP_MS / 1000, context.settings.publicUrl) } });
}

/** The step the request's cookie holds, while it lasts and is a sign-in's. */
export async function currentStep(context: AppLoadContext, request: Request): Promise<{ token: string; step: SignInStep & { userId: string; email: string } } | null> {
  const token = stepTokenOf(request);
  const step = token ? await context.services.staffSignIn.step(token) : null;
  return token && step && step.purpose === "sign-in" && step.userId && step.email ? { token, step: { ...step, userId: step.userId, email: step.email } } : null;
}

/** Starts the session (the step, if any, ends), remembers the browser, and goes on to `back`. */
export async function finishSignIn(context: AppLoadContext, request: Request, userId: string, back: string, stepToken: string | null): Promise<Response> {
  const { location, headers } = await signedIn(context, request, userId, back, stepToken);
  return redirect(location, { headers });
}

/** `finishSignIn`'s cookies and address, for an answer that is not a redirect (a passkey's JSON). */
export async function signedIn(context: AppLoadContext, request: Request, userId: string, back: string, stepToken: string | null): Promise<{ location: string; headers: Headers }> {
  const { sessions, sessionCookies, staffSignIn } = context.services;
  const publicUrl = context.settings.publicUrl;
  if (stepToken) await staffSignIn.endStep(stepToken);
  const { token } = await sessions.create(userId, { clientIp: context.clientIp, userAgent: request.headers.get("user-agent") });
  const device = await staffSignIn.rememberDevice(userId, readCookie(cookieOf(request), DEVICE_COOKIE));
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookies.start({ cookie: cookieOf(request) }, token));
  headers.append("Set-Cookie", siteCookie(DEVICE_COOKIE, device, DEVICE_DAYS * 86_400, publicUrl));
  if (stepToken) headers.append("Set-Cookie", siteCookie(STEP_COOKIE, "", 0, publicUrl));
  return { location: consoleReturn(back), headers };
}

/**
 * After a password reset: a staff account's browser that opened the link (emailed, or printed by
 * `admin:create` on the machine) is known to it, as after an emailed code. The Set-Cookie, or null.
 */
export async function knownAfterReset(context: AppLoadContext, request: Request, userId: string): Promise<string | null> {
  const user = await context.services.accounts.findById(userId);
  if (!user || actingRole(user) === "member") return null;
  const device = await context.services.staffSignIn.rememberDevice(userId, readCookie(cookieOf(request), DEVICE_COOKIE));
  return siteCookie(DEVICE_COOKIE, device, DEVICE_DAYS * 86_400, context.settings.publicUrl);
}
