/** /admin/enshrinees: the Wall of Fame, searched, sorted and paged on the server. */
import { Link } from "react-router";
import type { Route } from "./+types/enshrinees";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ListSearch, Pager } from "~/components/admin/ConsoleUi";
import { BulkActionsForm, BulkCheckbox, CollectionListHeading } from "~/components/admin/BulkActions";
import { bulkAction } from "./collection-csv.server";
import { requireConsole } from "./guard.server";
import { listPage, listQuery } from "./list-query";
import { withStatus } from "./publication.server";

const SORTS = ["lastName", "fullName"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const page = await listPage(request, SORTS, "lastName", (query) => context.services.admin.collection.enshrinees.list(query));
  return { ...page, rows: withStatus(context, page.rows), bulkActions: context.services.admin.bulk.actionsFor("enshrinee") };
}

/** The bulk actions on the chosen rows, or on all that match (decision 034). */
export async function action({ request, context }: Route.ActionArgs) {
  return bulkAction(context, request, "enshrinee", async (url, limit) => {
    const { rows, total } = await context.services.admin.collection.enshrinees.list({ ...listQuery(url, SORTS, "lastName"), page: 1, pageSize: limit });
    return { ids: rows.map((r) => r.id), total };
  });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const nameColumns = [
  col.accessor("fullName", { header: "Name", cell: ({ row, getValue }) => <Link to={`/admin/enshrinees/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.accessor("lastName", { header: "Last name" }),
  col.accessor("exhibits", { header: "Exhibits and mentions" }),
  col.accessor("status", { header: "Publication" }),
];
/** With bulk actions to offer, a checkbox on each row first. */
const selectableColumns = [col.display({ id: "select", header: "Select", cell: ({ row }) => <BulkCheckbox id={row.original.id} name={row.original.fullName} /> }), ...nameColumns];

export default function Enshrinees({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, query, bulkActions, search, notice } = loaderData;
  return (
    <section>
      <CollectionListHeading kind="enshrinees" title="Enshrinees" add="Add an enshrinee" result={notice ? { ok: true, message: notice } : null} />
      <BulkActionsForm actions={bulkActions} total={total} result={actionData} filters={<ListSearch q={query.q} label="Search enshrinees" />} />
      <AdminTable caption="Enshrinees" columns={bulkActions.length ? selectableColumns : nameColumns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Enshrinees | Staff console" }];
}
