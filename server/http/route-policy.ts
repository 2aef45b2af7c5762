/**
 * Resolves, once per request and before any check, the route a request runs and its policy
 * (app/shared/route-policy.ts, decision 022), and puts both on `res.locals`: `routeId` (the
 * React Router route id of the page, or `api:METHOD pattern` for the host's own routes) and
 * `route` (the resolved policy). The rate limiter, the body limits, the page cache and the
 * security headers read it there, so a path written in another case, with a trailing slash,
 * percent-encoded or as a `.data` call meets the same policy as the route it runs.
 *
 * One matcher for both: React Router's `matchRoutes`, case-insensitive and trailing-slash
 * tolerant like React Router itself and like Express. Pages are matched on the path React Router
 * will see (the URL-normalized path, `.data` and `/_root.data` mapped to their page); the host's
 * routes on the path Express sees. Decoding makes the matcher find a host route for a few
 * spellings Express answers 404 (`/api/users/%6Cogin`): such a request gets the stricter policy.
 */
import type { IncomingMessage } from "node:http";
import type { RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { generatePath, matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { HOST_POLICIES, PAGE_POLICIES, type BodyRuleName, type RateTierName, type RoutePolicy } from "../../app/shared/route-policy";

export interface ResolvedRoute {
  /** The leaf route id of a page, `api:METHOD pattern` for a host route, `api:unmatched` under /api with no route. */
  id: string;
  /** Answered by the host's Express routers (JSON API, images): refusals are JSON. */
  host: boolean;
  /** The rate-limit tier this request counts against (its method decides), or null. */
  tier: RateTierName | null;
  body: BodyRuleName;
  /** The address the page cache stores this page under (its route's own spelling), or null when the page is not cached. */
  cacheAddress: string | null;
  isolated: boolean;
  /** A GET/HEAD whose visitor's answer a cache in front may keep (decision 054). */
  shared: boolean;
}

/** Paths Express hands to the host's routers, not to React Router (app.use("/api"), the image router). */
const HOST_PATH = /^\/(?:api(?:\/|$)|images\/(?:view|share)\/)/i;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const isShared = (policy: RoutePolicy, method: string) => policy.shared === true && (method === "GET" || method === "HEAD");

/** The page a `.data` call belongs to, as React Router reads it: `/login.data` → `/login`, `/_root.data` → `/`. */
export function pagePath(path: string): string {
  const p = path === "/_root.data" ? "/" : path.replace(/\.data$/, "");
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

/** The path as React Router receives it: the URL parser resolves `.`/`..` segments and encodes what must be. */
function urlPath(path: string): string {
  try {
    return new URL(`http://host${path.startsWith("/") ? path : `/${path}`}`).pathname;
  } catch {
    return path;
  }
}

/** React Router's route tree from the server build's flat manifest. */
function pageTree(build: ServerBuild): RouteObject[] {
  type Entry = NonNullable<ServerBuild["routes"][string]>;
  const byParent = new Map<string | undefined, Entry[]>();
  for (const route of Object.values(build.routes)) {
    if (!route) continue;
    const list = byParent.get(route.parentId) ?? [];
    list.push(route);
    byParent.set(route.parentId, list);
  }
  const children = (parentId: string | undefined): RouteObject[] =>
    (byParent.get(parentId) ?? []).map((r) =>
      r.index ? { id: r.id, index: true, path: r.path, caseSensitive: r.caseSensitive } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: children(r.id) },
    );
  return children(undefined);
}

/** The first segment of a route's path when it is a plain word (`teams/:id` → `teams`); null when it matches more (a param, a splat, none). */
function staticHead(path: string | undefined): string | null {
  const head = path?.split("/")[0];
  return head && !/[:*?]/.test(head) ? head.toLowerCase() : null;
}

/** The routes of `tree` that can match a path starting with `head` (null: a head no route names). */
function branchesFor(tree: RouteObject[], head: string | null): RouteObject[] {
  return tree.flatMap((r): RouteObject[] => {
    if (!r.path && !r.index && r.children) return [{ ...r, children: branchesFor(r.children, head) }];
    const own = staticHead(r.path);
    return own === null || own === head ? [r] : [];
  });
}

/**
 * `matchRoutes` ranks the whole table it is given on every call (about 2 ms for this site's
 * ~75 routes; React Router keeps its own ranked branches private). So the table is cut once
 * into one per first segment (`teams`, `admin`, ...), each with the routes that can match it,
 * and a request is matched against its own: the same answer, a fraction of the work.
 */
function treesByHead(tree: RouteObject[]): (path: string) => RouteObject[] {
  const heads = new Set<string>();
  const collect = (routes: RouteObject[]) => {
    for (const r of routes) {
      const head = staticHead(r.path);
      if (head) heads.add(head);
      else if (!r.path && r.children) collect(r.children);
    }
  };
  collect(tree);
  const trees = new Map([...heads].map((h) => [h, branchesFor(tree, h)]));
  const rest = branchesFor(tree, null);
  return (path) => {
    const head = path.split("/")[1] ?? "";
    let decoded = head;
    try {
      decoded = decodeURIComponent(head);
    } catch {
      // React Router matches an undecodable path as it is.
    }
    return trees.get(decoded.toLowerCase()) ?? rest;
  };
}

/** Route ids of the build that have no policy entry (the server refuses to start with any). */
export function routesWithoutPolicy(build: ServerBuild): string[] {
  return Object.keys(build.routes).filter((id) => !Object.hasOwn(PAGE_POLICIES, id));
}

/** The host's routes as route objects per method: Express patterns (`*file`) in React Router's syntax (`*`). */
function hostTrees(): Map<string, RouteObject[]> {
  const trees = new Map<string, RouteObject[]>();
  for (const key of Object.keys(HOST_POLICIES)) {
    const [method, pattern] = key.split(" ");
    const list = trees.get(method) ?? [];
    list.push({ id: key, path: pattern.replace(/\*[A-Za-z_]\w*$/, "*") });
    trees.set(method, list);
  }
  return trees;
}

function tierFor(policy: RoutePolicy, method: string): RateTierName | null {
  if (SAFE_METHODS.has(method)) return method === "OPTIONS" ? null : (policy.read ?? null);
  return policy.write === undefined ? "writes" : policy.write;
}

export interface RouteResolver {
  resolve(method: string, path: string): ResolvedRoute;
}

export function createRouteResolver(build: ServerBuild): RouteResolver {
  const missing = routesWithoutPolicy(build);
  if (missing.length) throw new Error(`Routes without a policy in app/shared/route-policy.ts: ${missing.join(", ")}`);
  const pages = treesByHead(pageTree(build));
  const hosts = new Map([...hostTrees()].map(([method, tree]) => [method, treesByHead(tree)]));

  function resolvePage(method: string, path: string): ResolvedRoute {
    const normalized = pagePath(urlPath(path));
    const matches = matchRoutes(pages(normalized), normalized) ?? [];
    const leaf = matches[matches.length - 1];
    const id = leaf?.route.id ?? "routes/not-found";
    const policy = PAGE_POLICIES[id] ?? {};
    let cacheAddress: string | null = null;
    if (policy.cached && (method === "GET" || method === "HEAD") && leaf) {
      const pattern = `/${matches.map((m) => m.route.path ?? "").filter(Boolean).join("/")}`;
      cacheAddress = generatePath(pattern, leaf.params);
    }
    return { id, host: false, tier: tierFor(policy, method), body: policy.body ?? "page form", cacheAddress, isolated: policy.isolated === true, shared: isShared(policy, method) };
  }

  function resolveHost(method: string, path: string): ResolvedRoute {
    const m = method === "HEAD" ? "GET" : method;
    const tree = hosts.get(m);
    const match = tree ? matchRoutes(tree(path), path)?.at(-1) : undefined;
    const key = match?.route.id;
    const policy = key ? HOST_POLICIES[key] : {};
    return { id: key ? `api:${key}` : "api:unmatched", host: true, tier: tierFor(policy, m), body: policy.body ?? "JSON API", cacheAddress: null, isolated: policy.isolated === true, shared: isShared(policy, m) };
  }

  // `matchRoutes` flattens and ranks the whole route table on every call (React Router keeps its
  // own ranked branches private): the answers for recent addresses are remembered instead.
  const recent = new LRUCache<string, ResolvedRoute>({ max: 5000 });
  return {
    resolve(method, path) {
      const m = method.toUpperCase();
      const key = `${m} ${path}`;
      let route = recent.get(key);
      if (!route) {
        route = HOST_PATH.test(path) ? resolveHost(m, path) : resolvePage(m, path);
        recent.set(key, Object.freeze(route));
      }
      return route;
    },
  };
}

const resolved = new WeakMap<IncomingMessage, ResolvedRoute>();

/**
 * The resolver of a build, or of a build loader (the Vite dev server hands a new build after
 * each change). `forRequest` resolves a request once and remembers the answer for it, so the
 * stored-page fast path and the Express chain share one resolution.
 */
export function routePolicies(build: ServerBuild | (() => Promise<ServerBuild>)) {
  let current: { build: ServerBuild; resolver: RouteResolver } | null = typeof build === "function" ? null : { build, resolver: createRouteResolver(build) };

  async function resolver(): Promise<RouteResolver> {
    if (typeof build !== "function") return current!.resolver;
    const b = await build();
    if (current?.build !== b) current = { build: b, resolver: createRouteResolver(b) };
    return current.resolver;
  }

  function forRequest(req: IncomingMessage): ResolvedRoute {
    let route = resolved.get(req);
    if (!route) {
      if (!current) throw new Error("the route policies are not loaded yet");
      route = current.resolver.resolve(req.method ?? "GET", (req.url ?? "/").split("?")[0]);
      resolved.set(req, route);
    }
    return route;
  }

  /** Puts the matched route's id and policy on `res.locals` (`routeId`, `route`). */
  const middleware: RequestHandler = (req, res, next) => {
    const ready = current && typeof build !== "function" ? null : resolver();
    const apply = () => {
      // req.url, not req.path: this runs at the top of the app, before any mount point strips a prefix.
      const route = forRequest(req);
      res.locals.route = route;
      res.locals.routeId = route.id;
      next();
    };
    if (!ready) return apply();
    ready.then(apply, next);
  };

  return { middleware, forRequest };
}

/** The policy the early middleware resolved for this request. */
export function routeOf(res: Response): ResolvedRoute {
  const route = res.locals.route as ResolvedRoute | undefined;
  if (!route) throw new Error("no route policy on this request: routePolicies().middleware must run first");
  return route;
}
