/** /admin/teams: the teams, searched, sorted and paged on the server. */
import { Link } from "react-router";
import type { Route } from "./+types/teams";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { AddLink, ConsoleHeading, ConsoleNotice, ListSearch, Pager } from "~/components/admin/ConsoleUi";
import { requireConsole } from "./guard.server";
import { listPage } from "./list-query";

const SORTS = ["order", "name", "league"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  return listPage(request, SORTS, "order", (query) => context.services.admin.collection.teams.list(query));
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.accessor("sortOrder", { id: "order", header: "Order" }),
  col.accessor("name", { header: "Name", cell: ({ row, getValue }) => <Link to={`/admin/teams/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.accessor("league", { header: "League" }),
  col.accessor("exhibits", { header: "Exhibits" }),
];

export default function Teams({ loaderData }: Route.ComponentProps) {
  const { rows, total, query, search, notice } = loaderData;
  return (
    <section>
      <ConsoleHeading actions={<AddLink to="/admin/teams/new">Add a team</AddLink>}>Teams</ConsoleHeading>
      <ConsoleNotice result={notice ? { ok: true, message: notice } : null} />
      <ListSearch q={query.q} label="Search teams" />
      <AdminTable caption="Teams" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Teams | Staff console" }];
}
