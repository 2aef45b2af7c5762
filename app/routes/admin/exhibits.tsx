/** /admin/exhibits: every exhibit, searched, filtered by team, category and state, sorted and paged on the server. */
import { Link } from "react-router";
import type { Route } from "./+types/exhibits";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { AddLink, ConsoleHeading, ConsoleNotice, ListSearch, NOTICES, Pager } from "~/components/admin/ConsoleUi";
import { uuidSchema } from "./console-schemas";
import { requireConsole } from "./guard.server";
import { listQuery, searchOf } from "./list-query";
import { withStatus } from "./publication.server";

const SORTS = ["title", "year", "team", "category"] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const url = new URL(request.url);
  const query = listQuery(url, SORTS, "title");
  const team = url.searchParams.get("team") ?? "";
  const category = url.searchParams.get("category") ?? "";
  const state = url.searchParams.get("state") ?? "";
  const collection = context.services.admin.collection;
  const [{ rows, total }, teams, categories] = await Promise.all([
    collection.exhibits.list({
      ...query,
      team: uuidSchema.safeParse(team).success ? team : undefined,
      category: uuidSchema.safeParse(category).success ? category : undefined,
      active: state === "active" ? true : state === "inactive" ? false : undefined,
    }),
    collection.teams.options(),
    collection.categories.options(),
  ]);
  return { rows: withStatus(context, rows), total, query, filter: { team, category, state }, teams, categories, search: searchOf(url), notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null };
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.accessor("title", { header: "Title", cell: ({ row, getValue }) => <Link to={`/admin/exhibits/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.accessor("year", { header: "Year" }),
  col.accessor("team", { header: "Team" }),
  col.accessor("category", { header: "Category" }),
  col.accessor("status", { header: "Status" }),
  col.display({ id: "state", header: "State", cell: ({ row }) => [row.original.active ? "Active" : "Inactive", row.original.favoriteStory ? "Favorite story" : ""].filter(Boolean).join(" · ") }),
];

const select = "rounded border border-stone-500 px-2 py-1";

export default function Exhibits({ loaderData }: Route.ComponentProps) {
  const { rows, total, query, filter, teams, categories, search, notice } = loaderData;
  return (
    <section>
      <ConsoleHeading actions={<AddLink to="/admin/exhibits/new">Add an exhibit</AddLink>}>Exhibits</ConsoleHeading>
      <ConsoleNotice result={notice ? { ok: true, message: notice } : null} />
      <ListSearch q={query.q} label="Search titles">
        <div>
          <label htmlFor="team" className="block font-semibold">
            Team
          </label>
          <select id="team" name="team" defaultValue={filter.team} className={select}>
            <option value="">All teams</option>
            {teams.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="category" className="block font-semibold">
            Category
          </label>
          <select id="category" name="category" defaultValue={filter.category} className={select}>
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="state" className="block font-semibold">
            State
          </label>
          <select id="state" name="state" defaultValue={filter.state} className={select}>
            <option value="">Active and inactive</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </div>
      </ListSearch>
      <AdminTable caption="Exhibits" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Exhibits | Staff console" }];
}
