/**
 * What a cache in front of the site may keep (decision 054). An answer that is the same for every
 * visitor (a collection page or its `.data`, a search, the collection API, the sitemap) is
 * `public`: a shared cache (nginx's `proxy_cache`, Varnish, a CDN) keeps it for
 * SHARED_CACHE_SECONDS and may serve it stale while it fetches it again or while the site cannot
 * answer; a browser revalidates it every time (`max-age=0`, a strong ETag answered with 304).
 * Anything rendered for a signed-in person, and anything a request with a session token
 * received, is `private, no-store`.
 *
 * A visitor and a member share URLs. A shared cache tells them apart by the session cookie: the
 * deployment guide's nginx neither looks up nor stores an answer for a request that carries it (or an
 * `Authorization` header), as Varnish and the CDNs can be told to. `Vary: Cookie, Authorization`
 * says the same to every cache that honours Vary, browsers included: a page a browser kept
 * before its person signed in is not reused after.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { requestSessionToken } from "../accounts/request-auth";

/** How long a cache in front may serve a visitor's answer after it fetched it, and stale ones. */
export interface SharedCacheTimes {
  /** `s-maxage`: fresh in a shared cache (SHARED_CACHE_SECONDS; 0: nothing is kept). */
  seconds: number;
  /** How long a CDN may serve it stale while it fetches it again (`CDN-Cache-Control` only). */
  staleWhileRevalidate?: number;
  /** How long any cache may serve it stale while the site answers errors or not at all. */
  staleIfError?: number;
}

/** What a person's own answer says: no cache keeps it, not even the browser's. */
export const PERSONAL_CACHE_CONTROL = "private, no-store";

/** The key every shared answer carries (`Surrogate-Key`, `Cache-Tag`): what a change to the collection purges. */
export const COLLECTION_KEY = "collection";

/** Whether the request carries a session (cookie or bearer token): its answer is never shared. */
export function carriesSession(req: IncomingMessage): boolean {
  return requestSessionToken(req.headers.cookie, req.headers.authorization) !== undefined;
}

/**
 * The headers of an answer every visitor gets alike, as name/value pairs: `Cache-Control` for
 * browsers and shared caches, `CDN-Cache-Control` (RFC 9213) with the stale-while-revalidate a
 * browser must not apply, and the keys a purge names. With `seconds` 0 the answer may still be
 * revalidated by browsers but no shared cache keeps it.
 */
export function sharedCacheHeaders(times: SharedCacheTimes, keys: readonly string[] = []): [string, string][] {
  const staleIfError = times.staleIfError ?? 86_400;
  if (times.seconds <= 0) return [["cache-control", "public, max-age=0, s-maxage=0, must-revalidate"]];
  const allKeys = [COLLECTION_KEY, ...keys].join(" ");
  return [
    ["cache-control", `public, max-age=0, s-maxage=${times.seconds}, stale-if-error=${staleIfError}`],
    ["cdn-cache-control", `max-age=${times.seconds}, stale-while-revalidate=${times.staleWhileRevalidate ?? 30}, stale-if-error=${staleIfError}`],
    ["surrogate-key", allKeys],
    ["cache-tag", allKeys.replaceAll(" ", ",")],
  ];
}

/** Marks `res` as every visitor's answer (see `sharedCacheHeaders`); `Vary` keeps the session apart. */
export function markShared(res: ServerResponse, times: SharedCacheTimes, keys: readonly string[] = []): void {
  for (const [name, value] of sharedCacheHeaders(times, keys)) res.setHeader(name, value);
  res.setHeader("Vary", "Cookie, Authorization, Accept-Encoding");
}

/** Marks `res` as one person's answer: no cache keeps it. */
export function markPersonal(res: ServerResponse): void {
  res.setHeader("Cache-Control", PERSONAL_CACHE_CONTROL);
  for (const name of ["cdn-cache-control", "surrogate-key", "cache-tag"]) res.removeHeader(name);
}

/** The key of one page (its address without `.data`), for a purge of that page alone. */
export function pageKeyOf(path: string): string {
  return `page:${path === "/_root.data" ? "/" : path.replace(/\.data$/, "")}`;
}
