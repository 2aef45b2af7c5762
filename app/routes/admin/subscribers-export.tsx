/** GET /admin/subscribers/export?q=&consent=: the filtered subscribers as a streamed CSV (admins, fresh password, audited). */
import type { Route } from "./+types/subscribers-export";
import { actorOf, museumClock, requireConsole, requireRecentPassword } from "./guard.server";
import { searchParam } from "./list-query";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "subscribers");
  const url = new URL(request.url);
  await requireRecentPassword(context, request, url.pathname + url.search);
  const q = searchParam(url);
  const consentParam = url.searchParams.get("consent");
  const consent = consentParam === "yes" ? true : consentParam === "no" ? false : undefined;
  const { subscribers, exports } = context.services.admin;
  await exports.record(actorOf(staff), "subscriber", `Exported subscribers (${[q ? `search "${q}"` : "", consentParam ?? ""].filter(Boolean).join(", ") || "all"})`);
  const clock = museumClock(context);
  return exports.csv(
    `subscribers-${clock.day(new Date())}.csv`,
    ["email", "first_name", "last_name", "newsletter", "source", "since"],
    subscribers.batches({ q, consent }),
    (s) => [s.email, s.firstName, s.lastName, s.consent ? "subscribed" : "unsubscribed", s.source, clock.day(s.createdAt)],
  );
}
