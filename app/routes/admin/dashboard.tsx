/** /admin: the console's home, with what needs attention and where to go. */
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { ConsoleHeading } from "~/components/admin/ConsoleUi";
import { mayOpen } from "~/shared/console-areas";
import { requireConsole } from "./guard.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "dashboard");
  return { firstName: staff.firstName, role: staff.role };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { firstName, role } = loaderData;
  return (
    <section>
      <ConsoleHeading>Welcome, {firstName}</ConsoleHeading>
      <p className="mb-4">You are signed in as {role}. Your session ends after 30 minutes without activity.</p>
      <ul className="list-disc space-y-1 pl-6">
        {mayOpen(role, "staff") ? (
          <li>
            <Link to="/admin/staff" className="text-blue-800 underline">
              Invite staff, change roles, deactivate accounts
            </Link>
          </li>
        ) : null}
        <li>
          <Link to="/admin/audit" className="text-blue-800 underline">
            See every change in the audit log
          </Link>
        </li>
      </ul>
    </section>
  );
}

export function meta() {
  return [{ title: "Overview | Staff console" }];
}
