/**
 * GET /admin/members/export?q=&state=: the filtered members as CSV, streamed in batches, cells
 * neutralized against spreadsheet formulas. Personal data: admins only, password asked again
 * after 10 minutes, and the export itself is written to the audit log.
 */
import type { Route } from "./+types/members-export";
import { requireConsole, requireRecentPassword, actorOf, museumClock } from "./guard.server";
import { searchParam } from "./list-query";

const STATES = ["valid", "expired", "unpaid"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "members");
  const url = new URL(request.url);
  await requireRecentPassword(context, request, url.pathname + url.search);
  const q = searchParam(url);
  const state = STATES.find((s) => s === url.searchParams.get("state"));
  const { members, exports } = context.services.admin;
  await exports.record(actorOf(staff), "member", `Exported members (${[q ? `search "${q}"` : "", state ?? ""].filter(Boolean).join(", ") || "all"})`);
  const clock = museumClock(context);
  return exports.csv(
    `members-${clock.day(new Date())}.csv`,
    ["email", "first_name", "last_name", "ticket", "valid_through", "joined", "email_opt_in"],
    members.batches({ q, state }),
    (m) => [m.email, m.firstName, m.lastName, m.state, m.validThrough, clock.day(m.createdAt), m.emailOptIn ? "yes" : "no"],
  );
}
