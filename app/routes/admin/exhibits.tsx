/** /admin/exhibits: every exhibit, searched, filtered by team, category and state, sorted and paged on the server. */
import { Link } from "react-router";
import type { Route } from "./+types/exhibits";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ListSearch, NOTICES, Pager } from "~/components/admin/ConsoleUi";
import { BulkActionsForm, BulkCheckbox, CollectionListHeading } from "~/components/admin/BulkActions";
import { ChoiceSelect } from "~/components/admin/ChoiceSelect";
import { bulkAction } from "./collection-csv.server";
import { uuidSchema } from "./console-schemas";
import { requireConsole } from "./guard.server";
import { listQuery, searchOf } from "./list-query";
import { withStatus } from "./publication.server";

const SORTS = ["title", "year", "team", "category"] as const;
/** The list's two words (decision 063): publication (draft, scheduled, published) and listing (on the category page or not). */
const PUBLICATION_FILTER = [
  { id: "draft", name: "Drafts" },
  { id: "scheduled", name: "Scheduled" },
];
const LISTING_FILTER = [
  { id: "listed", name: "Listed" },
  { id: "unlisted", name: "Not listed" },
];

/** The list's search, sort, page and filters, as the address gives them (the loader's and "all that match"'s). */
function exhibitQuery(url: URL) {
  const team = url.searchParams.get("team") ?? "";
  const category = url.searchParams.get("category") ?? "";
  // "state" is the one filter of older links (the Overview's "3 draft exhibits"): still read.
  const state = url.searchParams.get("state") ?? "";
  const listing = url.searchParams.get("listing") ?? (state === "active" ? "listed" : state === "inactive" ? "unlisted" : "");
  const publication = url.searchParams.get("publication") ?? (state === "draft" || state === "scheduled" ? state : "");
  const list = {
    ...listQuery(url, SORTS, "title"),
    team: uuidSchema.safeParse(team).success ? team : undefined,
    category: uuidSchema.safeParse(category).success ? category : undefined,
    active: listing === "listed" ? true : listing === "unlisted" ? false : undefined,
    publication: publication === "draft" || publication === "scheduled" ? (publication as "draft" | "scheduled") : undefined,
  };
  return { list, filter: { team, category, listing, publication } };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const url = new URL(request.url);
  const { list, filter } = exhibitQuery(url);
  const collection = context.services.admin.collection;
  const [{ rows, total }, teams, categories] = await Promise.all([collection.exhibits.list(list), collection.teams.options(), collection.categories.options()]);
  const bulkActions = context.services.admin.bulk.actionsFor("exhibit");
  const { team: _t, category: _c, active: _a, publication: _p, ...query } = list;
  return { rows: withStatus(context, rows), total, query, filter, teams, categories, bulkActions, search: searchOf(url), notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null };
}

/** The bulk actions on the chosen rows, or on all that match (decision 034). */
export async function action({ request, context }: Route.ActionArgs) {
  return bulkAction(context, request, "exhibit", async (url, limit) => {
    const { rows, total } = await context.services.admin.collection.exhibits.list({ ...exhibitQuery(url).list, page: 1, pageSize: limit });
    return { ids: rows.map((r) => r.id), total };
  });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<Row>();
const columns = [
  col.display({ id: "select", header: "Select", cell: ({ row }) => <BulkCheckbox id={row.original.id} name={row.original.title} /> }),
  col.accessor("title", { header: "Title", cell: ({ row, getValue }) => <Link to={`/admin/exhibits/${row.original.id}`} className="font-semibold text-blue-800 underline">{getValue()}</Link> }),
  col.accessor("year", { header: "Year" }),
  col.accessor("team", { header: "Team" }),
  col.accessor("category", { header: "Category" }),
  col.accessor("status", { header: "Publication" }),
  col.display({ id: "listing", header: "Listing", cell: ({ row }) => [row.original.active ? "Listed" : "Not listed", row.original.favoriteStory ? "Favorite story" : ""].filter(Boolean).join(" · ") }),
];


export default function Exhibits({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, query, filter, teams, categories, bulkActions, search, notice } = loaderData;
  return (
    <section>
      <CollectionListHeading kind="exhibits" title="Exhibits" add="Add an exhibit" result={notice ? { ok: true, message: notice } : null} />
      <BulkActionsForm
        actions={bulkActions}
        categories={categories}
        total={total}
        result={actionData}
        filters={
          <ListSearch q={query.q} label="Search titles">
            <ChoiceSelect id="team" name="team" label="Team" empty="All teams" options={teams} defaultValue={filter.team} />
            <ChoiceSelect id="category" name="category" label="Category" empty="All categories" options={categories} defaultValue={filter.category} />
            <ChoiceSelect id="publication" name="publication" label="Publication" empty="All" options={PUBLICATION_FILTER} defaultValue={filter.publication} />
            <ChoiceSelect id="listing" name="listing" label="Listing" empty="All" options={LISTING_FILTER} defaultValue={filter.listing} />
          </ListSearch>
        }
      />
      <AdminTable caption="Exhibits" columns={columns} rows={rows} rowKey={(r) => r.id} sortable={SORTS} sort={query} search={search} />
      <Pager page={query.page} pageSize={query.pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Exhibits | Staff console" }];
}
