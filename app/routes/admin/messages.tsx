/** /admin/messages: the contact inbox, newest first, filtered by status and subject. */
import { Link } from "react-router";
import type { Route } from "./+types/messages";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ConsoleHeading, KeepSort, Pager } from "~/components/admin/ConsoleUi";
import { museumClock, requireConsole } from "./guard.server";
import { pageParam, searchOf } from "./list-query";

const STATUSES = ["new", "answered", "archived"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "inbox");
  const url = new URL(request.url);
  const status = STATUSES.find((s) => s === url.searchParams.get("status"));
  const inbox = context.services.admin.inbox;
  const subjects = await inbox.subjects();
  const subjectParam = url.searchParams.get("subject") ?? "";
  const subject = subjects.includes(subjectParam) ? subjectParam : undefined;
  const page = pageParam(url);
  const dir = url.searchParams.get("dir") === "asc" ? "asc" : "desc";
  const { rows, total } = await inbox.list({ status, subject, page, pageSize: 50, dir });
  const clock = museumClock(context);
  return {
    rows: rows.map((r) => ({ ...r, createdAt: clock.minute(r.createdAt) })),
    total,
    page,
    subjects,
    filter: { status: status ?? "", subject: subject ?? "" },
    sort: { sort: "date", dir } as const,
    search: searchOf(url),
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.accessor("createdAt", { id: "date", header: "Received (museum time)" }),
  col.accessor("subject", { header: "Subject", cell: ({ row, getValue }) => <Link to={`/admin/messages/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.display({ id: "from", header: "From", cell: ({ row }) => `${row.original.firstName} ${row.original.lastName} <${row.original.email}>` }),
  col.accessor("status", { header: "Status" }),
];

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, subjects, filter, sort, search } = loaderData;
  return (
    <section>
      <ConsoleHeading>Contact inbox</ConsoleHeading>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
        <KeepSort />
        <div>
          <label htmlFor="status" className="block font-semibold">
            Status
          </label>
          <select id="status" name="status" defaultValue={filter.status} className="rounded border border-stone-500 px-2 py-1">
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="subject" className="block font-semibold">
            Subject
          </label>
          <select id="subject" name="subject" defaultValue={filter.subject} className="rounded border border-stone-500 px-2 py-1">
            <option value="">All subjects</option>
            {subjects.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
          Filter
        </button>
      </form>
      <AdminTable caption="Contact messages" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={["date"]} sort={sort} search={search} />
      <Pager page={page} pageSize={50} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Contact inbox | Staff console" }];
}
