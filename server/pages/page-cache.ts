/**
 * The page cache (decisions 008, 013 and 038). Collection pages differ between readers only by
 * their access tier (a visitor, an account without a ticket, a member) and the greeting's first
 * name, so each instance renders such a page once per tier and first name, keeps it (compressed
 * ahead, with an ETag) and serves it to the next readers of that tier without rendering React
 * again.
 *
 * - Renewed in the background (decision 038): a change notice (`changed()`) renders every stored
 *   page again at once, one at a time; a page stored before the change is never served again,
 *   its reader waits for that one render (or starts it, if still queued). A page older than
 *   PAGE_CACHE_SECONDS (a safety net, minutes) is served as it is and rendered again behind it.
 * - Which pages: those whose route's policy says `cached` (app/shared/route-policy.ts), resolved
 *   from the route that matched (server/http/route-policy.ts). A page is stored under its
 *   route's own spelling (`cacheAddress`: `/ABOUT`, `/about/` and `/%61bout` all run the About
 *   route and share the page stored under `/about`), and rendered at that spelling, so what is
 *   stored is exactly the page of that address. The fast path before Express (`serveStored`)
 *   only finds a page asked for by that exact spelling; any other goes through the whole host.
 * - Only GET/HEAD requests. Visitors (no session token) are served before the rest of the chain;
 *   signed-in people after their session is checked, from the page stored for their tier, which
 *   was rendered with nothing of theirs but the first name and the tier (`tierViewer`).
 * - A cached page cannot carry a per-request CSP nonce; its inline scripts are allowed by their
 *   SHA-256 hashes instead (see docs/decisions/008-anonymous-page-cache.md).
 * - Only a complete 200 answer without Set-Cookie is stored; a page shown without some data
 *   because a read failed (`renderState.loadFailed`) is served but not stored.
 * - Only a page's own address is stored: no page reads the query string, so an address with
 *   one (a campaign tag, a random cache-buster) is rendered for that request alone and cannot
 *   fill the cache; the `_routes` parameter of client-side navigation's `.data` calls is kept
 *   when it names at most two routes. A page of records (a team, an exhibit, an enshrinee) is
 *   kept only under the address built from those records (`renderState.pagePath`), so free text
 *   in a slug segment or a differently written id renders once and is not stored.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request as ExpressRequest, NextFunction, RequestHandler, Response as ExpressResponse } from "express";
import { LRUCache } from "lru-cache";
import type { AppLoadContext } from "react-router";
import { requestSessionToken } from "../accounts/request-auth";
import { etagMatches } from "../http/etag";
import { precompress, precompressedSize, preferredEncoding, sendPrecompressed, type Precompressed } from "../http/precompressed";
import { markPersonal, markShared, pageKeyOf, type SharedCacheTimes } from "../http/shared-caching";
import { countPageCache, countPageRefresh } from "../metrics/metrics";
import { pagePath as pagePathOf } from "../http/route-policy";

/** React Router's route ids, as client navigation names them in `_routes` (`root`, `routes/team`). */
const ROUTE_ID = /^(?:root|routes\/[a-z-]+)$/;

/**
 * Whether the page at this address (path and query) may be stored and shared: no query string,
 * except on a `.data` call a `_routes` list of at most two well-formed route ids (the layout and
 * the page), so an asker cannot mint unlimited cache keys.
 */
export function isStorableAddress(path: string, query: URLSearchParams): boolean {
  const names = [...query.keys()];
  if (names.length === 0) return true;
  if (!path.endsWith(".data") || names.length !== 1 || names[0] !== "_routes") return false;
  const ids = (query.get("_routes") ?? "").split(",");
  return ids.length <= 2 && ids.every((id) => ROUTE_ID.test(id));
}

/**
 * A page whose loader named its records' address (`renderState.pagePath`) is stored only when
 * it was rendered at exactly that address: `/teams/<id>/<any text>/<exhibit>` renders the
 * exhibit for any text, but only the real title's address is kept.
 */
export function isOwnAddress(address: string, pagePath: string | undefined): boolean {
  return pagePath === undefined || address === pagePath;
}

