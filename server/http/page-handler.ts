/**
 * Hands page requests (documents and React Router's `.data` calls) to React Router. Only GET,
 * HEAD and POST reach it (anything else: 405); a posted form is read here, within the body limit
 * its route names (server/http/body-limits.ts), before React Router sees it, so no page action can be made to
 * buffer an unbounded body. A rule marked `stream` (a file upload) is handed over as a stream
 * cut off at its limit instead, for the route to parse part by part. Every answer depends on the session, so none may be stored by a
 * browser or a proxy unless the route says otherwise.
 */
import type { Request, RequestHandler, Response } from "express";
import { writeReadableStreamToWritable } from "@react-router/node";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { HOST_MESSAGES } from "../../app/shared/messages";
import { bodyLimitOf, bodyRuleOf, hasBody, limitedBodyStream, readBody } from "./body-limits";
import { routeOf } from "./route-policy";
import { carriesSession, markShared, pageKeyOf, type SharedCacheTimes } from "./shared-caching";

const PAGE_METHODS = ["GET", "HEAD", "POST"];

export interface PageHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
  /** What a cache in front may do with a visitor's answer of a shared route (decision 054); omitted: nothing is shared. */
  sharedCache?: SharedCacheTimes;
}

/** The request as React Router takes it, with the body already read (or a size-limited stream of it). */
export function fetchRequestFrom(req: Request, res: Response, body?: Buffer | ReadableStream<Uint8Array>): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const host = (req.get("host") ?? "localhost").replace(/[^A-Za-z0-9.:[\]-]/g, "") || "localhost";
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const withBody = req.method !== "GET" && req.method !== "HEAD";
  const stream = body instanceof ReadableStream;
  return new globalThis.Request(`${req.protocol}://${host}${req.originalUrl}`, {
    method: req.method,
    headers,
    signal: controller.signal,
    body: withBody ? (stream ? body : new Uint8Array(body ?? Buffer.alloc(0))) : undefined,
    ...(stream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * Sends React Router's answer. `shared`: it is every visitor's (a shared route's complete 200 for
 * a request without a session): a cache in front may keep it (decision 054).
 */
export async function sendFetchResponse(res: Response, response: globalThis.Response, shared?: { times: SharedCacheTimes; path: string }): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) {
    if (name === "set-cookie") continue;
    res.append(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) res.append("Set-Cookie", cookie);
  if (shared) markShared(res, shared.times, [pageKeyOf(shared.path)]);
  else {
    if (!response.headers.has("cache-control")) res.setHeader("Cache-Control", "private, no-store");
    res.vary("Cookie");
  }
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!res.destroyed && !res.writableEnded) throw error;
  }
}


/**
 * A navigation inside the site to an address that does not exist asks for the not-found page's
 * data (`/nope.data`). That data is the page saying "not found"; answered 404, the browser would
 * also log it as a failed request. The document itself still answers 404.
 */
function isNotFoundPageData(req: Request, res: Response, response: globalThis.Response): boolean {
  return req.method === "GET" && response.status === 404 && req.path.endsWith(".data") && res.locals.routeId === "routes/not-found";
}

/** Whether this answer is every visitor's, as `sendFetchResponse` takes it (decision 054). */
function sharedAnswer(req: Request, res: Response, response: globalThis.Response, context: AppLoadContext, times: SharedCacheTimes | undefined) {
  const everyVisitors =
    times !== undefined &&
    routeOf(res).shared &&
    response.status === 200 &&
    !response.headers.has("set-cookie") &&
    !context.renderState.loadFailed &&
    !context.viewer &&
    !carriesSession(req);
  return everyVisitors ? { times, path: req.path } : undefined;
}

export function createPageHandler({ build, mode, getLoadContext, sharedCache }: PageHandlerOptions): RequestHandler[] {
  const handle = createRequestHandler(build, mode);
  const onlyPageMethods: RequestHandler = (req, res, next) => {
    if (PAGE_METHODS.includes(req.method)) return next();
    res.setHeader("Allow", PAGE_METHODS.join(", "));
    res.status(405).type("text/plain").send(HOST_MESSAGES.methodNotAllowed(PAGE_METHODS.join(", ")));
  };
  const render: RequestHandler = async (req, res, next) => {
    try {
      const rule = bodyRuleOf(res);
      const body = rule.stream && req.method === "POST" && hasBody(req.headers) ? limitedBodyStream(req, bodyLimitOf(rule, req.headers["content-type"])) : Buffer.isBuffer(req.body) ? req.body : undefined;
      const context = getLoadContext(req, res);
      let response = await handle(fetchRequestFrom(req, res, body), context);
      // A loader or action (a page, a resource route, a .data request) that met a database it
      // could not reach: 503 with Retry-After, as when the host's own first query meets it (decision 020).
      if (response.status === 500 && context.renderState.databaseUnavailable) {
        response = new Response(response.body, { status: 503, headers: response.headers });
        response.headers.set("Retry-After", "30");
      } else if (isNotFoundPageData(req, res, response)) {
        response = new Response(response.body, { status: 200, headers: response.headers });
      }
      await sendFetchResponse(res, response, sharedAnswer(req, res, response, context, sharedCache));
    } catch (error) {
      next(error);
    }
  };
  // A rule marked `stream` (file uploads) leaves the body unread here: the route reads the limited stream.
  const readPageBody: RequestHandler = (req, res, next) => (bodyRuleOf(res).stream ? next() : readBody(req, res, next));
  return [onlyPageMethods, readPageBody, render];
}
