/**
 * The checks of a search request: the same for GET /api/search, which refuses what it
 * cannot use with 400, and for the /search page, which leaves out what it cannot use and says so.
 */
import { z } from "zod";
import { cleanQuery, SEARCH_LIMITS, SEARCH_SORTS, SEARCH_TYPES, type SearchRequest } from "./search";

const codePoints = (s: string) => [...s].length;

const id = z.uuid({ message: "is not a valid id" });
const filterShape = {
  team: id.optional(),
  category: id.optional(),
  decade: z
    .string()
    .regex(/^\d{4}$/, { message: "must be a decade such as 1970" })
    .transform(Number)
    .refine((d) => d % 10 === 0 && d >= 1800 && d <= 2100, { message: "must be a decade such as 1970" })
    .optional(),
  type: z.enum(SEARCH_TYPES, { message: "must be exhibit or enshrinee" }).optional(),
  favoriteStory: z
    .enum(["true", "false"], { message: "must be true or false" })
    .transform((v) => v === "true")
    .optional(),
};

const searchShape = {
  q: z
    .string({ message: "must be given once, as text" })
    .transform(cleanQuery)
    .refine((q) => codePoints(q) <= SEARCH_LIMITS.maxQueryLength, { message: `must be at most ${SEARCH_LIMITS.maxQueryLength} characters` })
    .default(""),
  ...filterShape,
  sort: z.enum(SEARCH_SORTS, { message: `must be one of ${SEARCH_SORTS.join(", ")}` }).default("relevance"),
  page: z
    .string()
    .regex(/^\d{1,4}$/, { message: `must be a whole number from 1 to ${SEARCH_LIMITS.maxPage}` })
    .transform(Number)
    .refine((p) => p >= 1 && p <= SEARCH_LIMITS.maxPage, { message: `must be a whole number from 1 to ${SEARCH_LIMITS.maxPage}` })
    .default(1),
};

/** GET /api/search: every parameter checked, unknown ones refused. */
export const searchRequestSchema = z.object(searchShape).strict() satisfies z.ZodType<SearchRequest, unknown>;

/** GET /api/search/suggest */
export const suggestRequestSchema = z.object({ q: searchShape.q }).strict();

/**
 * The /search page's address: like the API, but a page keeps going with what it can use. An
 * invalid filter, sort or page is left out (and `invalid` says so); a search text over the
 * limit is `tooLong` and searched for nothing.
 */
export function parseSearchPage(params: URLSearchParams): { request: SearchRequest; invalid: boolean; tooLong: boolean } {
  const request: SearchRequest = { q: "", sort: "relevance", page: 1 };
  let invalid = false;
  let tooLong = false;
  const q = searchShape.q.safeParse(params.get("q") ?? "");
  if (q.success) request.q = q.data;
  else tooLong = true;
  for (const key of ["team", "category", "decade", "type", "favoriteStory", "sort", "page"] as const) {
    const value = params.get(key);
    if (value === null || value === "") continue;
    const parsed = (searchShape[key] as z.ZodType).safeParse(value);
    if (parsed.success) (request as unknown as Record<string, unknown>)[key] = parsed.data;
    else invalid = true;
  }
  return { request, invalid, tooLong };
}
