/**
 * The console's lists: a headless TanStack Table rendered as a plain, accessible <table>. Paging,
 * sorting and search happen on the server (the loader reads them from the address), so a list
 * of 100,000 rows costs one page of them; a sortable column's header is a link that flips the
 * order and says the current one through aria-sort.
 */
import { createColumnHelper, tableFeatures, useTable, type ColumnDef, type RowData } from "@tanstack/react-table";
import { Link } from "react-router";

const features = tableFeatures({});


export function adminColumns<Row extends RowData>() {
  return createColumnHelper<typeof features, Row>();
}

export interface SortState {
  sort: string;
  dir: "asc" | "desc";
}

export function AdminTable<Row extends RowData>({
  caption,
  columns,
  rows,
  rowKey,
  sortable = [],
  sort,
  search,
}: {
  caption: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column, as TanStack's own examples type them
  columns: ColumnDef<typeof features, Row, any>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** Column ids the server can sort by. */
  sortable?: readonly string[];
  sort?: SortState;
  /** The current query string, kept in sort links. */
  search?: string;
}) {
  const table = useTable({ features, columns, data: rows, getRowId: (row) => rowKey(row) });
  const sortLink = (id: string) => {
    const params = new URLSearchParams(search ?? "");
    const dir = sort?.sort === id && sort.dir === "asc" ? "desc" : "asc";
    params.set("sort", id);
    params.set("dir", dir);
    params.delete("page");
    return `?${params.toString()}`;
  };
  return (
    // On a phone (below 640 px) each row is a card, each cell labelled with its column's name, so
    // the table fits the screen; wider, a table in a region that scrolls sideways if it must.
    // `relative`: a button's screen-reader words (sr-only, absolutely placed) stay inside the
    // region; without it they are placed on the page and widen it (the Trash's 758 px, decision 063).
    <div className="relative overflow-x-auto" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full border-collapse text-left text-sm max-sm:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="max-sm:block">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className="border-b-2 border-ink max-sm:flex max-sm:flex-wrap max-sm:gap-x-3">
              {group.headers.map((header) => {
                const id = header.column.id;
                const active = sort?.sort === id;
                const label = header.isPlaceholder ? null : <table.FlexRender header={header} />;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className="px-2 py-2 font-semibold max-sm:px-0 max-sm:py-1"
                    aria-sort={active ? (sort?.dir === "asc" ? "ascending" : "descending") : undefined}
                  >
                    {sortable.includes(id) ? (
                      <Link to={sortLink(id)} className="text-blue-800 underline">
                        {label}
                        {active ? (sort?.dir === "asc" ? " ▲" : " ▼") : null}
                      </Link>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody className="max-sm:block">
          {table.getRowModel().rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-2 py-4 text-stone-700">
                Nothing to show.
              </td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="border-b border-stone-300 align-top max-sm:block max-sm:py-2">
                {row.getAllCells().map((cell) => (
                  <td
                    key={cell.id}
                    data-label={typeof cell.column.columnDef.header === "string" ? cell.column.columnDef.header : undefined}
                    className="px-2 py-2 break-words max-sm:block max-sm:px-0 max-sm:py-0.5 max-sm:before:font-semibold max-sm:before:content-[attr(data-label)_':_']"
                  >
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
