/**
 * /admin/members (admins only): accounts searched by name or email, filtered by ticket state
 * (valid, expired, unpaid), sorted and paged on the server; the filtered list exports as CSV.
 */
import { Link } from "react-router";
import type { Route } from "./+types/members";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ConsoleHeading, ListSearch, Pager } from "~/components/admin/ConsoleUi";
import { museumClock, requireConsole } from "./guard.server";
import { listQuery, searchOf } from "./list-query";

const SORTS = ["joined", "name", "email", "validThrough"] as const;
const STATES = ["valid", "expired", "unpaid"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "members");
  const url = new URL(request.url);
  const query = listQuery(url, SORTS, "joined");
  if (!url.searchParams.get("dir") && query.sort === "joined") query.dir = "desc";
  const state = STATES.find((s) => s === url.searchParams.get("state"));
  const { rows, total } = await context.services.admin.members.list({ ...query, state });
  const exportParams = new URLSearchParams();
  if (query.q) exportParams.set("q", query.q);
  if (state) exportParams.set("state", state);
  const clock = museumClock(context);
  return {
    rows: rows.map((r) => ({ ...r, createdAt: clock.day(r.createdAt) })),
    total,
    query,
    state: state ?? "",
    search: searchOf(url),
    exportHref: `/admin/members/export?${exportParams.toString()}`,
  };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.display({ id: "name", header: "Name", cell: ({ row }) => <Link to={`/admin/members/${row.original.id}`} className="font-semibold text-blue-800 underline">{`${row.original.lastName}, ${row.original.firstName}`}</Link> }),
  col.accessor("email", { header: "Email" }),
  col.accessor("state", { header: "Ticket" }),
  col.accessor("validThrough", { header: "Valid through", cell: ({ getValue }) => getValue() ?? "—" }),
  col.accessor("createdAt", { id: "joined", header: "Joined" }),
];

export default function Members({ loaderData }: Route.ComponentProps) {
  const { rows, total, query, state, search, exportHref } = loaderData;
  return (
    <section>
      <ConsoleHeading
        actions={
          <a href={exportHref} className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel" download>
            Export these members (CSV)
          </a>
        }
      >
        Members
      </ConsoleHeading>
      <ListSearch q={query.q} label="Name or email (beginning)">
        <div>
          <label htmlFor="state" className="block font-semibold">
            Ticket
          </label>
          <select id="state" name="state" defaultValue={state} className="rounded border border-stone-500 px-2 py-1">
            <option value="">All</option>
            <option value="valid">Valid</option>
            <option value="expired">Expired</option>
            <option value="unpaid">Unpaid</option>
          </select>
        </div>
      </ListSearch>
      <AdminTable caption="Members" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Members | Staff console" }];
}
