/**
 * The console's lists read from the address: search, sort, direction and a page number clamped
 * to the depth the database answers fast, the query string a pager keeps, and a whole list
 * page's loader data (`listPage`). Browser-safe.
 */
import { NOTICES } from "~/components/admin/ConsoleUi";

/**
 * How deep a list pages: 200 pages of 50. Past the first 10,000 matches staff narrow the search
 * or sort instead; every page that can be reached then answers from an index within the aim
 * (a page 1,500 deep in 100,000 members made the database skip 75,000 rows).
 */
export const MAX_PAGE = 200;

/** Page number from the query string, clamped to 1..MAX_PAGE. */
export function pageParam(url: URL, name = "page", max = MAX_PAGE): number {
  const n = Number(url.searchParams.get(name) ?? "1");
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : 1;
}

/**
 * The search box's words from the address (`q`), or undefined: at most 100 characters, control
 * characters read as spaces (a NUL byte is no text PostgreSQL can compare: it answered 500).
 */
export function searchParam(url: URL): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
  return (url.searchParams.get("q") ?? "").replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim().slice(0, 100) || undefined;
}

/** A list page's query: search, sort among `sorts`, direction, page. */
export function listQuery<S extends string>(url: URL, sorts: readonly S[], fallback: S, pageSize = 50) {
  const q = searchParam(url);
  const sortParam = url.searchParams.get("sort") as S | null;
  const sort = sortParam && sorts.includes(sortParam) ? sortParam : fallback;
  const dir: "asc" | "desc" = url.searchParams.get("dir") === "desc" ? "desc" : "asc";
  return { q, sort, dir, page: pageParam(url), pageSize };
}

/** The query string of a list's search, sort and filters (for its pager). */
export function searchOf(url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete("page");
  params.delete("notice");
  return params.toString();
}

/**
 * A list page's loader data: the query its address asks for, that page of rows from `list`, the
 * query string its pager keeps, and the notice a redirect left (`?notice=saved`).
 */
export async function listPage<S extends string, R>(request: Request, sorts: readonly S[], fallback: S, list: (query: ReturnType<typeof listQuery<S>>) => Promise<{ rows: R[]; total: number }>) {
  const url = new URL(request.url);
  const query = listQuery(url, sorts, fallback);
  const { rows, total } = await list(query);
  return { rows, total, query, search: searchOf(url), notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null };
}
