/**
 * Visit counts that respect visitors (decision 060). A page, once shown in a browser, sends one
 * small request (`POST /api/visits`, server/api/visits-api.ts) naming its address; this counts it
 * in memory under the museum's day and the page's own address, and every VISIT_FLUSH_SECONDS
 * adds what it counted to `visit_counts`, `visit_days`, `visit_months` and `search_counts` with one upsert per table, so a busy
 * page costs one write every few seconds, not one per view. Stopping writes what is left.
 *
 * Nothing that could name a visitor is kept, in memory or in the database: no address, no
 * cookie, no user agent, no identifier, only (day, page, how many) and (day, found or not, the
 * normalized words of a search that found nothing, how many).
 *
 * A search is counted when the search page shows its first page for some words. The page says
 * how many results it showed; a search said to have found nothing is searched again here (as a
 * visitor) before its words are kept, so no one can write words into the Overview that no search
 * left without results.
 */
import { sql } from "drizzle-orm";
import { parseSearchPage } from "../../app/shared/search-schemas";
import type { SearchRequest } from "../../app/shared/search";
import type { Database } from "../db/client";
import { searchCounts, visitCounts, visitDays, visitMonths } from "../db/schema";
import type { Logger } from "../logger";
import type { CountedPage, VisitPages } from "./visit-pages";

/** The longest search words kept (longer ones are cut). */
const MAX_QUERY = 100;
/** Rows per insert statement (3-4 parameters a row, well under PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 5000;

/** A search's words as they are counted: spaces collapsed, lower case, at most 100 characters. */
export function normalizedQuery(q: string): string {
  return [...q.replace(/\s+/g, " ").trim().toLowerCase()].slice(0, MAX_QUERY).join("");
}

export interface ViewReport {
  /** The page's address as the browser shows it (`location.pathname`). */
  path: string;
  /** Its query (`location.search`), read only for the search page. */
  search?: string;
  /** How many results the search page showed, when it is one. */
  results?: number;
}

export type ViewOutcome = "counted" | "not a page";

export interface VisitCounterOptions {
  db: Database;
  pages: VisitPages;
  /** How many results a visitor's search finds (server/search). */
  searchTotal: (request: SearchRequest) => Promise<number>;
  /** The museum's day (YYYY-MM-DD). */
  today: () => string;
  flushMs: number;
  logger: Logger;
}

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

export function createVisitCounter({ db, pages, searchTotal, today, flushMs, logger }: VisitCounterOptions) {
  /** `day \n path` → views since the last flush. */
  let views = new Map<string, number>();
  /** `day \n 1|0 \n query` → searches since the last flush. */
  let searches = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  let last: Promise<void> = Promise.resolve();

  async function countSearch(day: string, report: ViewReport) {
    const { request, invalid, tooLong } = parseSearchPage(new URLSearchParams(report.search ?? ""));
    if (invalid || tooLong || request.q === "" || request.page !== 1) return;
    let found = typeof report.results === "number" && report.results > 0;
    // Said to have found nothing: searched again before its words are kept.
    if (!found) found = (await searchTotal(request)) > 0;
    bump(searches, `${day}\n${found ? 1 : 0}\n${found ? "" : normalizedQuery(request.q)}`);
  }

  async function write(v: Map<string, number>, s: Map<string, number>) {
    const viewRows = [...v].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, n]) => {
      const [day, path] = key.split("\n");
      return { day, path, views: n };
    });
    const searchRows = [...s].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, n]) => {
      const [day, found, query] = key.split("\n");
      return { day, found: found === "1", query, searches: n };
    });
    for (let i = 0; i < viewRows.length; i += ROWS_PER_STATEMENT) {
      await db
        .insert(visitCounts)
        .values(viewRows.slice(i, i + ROWS_PER_STATEMENT))
        .onConflictDoUpdate({ target: [visitCounts.day, visitCounts.path], set: { views: sql`${visitCounts.views} + excluded.views` } });
    }
    const days = new Map<string, number>();
    const months = new Map<string, number>();
    for (const row of viewRows) {
      bump(days, row.day, row.views);
      bump(months, `${row.day.slice(0, 7)}-01\n${row.path}`, row.views);
    }
    const monthRows = [...months].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, views]) => {
      const [month, path] = key.split("\n");
      return { month, path, views };
    });
    for (let i = 0; i < monthRows.length; i += ROWS_PER_STATEMENT) {
      await db
        .insert(visitMonths)
        .values(monthRows.slice(i, i + ROWS_PER_STATEMENT))
        .onConflictDoUpdate({ target: [visitMonths.month, visitMonths.path], set: { views: sql`${visitMonths.views} + excluded.views` } });
    }
    if (days.size) {
      await db
        .insert(visitDays)
        .values([...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, views]) => ({ day, views })))
        .onConflictDoUpdate({ target: visitDays.day, set: { views: sql`${visitDays.views} + excluded.views` } });
    }
    for (let i = 0; i < searchRows.length; i += ROWS_PER_STATEMENT) {
      await db
        .insert(searchCounts)
        .values(searchRows.slice(i, i + ROWS_PER_STATEMENT))
        .onConflictDoUpdate({ target: [searchCounts.day, searchCounts.found, searchCounts.query], set: { searches: sql`${searchCounts.searches} + excluded.searches` } });
    }
  }

  /** Adds what was counted to the database; on a failure keeps it for the next flush. One at a time. */
  function flush(): Promise<void> {
    last = last.then(async () => {
      if (views.size === 0 && searches.size === 0) return;
      const v = views;
      const s = searches;
      views = new Map();
      searches = new Map();
      try {
        await write(v, s);
      } catch (err) {
        for (const [k, n] of v) bump(views, k, n);
        for (const [k, n] of s) bump(searches, k, n);
        logger.warn({ err, pages: v.size, searches: s.size }, "visit counts could not be written; kept for the next try");
      }
    });
    return last;
  }

  return {
    /** Counts one view of a page shown in a browser; "not a page" for an address that is no public page of the site. */
    async view(report: ViewReport): Promise<ViewOutcome> {
      const page: CountedPage | null = await pages.resolve(report.path);
      if (!page) return "not a page";
      const day = today();
      bump(views, `${day}\n${page.path}`);
      if (page.path === "/search") await countSearch(day, report);
      return "counted";
    },
    flush,
    /** Starts the timer that flushes every `flushMs` (does not keep the process alive). */
    start() {
      if (timer) return;
      timer = setInterval(() => void flush(), flushMs);
      timer.unref();
    },
    /** Stops the timer and writes what is left (a graceful stop loses nothing). */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
    /** Views and searches counted and not yet written (tests, the bench). */
    pending: () => ({ views: [...views.values()].reduce((a, b) => a + b, 0), searches: [...searches.values()].reduce((a, b) => a + b, 0) }),
  };
}

export type VisitCounter = ReturnType<typeof createVisitCounter>;