/**
 * The address (path and query) a page is stored under and rendered at: its route's own spelling
 * (`cacheAddress`), as a `.data` call when one was asked for, with the query as asked.
 */
export function storedAddress(cacheAddress: string, originalUrl: string): string {
  const q = originalUrl.indexOf("?");
  const [path, query] = q < 0 ? [originalUrl, ""] : [originalUrl.slice(0, q), originalUrl.slice(q)];
  const data = path.endsWith(".data") ? (cacheAddress === "/" ? "/_root.data" : `${cacheAddress}.data`) : cacheAddress;
  return data + query;
}

/** Request headers never passed to a shared render: whatever identifies or conditions the asker. */
const PRIVATE_HEADERS = new Set(["cookie", "authorization", "if-none-match", "if-modified-since", "accept-encoding"]);
/** Response headers recomputed when a stored page is sent. */
const REWRITTEN_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "etag", "vary"]);

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  content: Precompressed;
  /** `'sha256-…'` sources for every inline script of the page. */
  scriptHashes: string[];
  /** Stored and shared; false for answers sent once (errors, redirects, partial pages). */
  shared: boolean;
  /** A stored visitor page's complete headers, per encoding, once it has been sent through the whole host (`serveStored`). */
  wire?: WireHeaders;
}

/**
 * Header lists (name, value, name, value…) for `writeHead`, built once per stored page. Each
 * ends with `x-request-id` and a slot for its value, filled just before the list is written
 * (writeHead reads it at once, so one list serves every request without a copy).
 */
export interface WireHeaders {
  identity: string[];
  gzip?: string[];
  br?: string[];
  notModified: string[];
}

/** Headers that differ per answer, or that `wireHeaders` writes itself. */
const PER_ANSWER_HEADERS = new Set(["x-request-id", "x-cache", "content-length", "content-encoding", "etag", "vary"]);

/**
 * The headers a stored visitor page is sent with, taken from its first answer through the whole
 * host (security headers with its script hashes in the CSP, its own headers), so later answers
 * repeat them without running the security middleware or computing a nonce.
 */
function wireHeaders(res: ServerResponse, page: RenderedPage): WireHeaders {
  const base: string[] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || PER_ANSWER_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) base.push(name, v);
    else base.push(name, String(value));
  }
  base.push("vary", "Cookie, Authorization, Accept-Encoding", "x-cache", "HIT", "etag", page.content.etag);
  const variant = (body: Buffer, encoding?: "gzip" | "br") => [
    ...base,
    ...(encoding ? ["content-encoding", encoding] : []),
    "content-length",
    String(body.length),
    "x-request-id",
    "",
  ];
  const { body, gzip, br } = page.content;
  return { identity: variant(body), gzip: gzip && variant(gzip, "gzip"), br: br && variant(br, "br"), notModified: [...base, "x-request-id", ""] };
}

/** A stored page with its wire headers, as `id`'s answer: 304 when the asker holds it, else in the encoding the asker prefers. */
export function sendWithWire(req: IncomingMessage, res: ServerResponse, page: Pick<RenderedPage, "status" | "content">, wire: WireHeaders, id: string): void {
  const send = (status: number, headers: string[]) => {
    // The id goes into the list's last slot, not through setHeader (which would make Node merge
    // every header of the list one by one).
    headers[headers.length - 1] = id;
    res.writeHead(status, headers);
  };
  if (etagMatches(req.headers["if-none-match"], page.content.etag)) {
    send(304, wire.notModified);
    res.end();
    return;
  }
  const encoding = preferredEncoding(req.headers["accept-encoding"], page.content);
  const body = encoding === "identity" ? page.content.body : page.content[encoding];
  send(page.status, (encoding === "identity" ? wire.identity : wire[encoding]) ?? wire.identity);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** The CSP source of each executable inline script (a JSON-LD data block is never executed). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes, text] = m;
    if (/\bsrc\s*=/i.test(attributes) || /application\/(?:ld\+)?json/i.test(attributes) || text === "") continue;
    hashes.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * Who a stored page was rendered for. Collection pages differ between visitors and members
 * only by the member content and the greeting's first name, so a signed-in person is served the
 * page stored for their tier and first name; nothing else about them enters the render.
 */
