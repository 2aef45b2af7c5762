/** /admin/enshrinees: the Wall of Fame, searched, sorted and paged on the server. */
import { Link } from "react-router";
import type { Route } from "./+types/enshrinees";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { AddLink, ConsoleHeading, ConsoleNotice, ListSearch, NOTICES, Pager } from "~/components/admin/ConsoleUi";
import { requireConsole } from "./guard.server";
import { listQuery, searchOf } from "./list-query";
import { withStatus } from "./publication.server";

const SORTS = ["lastName", "fullName"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const url = new URL(request.url);
  const query = listQuery(url, SORTS, "lastName");
  const { rows, total } = await context.services.admin.collection.enshrinees.list(query);
  return { rows: withStatus(context, rows), total, query, search: searchOf(url), notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.accessor("fullName", { header: "Name", cell: ({ row, getValue }) => <Link to={`/admin/enshrinees/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.accessor("lastName", { header: "Last name" }),
  col.accessor("exhibits", { header: "Exhibits and mentions" }),
  col.accessor("status", { header: "Status" }),
];

export default function Enshrinees({ loaderData }: Route.ComponentProps) {
  const { rows, total, query, search, notice } = loaderData;
  return (
    <section>
      <ConsoleHeading actions={<AddLink to="/admin/enshrinees/new">Add an enshrinee</AddLink>}>Enshrinees</ConsoleHeading>
      <ConsoleNotice result={notice ? { ok: true, message: notice } : null} />
      <ListSearch q={query.q} label="Search enshrinees" />
      <AdminTable caption="Enshrinees" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Enshrinees | Staff console" }];
}
