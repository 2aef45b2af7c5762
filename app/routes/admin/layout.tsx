/**
 * The staff console's layout (/admin): its navigation, who is signed in, and the outlet. Its
 * loader is the first guard of every console page; each page's own loader and action check
 * their area again, since React Router may call a child's loader or action alone.
 */
import { Form, Link, Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { ConsoleNav } from "~/components/admin/ConsoleNav";
import { SessionClock } from "~/components/admin/SessionClock";
import consoleStylesheet from "~/console.css?url";
import { requireConsole } from "./guard.server";

/** Console pages that exist (the navigation shows only these). */
export const CONSOLE_PAGES = ["/admin", "/admin/teams", "/admin/categories", "/admin/exhibits", "/admin/enshrinees", "/admin/banner", "/admin/media", "/admin/trash", "/admin/messages", "/admin/members", "/admin/payments", "/admin/gifts", "/admin/subscribers", "/admin/staff", "/admin/audit"] as const;

// The console's classes are not in the inline stylesheet every page carries (app.css).
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: consoleStylesheet }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const { TRASH_DAYS, STAFF_IDLE_MINUTES } = context.services.config;
  return { staff: { firstName: staff.firstName, email: staff.email, role: staff.role }, pages: CONSOLE_PAGES, trashDays: TRASH_DAYS, idleMinutes: STAFF_IDLE_MINUTES };
}

export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  const { staff, pages, idleMinutes } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-6" data-testid="console">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 border-b border-stone-300 pb-3">
        <p className="font-display text-xl font-bold uppercase tracking-wide">
          <Link to="/admin">Staff console</Link>
        </p>
        <div className="flex items-center gap-4 text-sm">
          <span>
            {staff.email} · <strong>{staff.role}</strong>
          </span>
          <Link to="/admin/security" className="font-semibold text-blue-800 underline">
            Sign-in and security
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className="font-semibold text-blue-800 underline">
              Logout
            </button>
          </Form>
        </div>
      </div>
      <div className="flex flex-col gap-6 md:flex-row">
        <aside className="md:w-48 md:shrink-0">
          <ConsoleNav role={staff.role} available={pages} />
        </aside>
        <div className="min-w-0 flex-1">
          <Outlet />
        </div>
      </div>
      <SessionClock idleMinutes={idleMinutes} />
    </div>
  );
}

export function meta() {
  return [{ title: "Staff console | Pittsburgh Sports Museum" }, { name: "robots", content: "noindex" }];
}