export interface PageTier {
  member: boolean;
  firstName: string;
}

/** The start of every visitor's page key. */
export const VISITOR_KEY = "visitor\u0000";

/** The key of a stored page: the tier it was rendered for, and the address. */
export function pageKey(tier: PageTier | null, url: string): string {
  return tier ? `${tier.member ? "member" : "account"}\u0000${tier.firstName}\u0000${url}` : `${VISITOR_KEY}${url}`;
}

/**
 * The viewer a tier's page is rendered with: the first name and the access tier, and nothing
 * else. Reading any other personal field throws, so a page that would show more than the tier
 * fails to render instead of storing one person's data for others.
 */
export function tierViewer(tier: PageTier): NonNullable<AppLoadContext["viewer"]> {
  const personal = (field: string) => () => {
    throw new Error(`a page rendered for a tier read viewer.${field}; it must not be in the tier page cache`);
  };
  return Object.defineProperties({ firstName: tier.firstName, member: tier.member } as NonNullable<AppLoadContext["viewer"]>, {
    userId: { get: personal("userId"), enumerable: false },
    lastName: { get: personal("lastName"), enumerable: false },
    emailAddress: { get: personal("emailAddress"), enumerable: false },
    validThrough: { get: personal("validThrough"), enumerable: false },
    role: { get: personal("role"), enumerable: false },
  });
}

export interface PageCacheOptions {
  /** React Router's fetch-style handler (`createRequestHandler(build)` from react-router). */
  render: (request: Request, context: AppLoadContext) => Promise<Response>;
  /**
   * The load context of a render for a tier (null: a visitor), for the request that asked for
   * it, or without one (`from` undefined) when a stored page is rendered again in the background.
   */
  loadContext: (tier: PageTier | null, from?: { req: ExpressRequest; res: ExpressResponse }) => AppLoadContext;
  /**
   * The address a request's page is stored under (its route's own spelling, `cacheAddress` of
   * server/http/route-policy.ts), or null when its route is not cached.
   */
  cacheAddress: (req: IncomingMessage) => string | null;
  /** Origin the render URL is resolved against (the site's public URL). */
  origin: string;
  /**
   * Age after which a stored page is rendered again in the background (it is still served
   * meanwhile): a safety net, since the change feed says when a page changes (decision 038).
   */
  ttlSeconds: number;
  /** Memory budget of stored pages, all encodings counted. */
  maxBytes?: number;
  /** What a cache in front may do with a visitor's stored page (decision 054); omitted: as SHARED_CACHE_SECONDS' default. */
  sharedCache?: SharedCacheTimes;
  /**
   * Stored pages rendered again at the same time after a change (default 1: renders share the
   * process's one thread, so a second one at a time only delays the first, the page most likely
   * to be asked for next; a reader of a page still queued starts its render at once anyway).
   */
  refreshConcurrency?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /**
   * The tier behind a session token, checked against the database (null: not signed in any
   * more). Lets `serveStored` answer signed-in people too; a rejection hands the request to the
   * whole host, which answers as it would (a 503 when the database is down).
   */
  tierOf?: (token: string) => Promise<PageTier | null>;
  /** Called for each answer `serveStored` sends (the host's request log); returns the request id it sends as X-Request-Id. */
  onServe?: (req: IncomingMessage, res: ServerResponse) => string;
  /** Called when a background render of a stored page fails (the page is then dropped). */
  onRefreshError?: (error: unknown, address: string) => void;
}

/** What a stored page was rendered from, so that it can be rendered again without a request. */
interface RenderSource {
  tier: PageTier | null;
  address: string;
  /** The request headers the render was given (none of `PRIVATE_HEADERS`). */
  headers: [string, string][];
}

interface StoredPage {
  page: RenderedPage;
  source: RenderSource;
  /** When it was rendered (the cache's clock). */
  renderedAt: number;
  /** The change generation it was rendered in: an older one is never served (a change came since). */
  generation: number;
}

