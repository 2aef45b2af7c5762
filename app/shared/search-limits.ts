/** Limits of a search, alone so the header's search box imports nothing else. */
export const SEARCH_LIMITS = {
  /** Characters (code points) of the search text. */
  maxQueryLength: 200,
  pageSize: 20,
  maxPage: 500,
  /** Suggestions start at this many characters and show at most `suggestions` entries. */
  suggestFrom: 2,
  suggestions: 8,
} as const;
