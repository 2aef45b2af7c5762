/**
 * The console's guards (decision 015). Every loader and action of /admin starts with
 * `requireConsole(context, request, area)`: a signed-out person is sent to /login and back,
 * anyone whose role may not open `area` (visitors' sessions, members, a curator at an admin-only
 * page, a deactivated account) gets 404 as if the page did not exist. Sensitive actions then
 * call `requireRecentPassword`, which sends the staff member to enter the password again when it
 * was last entered more than 10 minutes ago.
 */
import { data, redirect, type AppLoadContext } from "react-router";
import { requireStaff } from "~/lib/guards.server";
import { calendarDateIn, clockTimeIn } from "~/shared/calendar";
import { sessionTokenFrom } from "../../../server/accounts/session-cookie.server";
import type { EditConflict } from "~/shared/edit-conflict";
import { CONSOLE_AREAS, REAUTH_MAX_AGE_MS, type ConsoleArea, type StaffRole } from "~/shared/console-areas";

export interface StaffViewer {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: StaffRole;
}

/** Console pages a staff member the owner's requirement holds back may still open: where factors are set up. */
const SETUP_PAGES = new Set(["/admin/security", "/admin/confirm-password", "/admin/stay-signed-in"]);

export function requireConsole(context: AppLoadContext, request: Request, area: ConsoleArea): StaffViewer {
  const viewer = requireStaff(context, request, CONSOLE_AREAS[area]);
  // The owner requires an app or a passkey and this account has neither: setting one up comes first (decision 055).
  if (viewer.mustSetUpFactor) {
    const path = new URL(request.url).pathname.replace(/\.data$/, "").replace(/\/$/, "");
    if (!SETUP_PAGES.has(path)) throw redirect("/admin/security?setup");
  }
  return { userId: viewer.userId, email: viewer.emailAddress, firstName: viewer.firstName, lastName: viewer.lastName, role: viewer.role as StaffRole };
}

/** The actor written into audit rows. */
export const actorOf = (staff: StaffViewer) => ({ userId: staff.userId, email: staff.email });

/** Where the password page sends the staff member back to; only console addresses. */
export function safeReturnPath(value: string | null | undefined, fallback = "/admin"): string {
  if (!value || !value.startsWith("/admin") || value.startsWith("//") || /[\\\s]/.test(value)) return fallback;
  return value;
}

/**
 * Throws the redirect to the password page unless the password was entered on this session
 * within the last 10 minutes. `returnTo` is the page to come back to (the form is sent again there).
 */
export async function requireRecentPassword(context: AppLoadContext, request: Request, returnTo: string): Promise<void> {
  const token = sessionTokenFrom(request.headers.get("cookie"));
  const age = await context.services.sessions.passwordAgeMs(token);
  if (age !== null && age <= REAUTH_MAX_AGE_MS) return;
  throw redirect(`/admin/confirm-password?redirectTo=${encodeURIComponent(safeReturnPath(returnTo))}`);
}

/** An action's answer shaped for the console's forms; `conflict` when the record changed since the form was opened (decision 029). */
/** `deleteRefused`: a delete was refused (the record is in use): the page shows why beside its delete button (TrashConfirm.tsx). */
export type ConsoleResult = { ok: boolean; message: string; errors?: Record<string, string>; values?: Record<string, string>; conflict?: EditConflict; deleteRefused?: boolean };

/** A refused form's text fields, sent back so the page shows them as typed (also without JavaScript). */
export function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && key.length < 64) values[key] = value.slice(0, 50_000);
  return values;
}

/** The answer with its status: 200 done, 409 refused because someone else saved first, `status` (400) otherwise. */
export function consoleAnswer(result: ConsoleResult, status = result.ok ? 200 : 400) {
  return data(result, { status: result.conflict ? 409 : status });
}

/** A refund's form carries `confirm=yes` once its box is ticked (RefundForm); without it, this refusal. */
/**
 * The refund the password check interrupted: the check sends the staff member back to
 * `?resume=refund&id=<record>` (see `refundReturnTo`), where the page says plainly that nothing
 * was refunded yet and opens that refund's form, ticked, to finish with one click.
 */
export function resumedRefund(url: URL): string | null {
  if (url.searchParams.get("resume") !== "refund") return null;
  const id = url.searchParams.get("id") ?? "";
  return /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}

/** Where the password check returns after interrupting a refund of `id` on `page`. */
export function refundReturnTo(page: string, id: string): string {
  return `${page}?${new URLSearchParams({ resume: "refund", id }).toString()}`;
}

export function unconfirmedRefund(form: FormData) {
  return formText(form, "confirm") === "yes" ? null : consoleAnswer({ ok: false, message: "Tick the box to confirm the refund; nothing was changed." });
}

export function formText(form: FormData, name: string): string {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
}

/**
 * The console's dates and times on the museum's clock (MUSEUM_TIME_ZONE), as its staff read them:
 * someone who joined at 9 p.m. in Pittsburgh joined that day, not the next one in UTC.
 */
export function museumClock(context: AppLoadContext) {
  const timeZone = context.services.config.MUSEUM_TIME_ZONE;
  return {
    day: (at: Date) => calendarDateIn(timeZone, at),
    minute: (at: Date) => clockTimeIn(timeZone, at),
    second: (at: Date) => clockTimeIn(timeZone, at, { seconds: true }),
  };
}
