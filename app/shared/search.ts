/**
 * Searching the collection (decision 014): limits, the shape of a request and of the
 * answer, addresses of result pages, and the texts. Browser-safe and without Zod, so the header's
 * search box adds little to every page; the checks of a request are in search-schemas.ts.
 */
import { SEARCH_LIMITS } from "./search-limits";
export { SEARCH_LIMITS };

export const SEARCH_SORTS = ["relevance", "year", "year-desc"] as const;
export const SEARCH_TYPES = ["exhibit", "enshrinee"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SEARCH_MESSAGES = {
  empty: "Type a name, a title or a word to search the collection.",
  tooLong: `That search is too long: please use at most ${SEARCH_LIMITS.maxQueryLength} characters.`,
  noWords: (q: string) => `“${q}” has no words we can search for (only punctuation or very common words). Try a name, a title or a team.`,
  onlyExcluded: "That search only leaves words out. Add a word to look for.",
  noResults: (q: string) => `Nothing in the collection matches “${q}”.`,
  noResultsFiltered: (q: string) => `Nothing matches “${q}” with these filters.`,
  similar: (q: string, corrected: string) => `No exact matches for “${q}”. Showing results for “${corrected}”.`,
  badFilter: "A filter in the address was not valid and has been left out.",
  pastLastPage: "There are no more results: this page is past the last one.",
  rateLimited: "You have searched a lot in a short time. Please wait a minute and try again.",
  membersSearchTexts: "Members also search the full exhibit texts and biographies, and see the passage that matched.",
} as const;

/** Private-use characters that mark highlights inside snippets; never accepted from a client. */
export const HIGHLIGHT_START = "\uE000";
export const HIGHLIGHT_END = "\uE001";

/**
 * The search text as the database will see it: control characters (NUL included, which
 * PostgreSQL refuses) and the highlight markers become spaces, lone surrogates become U+FFFD,
 * runs of white space one space.
 */
export function cleanQuery(raw: string): string {
  return raw
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f\uE000\uE001]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The /search address of `request` with `changes` applied; a change of filter goes back to page 1. */
export function searchHref(request: SearchRequest, changes: Partial<Record<keyof SearchRequest, string | number | boolean | undefined>> = {}): string {
  const next: Record<string, unknown> = { ...request, ...changes };
  if (!("page" in changes)) next.page = 1;
  const params = new URLSearchParams();
  if (next.q) params.set("q", String(next.q));
  for (const key of ["team", "category", "decade", "type", "favoriteStory"] as const) {
    if (next[key] !== undefined && next[key] !== null && next[key] !== "") params.set(key, String(next[key]));
  }
  if (next.sort && next.sort !== "relevance") params.set("sort", String(next.sort));
  if (next.page && next.page !== 1) params.set("page", String(next.page));
  const query = params.toString();
  return query ? `/search?${query}` : "/search";
}

export interface SearchFilters {
  team?: string;
  category?: string;
  /** The first year of a decade: 1970 for the 1970s. */
  decade?: number;
  type?: SearchType;
  favoriteStory?: boolean;
}

export interface SearchRequest extends SearchFilters {
  q: string;
  sort: SearchSort;
  page: number;
}

export interface SearchHit {
  _id: string;
  type: SearchType;
  title: string;
  /** The exhibit's short title; null for an enshrinee. */
  shortTitle: string | null;
  /** The exhibit's team, or the teams of an enshrinee's exhibits. */
  teams: { _id: string; name: string }[];
  category: { _id: string; categoryName: string } | null;
  /** The exhibit's year, or the earliest year of an enshrinee's exhibits. */
  year: number | null;
  favoriteStory: boolean;
  url: string;
  /** Members only: the passage of the text that matched, in runs; `match` runs are the words found. */
  snippet?: { text: string; match: boolean }[];
}

export interface FacetValue {
  value: string;
  label: string;
  count: number;
}

export interface SearchAnswer {
  q: string;
  sort: SearchSort;
  page: number;
  pageSize: number;
  /** Results for the query and every filter. */
  total: number;
  pages: number;
  filters: SearchFilters;
  /** words: full-text matches; similar: no word matched, titles and names spelled alike; none: nothing searched. */
  mode: "words" | "similar" | "none";
  /** A corrected search text when the words were not found as typed. */
  didYouMean: string | null;
  /** Why nothing was searched or found, for the person searching. */
  message: string | null;
  /** Whether the search covered member-only texts (members only). */
  memberTexts: boolean;
  results: SearchHit[];
  /** For each filter, its values with the number of results each would give with the other filters. */
  facets: { type: FacetValue[]; team: FacetValue[]; category: FacetValue[]; decade: FacetValue[]; favoriteStory: FacetValue[] };
}

export interface Suggestion {
  _id: string;
  type: SearchType;
  title: string;
  /** Team(s) and year, to tell similar titles apart. */
  detail: string;
  url: string;
}

/** An answer with no results: nothing searched, with the reason in `message`. */
export function emptySearchAnswer(request: SearchRequest, memberTexts: boolean, message: string | null = null): SearchAnswer {
  const { q, sort, page, team, category, decade, type, favoriteStory } = request;
  return {
    q,
    sort,
    page,
    pageSize: SEARCH_LIMITS.pageSize,
    total: 0,
    pages: 0,
    filters: { team, category, decade, type, favoriteStory },
    mode: "none",
    didYouMean: null,
    message,
    memberTexts,
    results: [],
    facets: { type: [], team: [], category: [], decade: [], favoriteStory: [] },
  };
}
