/** /admin/categories: the exhibit categories, searched, sorted and paged on the server. */
import { Link } from "react-router";
import type { Route } from "./+types/categories";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { AddLink, ConsoleHeading, ConsoleNotice, ListSearch, Pager } from "~/components/admin/ConsoleUi";
import { requireConsole } from "./guard.server";
import { listPage } from "./list-query";

const SORTS = ["order", "name"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  return listPage(request, SORTS, "order", (query) => context.services.admin.collection.categories.list(query));
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.accessor("sortOrder", { id: "order", header: "Order" }),
  col.accessor("categoryName", { id: "name", header: "Name", cell: ({ row, getValue }) => <Link to={`/admin/categories/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.accessor("exhibits", { header: "Exhibits" }),
];

export default function Categories({ loaderData }: Route.ComponentProps) {
  const { rows, total, query, search, notice } = loaderData;
  return (
    <section>
      <ConsoleHeading actions={<AddLink to="/admin/categories/new">Add a category</AddLink>}>Categories</ConsoleHeading>
      <ConsoleNotice result={notice ? { ok: true, message: notice } : null} />
      <ListSearch q={query.q} label="Search categories" />
      <AdminTable caption="Categories" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Categories | Staff console" }];
}