/**
 * Stored pages by key, least recently used first out, within one budget: 2,000 pages and
 * `maxBytes` (64 MB unless given), every encoding of a page counted, plus its headers. The page
 * cache's store.
 */
export function pageStore<T extends { page: Pick<RenderedPage, "content"> }>(maxBytes = 64 * 1024 * 1024): LRUCache<string, T> {
  return new LRUCache<string, T>({
    max: 2000,
    maxSize: maxBytes,
    sizeCalculation: (held) => precompressedSize(held.page.content) + 512,
  });
}

export function createPageCache(options: PageCacheOptions) {
  const now = options.now ?? (() => performance.now());
  const ttlMs = options.ttlSeconds * 1000;
  const refreshConcurrency = options.refreshConcurrency ?? 1;
  const store = pageStore<StoredPage>(options.maxBytes);
  const sharedCache = options.sharedCache ?? { seconds: 1 };
  // One render per page at a time: visitors asking while it renders wait for the same result.
  const inFlight = new Map<string, Promise<RenderedPage>>();
  // Bumped by each change: a page rendered before is not served again, a render begun before is
  // served to its askers but never stored.
  let generation = 0;
  // Stored pages waiting to be rendered again in the background (a change, or past the time
  // limit), most recently used first; `refreshing` of them render at a time.
  const due = new Set<string>();
  let refreshing = 0;
  let stopped = false;
  // Waiting for the background renders to be over (`settled`).
  const waiters: (() => void)[] = [];

  const isCurrent = (stored: StoredPage) => stored.generation === generation;
  const isExpired = (stored: StoredPage) => now() - stored.renderedAt >= ttlMs;

  function sourceOf(req: ExpressRequest, tier: PageTier | null, address: string): RenderSource {
    const headers: [string, string][] = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || PRIVATE_HEADERS.has(name)) continue;
      headers.push([name, Array.isArray(value) ? value.join(", ") : value]);
    }
    return { tier, address, headers };
  }

  async function renderPage(source: RenderSource, key: string, from?: { req: ExpressRequest; res: ExpressResponse }): Promise<RenderedPage> {
    const startedIn = generation;
    try {
      const context = options.loadContext(source.tier, from);
      const url = new URL(source.address, options.origin);
      const response = await options.render(new Request(url, { headers: source.headers }), context);
      const body = Buffer.from(await response.arrayBuffer());
      const setsCookie = response.headers.has("set-cookie");
      const kept: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (!REWRITTEN_HEADERS.has(name)) kept.push([name, value]);
      });
      const type = response.headers.get("content-type") ?? "";
      const storable = isStorableAddress(url.pathname, url.searchParams);
      const shared =
        storable &&
        isOwnAddress(pagePathOf(url.pathname), context.renderState.pagePath) &&
        response.status === 200 &&
        !setsCookie &&
        !context.renderState.loadFailed;
      const page: RenderedPage = {
        status: response.status,
        headers: kept,
        content: await precompress(body, { shared }),
        scriptHashes: type.startsWith("text/html") ? inlineScriptHashes(body.toString("utf8")) : [],
        shared,
      };
      if (startedIn === generation) {
        if (page.shared) store.set(key, { page, source, renderedAt: now(), generation: startedIn });
        // The address no longer gives a page to keep (gone, moved, shown without some data): what
        // was stored under it must not be served again.
        else store.delete(key);
      }
      return page;
    } catch (error) {
      if (startedIn === generation) store.delete(key);
      throw error;
    }
  }

  function startRender(key: string, source: RenderSource, from?: { req: ExpressRequest; res: ExpressResponse }): Promise<RenderedPage> {
    const render: Promise<RenderedPage> = renderPage(source, key, from).finally(() => {
      if (inFlight.get(key) === render) inFlight.delete(key);
    });
    inFlight.set(key, render);
    return render;
  }

  /** Renders the due pages again in the background, `refreshConcurrency` at a time. */
  function refreshDue(): void {
    if (stopped) due.clear();
    while (refreshing < refreshConcurrency && due.size > 0) {
      const key = due.values().next().value as string;
      due.delete(key);
      const stored = store.peek(key);
      // Gone (evicted), already being rendered (someone asked), or rendered again since.
      if (!stored || inFlight.has(key) || (isCurrent(stored) && !isExpired(stored))) continue;
      refreshing++;
      countPageRefresh(isCurrent(stored) ? "expired" : "change");
      void startRender(key, stored.source)
        .catch((error: unknown) => options.onRefreshError?.(error, stored.source.address))
        .finally(() => {
          refreshing--;
          refreshDue();
        });
    }
    if (refreshing === 0 && due.size === 0) for (const resolve of waiters.splice(0)) resolve();
  }

  /** Resolves once no stored page is being rendered again in the background, nor waiting to be. */
  function settled(): Promise<void> {
    if (refreshing === 0 && due.size === 0) return Promise.resolve();
    return new Promise((resolve) => waiters.push(resolve));
  }

  /** Starts no more background renders, and resolves once those under way are over (shutting down). */
  function stop(): Promise<void> {
    stopped = true;
    due.clear();
    return settled();
  }

  /** A stored page past the time limit: served as it is, and rendered again behind it. */
  function refreshLater(key: string): void {
    if (inFlight.has(key)) return;
    due.add(key);
    refreshDue();
  }

  function send(req: ExpressRequest, res: ExpressResponse, page: RenderedPage, cache: "HIT" | "MISS" | "BYPASS", tier: PageTier | null, address: string) {
    res.status(page.status);
    for (const [name, value] of page.headers) res.setHeader(name, value);
    if (page.scriptHashes.length) {
      const csp = res.getHeader("Content-Security-Policy");
      if (typeof csp === "string") res.setHeader("Content-Security-Policy", withScriptHashes(csp, page.scriptHashes));
    }
    // A visitor's stored page is every visitor's: a cache in front may keep it (decision 054). A
    // signed-in person's page names them, and an answer sent once is that request's: no cache keeps them.
    if (!tier && page.shared) markShared(res, sharedCache, [pageKeyOf(address.split("?")[0])]);
    else {
      res.setHeader("Vary", "Cookie, Authorization");
      markPersonal(res);
    }
    res.setHeader("X-Cache", cache);
    countPageCache(cache);
    if (page.shared && !page.wire) page.wire = wireHeaders(res, page);
    sendPrecompressed(req, res, page.content, { etag: page.status === 200 });
  }

  async function serve(req: ExpressRequest, res: ExpressResponse, next: NextFunction, tier: PageTier | null, cacheAddress: string) {
    const address = storedAddress(cacheAddress, req.originalUrl);
    const key = pageKey(tier, address);
    const stored = store.get(key);
    if (stored && isCurrent(stored)) {
      if (isExpired(stored)) refreshLater(key);
      return send(req, res, stored.page, "HIT", tier, address);
    }
    // Not stored, or stored before a change: never the old bytes. Wait for the render under way
    // (the background refresh the change started, or another asker's), or start it.
    try {
      let pending = inFlight.get(key);
      const waited = pending !== undefined;
      pending ??= startRender(key, sourceOf(req, tier, address), { req, res });
      const page = await pending;
      // An answer that was not shareable belongs to the request that caused it; others render their own.
      if (waited && !page.shared) return next();
      send(req, res, page, waited ? "HIT" : page.shared ? "MISS" : "BYPASS", tier, address);
    } catch (error) {
      next(error);
    }
  }

  /** Visitors without a session token, served before the rest of the chain. */
  const middleware: RequestHandler = async (req, res, next) => {
    const cacheAddress = options.cacheAddress(req);
    if (cacheAddress === null || requestSessionToken(req.headers.cookie, req.headers.authorization)) return next();
    await serve(req, res, next, null, cacheAddress);
  };

  /**
   * Everyone with a session token, once the host has resolved who they are (`res.locals.viewer`,
   * checked against the database on every request, so logout, expiry and refunds count at once).
   */
  const tieredMiddleware: RequestHandler = async (req, res, next) => {
    const cacheAddress = options.cacheAddress(req);
    if (cacheAddress === null || res.locals.hostError) return next();
    const viewer = res.locals.viewer as { member: boolean; firstName: string } | null | undefined;
    await serve(req, res, next, viewer ? { member: viewer.member, firstName: viewer.firstName } : null, cacheAddress);
  };

  /**
   * The cheap path for a stored page: a plain Node request and response, no Express,
   * no middleware, no nonce; the page's stored headers are written in one call. Answers (true,
   * or a promise of true) a GET/HEAD whose address holds a page for the asker's tier that was
   * sent at least once through the whole host: at once without a session token; with one, after
   * `tierOf` has checked the session in the database (so logout, expiry and refunds count on
   * the next request). Returns false, having touched nothing, otherwise.
   */
  function serveStored(req: IncomingMessage, res: ServerResponse, { signedIn = true } = {}): boolean | Promise<boolean> {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const token = requestSessionToken(req.headers.cookie, req.headers.authorization);
    if (!token) return sendStored(req, res, null);
    if (!signedIn) return false;
    // Signed in: who they are now, from the database, then their tier's stored page (decision 013).
    const tierOf = options.tierOf;
    if (!tierOf || options.cacheAddress(req) === null) return false;
    return tierOf(token).then(
      (tier) => sendStored(req, res, tier),
      () => false,
    );
  }

  function sendStored(req: IncomingMessage, res: ServerResponse, tier: PageTier | null): boolean {
    // Only the stored spelling itself: any other reaches the page through the whole host.
    const key = pageKey(tier, req.url ?? "");
    const stored = store.get(key);
    const page = stored?.page;
    const wire = page?.wire;
    // A page stored before a change goes through the whole host, which waits for its new render.
    if (!stored || !page || !wire || !isCurrent(stored)) return false;
    if (isExpired(stored)) refreshLater(key);
    countPageCache("HIT");
    sendWithWire(req, res, page, wire, options.onServe?.(req, res) ?? "-");
    return true;
  }

  /** `serveStored` as the first middleware of an Express chain. */
  const storedPages: RequestHandler = (req, res, next) => {
    // Inside Express, signed-in people are served after the host has resolved their session
    // (tieredMiddleware): one session lookup per request, not two.
    if (serveStored(req, res, { signedIn: false }) !== true) next();
  };

  /**
   * The collection changed (the change feed): no page stored before is served again, and each
   * one is rendered again at once in the background, most recently used first, so the next
   * reader usually finds the new page ready; a reader who comes first waits for that render.
   * Renders under way are served to their askers but not stored.
   */
  function changed(): void {
    generation++;
    inFlight.clear();
    for (const key of store.keys()) due.add(key);
    refreshDue();
  }

  /**
   * Renders these visitors' pages ahead, one after another, in the background (start-up: the
   * first visitor after a deploy finds the home page ready instead of waiting for its render).
   * An address already stored or being rendered is left alone; one that gives nothing to keep
   * (a 404 after the collection changed) is simply not stored. Resolves when all are done.
   */
  async function prime(addresses: readonly string[]): Promise<void> {
    for (const address of addresses) {
      if (stopped) return;
      const key = pageKey(null, address);
      if (store.has(key) || inFlight.has(key)) continue;
      await startRender(key, { tier: null, address, headers: PRIMING_HEADERS }).catch((error: unknown) => options.onRefreshError?.(error, address));
    }
  }

  return { middleware, tieredMiddleware, serveStored, storedPages, changed, settled, stop, prime };
}

/** What a browser's request for a page says that a render may read (no cookie, no language). */
const PRIMING_HEADERS: [string, string][] = [
  ["accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"],
  ["accept-encoding", "gzip, deflate, br"],
];

/** Replaces the per-request nonce (only `script-src` has one) by the page's script hashes. */
export function withScriptHashes(csp: string, hashes: string[]): string {
  return csp.replace(/'nonce-[^']*'/, () => hashes.join(" "));
}
