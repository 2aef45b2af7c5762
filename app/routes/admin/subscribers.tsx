/**
 * /admin/subscribers (admins only): newsletter subscribers searched and paged on the server,
 * with each one's Mailchimp sync state (pending, synced, failed with the reason, retry),
 * unsubscribe, and the filtered list as CSV.
 */
import { Form, useActionData } from "react-router";
import type { Route } from "./+types/subscribers";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ConsoleHeading, ConsoleNotice, ListSearch, Pager } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, type ConsoleResult } from "./guard.server";
import { listQuery, searchOf } from "./list-query";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "subscribers");
  const url = new URL(request.url);
  const query = listQuery(url, ["date"] as const, "date");
  if (!url.searchParams.get("dir")) query.dir = "desc";
  const consentParam = url.searchParams.get("consent");
  const consent = consentParam === "yes" ? true : consentParam === "no" ? false : undefined;
  const { rows, total } = await context.services.admin.subscribers.list({ ...query, consent });
  const clock = museumClock(context);
  const exportParams = new URLSearchParams();
  if (query.q) exportParams.set("q", query.q);
  if (consentParam === "yes" || consentParam === "no") exportParams.set("consent", consentParam);
  return {
    rows: rows.map((r) => ({ id: r.id, email: r.email, name: `${r.firstName} ${r.lastName}`, consent: r.consent, source: r.source, date: clock.day(r.createdAt), sync: r.sync })),
    total,
    query,
    consent: consentParam ?? "",
    search: searchOf(url),
    exportHref: `/admin/subscribers/export?${exportParams.toString()}`,
    mailchimp: context.services.admin.subscribers.mailchimp,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "subscribers");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const id = uuidSchema.safeParse(formText(form, "id"));
  if (!id.success) return consoleAnswer({ ok: false, message: "No such subscriber." });
  const subscribers = context.services.admin.subscribers;
  const intent = formText(form, "intent");
  if (intent === "unsubscribe") return consoleAnswer(await subscribers.unsubscribe(actorOf(staff), id.data));
  if (intent === "retry") return consoleAnswer(await subscribers.retry(actorOf(staff), id.data));
  return consoleAnswer({ ok: false, message: "Unknown action." });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = (mailchimp: boolean) => [
  col.accessor("date", { header: "Since" }),
  col.accessor("email", { header: "Email" }),
  col.accessor("name", { header: "Name" }),
  col.accessor("source", { header: "From" }),
  col.display({
    id: "sync",
    header: mailchimp ? "Mailchimp" : "Newsletter list",
    cell: ({ row }) => {
      const s = row.original.sync;
      return (
        <span>
          {s.state === "failed" ? `failed: ${s.reason ?? "unknown reason"}` : s.state}
          {s.state === "failed" || (s.state === "pending" && s.attempts > 0) ? (
            <Form method="post" className="mt-1">
              <input type="hidden" name="id" value={row.original.id} />
              <button type="submit" name="intent" value="retry" className="font-semibold text-blue-800 underline">
                Retry<span className="sr-only"> the sync of {row.original.email}</span>
              </button>
            </Form>
          ) : null}
        </span>
      );
    },
  }),
  col.display({
    id: "consent",
    header: "Newsletter",
    cell: ({ row }) =>
      row.original.consent ? (
        <Form method="post">
          <input type="hidden" name="id" value={row.original.id} />
          <button type="submit" name="intent" value="unsubscribe" className="rounded border border-red-800 px-2 py-1 font-semibold text-red-800">
            Unsubscribe<span className="sr-only"> {row.original.email}</span>
          </button>
        </Form>
      ) : (
        "unsubscribed"
      ),
  }),
];

export default function Subscribers({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const { rows, total, query, consent, search, exportHref, mailchimp } = loaderData;
  return (
    <section>
      <ConsoleHeading
        actions={
          <a href={exportHref} className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel" download>
            Export these subscribers (CSV)
          </a>
        }
      >
        Subscribers
      </ConsoleHeading>
      <ConsoleNotice result={result} />
      {mailchimp ? null : (
        <p className="mb-4 rounded border border-stone-400 bg-stone-50 p-3" data-testid="newsletter-sync-note">
          Mailchimp is not configured: subscribers are kept locally in this site&apos;s database and are not sent to Mailchimp. Export them as CSV, or set the
          MAILCHIMP_ variables to sync them.
        </p>
      )}
      <ListSearch q={query.q} label="Email or name (beginning)">
        <div>
          <label htmlFor="consent" className="block font-semibold">
            Newsletter
          </label>
          <select id="consent" name="consent" defaultValue={consent} className="rounded border border-stone-500 px-2 py-1">
            <option value="">All</option>
            <option value="yes">Subscribed</option>
            <option value="no">Unsubscribed</option>
          </select>
        </div>
      </ListSearch>
      <AdminTable caption="Subscribers" columns={columns(mailchimp)} rows={rows} rowKey={(r) => r.id} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Subscribers | Staff console" }];
}
