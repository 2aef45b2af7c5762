/**
 * Guards for loaders and actions, so a route reads top to bottom as the rules it enforces:
 * each one returns what it proved or throws the redirect (or answers) that the rule asks for.
 */
import { data, redirect, type AppLoadContext } from "react-router";
import { canSeeMemberContent } from "../shared/access";

/** Whether member-only content may go into this answer (the one access rule, app/shared/access.ts). */
export function seesMemberContent(context: AppLoadContext): boolean {
  return canSeeMemberContent(context.viewer);
}

/** Sign-up and login are for everyone else: a member is sent on (to / by default). */
export function redirectMembers(context: AppLoadContext, to = "/"): void {
  if (canSeeMemberContent(context.viewer)) throw redirect(to);
}

/** The signed-in account (paid or not), or the redirect to /login. */
export function requireAccount(context: AppLoadContext, to = "/login"): NonNullable<AppLoadContext["viewer"]> {
  if (!context.viewer) throw redirect(to);
  return context.viewer;
}

/**
 * Staff only (the console): a signed-out person is sent to /login and back; anyone else signed
 * in gets 404, as if the page did not exist.
 */
export function requireStaff(context: AppLoadContext, request: Request, roles: readonly string[] = ["admin"]) {
  const viewer = context.viewer;
  if (!viewer) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (!roles.includes(viewer.role)) throw data(null, { status: 404 });
  return viewer;
}

/**
 * The answer of an action whose client is over its rate limit (counted by the host's limiter,
 * server/security/limits.ts), shaped as the page reads its results; null when it may go on.
 */
export function rateLimitedAnswer<T>(context: AppLoadContext, answer: (message: string) => T) {
  return context.rateLimited ? data(answer(context.rateLimited), { status: 429 }) : null;
}
