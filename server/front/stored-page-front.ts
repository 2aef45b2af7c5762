/**
 * The stored-page front of a PGlite site (decision 045): a second process, with no database,
 * that answers visitors' stored pages from copies the owner (the process holding PGlite) sends
 * it, and passes every other request to the owner over the owner's internal socket.
 *
 * - It answers only what the owner's own fast path would answer from its store: a GET or HEAD
 *   without a session token, for a visitor's page by the exact address it is stored under, with
 *   the same bytes and headers (`sendWithWire`). A signed-in person's request, a form, an asset,
 *   an API call all go to the owner.
 * - Its copies end with the owner's: a change notice drops them all (the owner renders again and
 *   shares each new page after its first answer), and each expires when the owner's would
 *   (PAGE_CACHE_SECONDS after its render), so the owner renders it again behind the next answer.
 * - Passing on: the request as it came (method, address, headers, body streamed), with the
 *   address of the peer that sent it to this process and the owner's secret in two private
 *   headers, which the owner turns back into the request's own address (`acceptFromFront`). The
 *   answer streams back as the owner sent it.
 * - The owner being restarted: what the front holds is still answered; the rest gets 503 with
 *   Retry-After.
 */
import { Agent, request, type IncomingMessage, type ServerResponse } from "node:http";
import { requestSessionToken } from "../accounts/request-auth";
import { logRequest } from "../http/request-log";
import type { Logger } from "../logger";
import { countPageCache } from "../metrics/metrics";
import { pageKey, pageStore, sendWithWire, VISITOR_KEY, type SharedPage } from "../pages/page-cache";
import { FRONT_PEER, FRONT_SECRET } from "./front-hop";

/** Headers that belong to one hop (RFC 9110 7.6.1), passed on in neither direction. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "upgrade"]);

export interface StoredPageFrontOptions {
  /** The owner's internal socket. */
  ownerSocket: string;
  /** The owner's secret for this run (both processes get it from the primary). */
  secret: string;
  logger: Logger;
  /** PAGE_CACHE_SECONDS, in ms. */
  ttlMs: number;
  /** Memory budget of the pages held, all encodings counted (the owner's page cache's). */
  maxBytes?: number;
  now?: () => number;
}

export function createStoredPageFront(options: StoredPageFrontOptions) {
  const now = options.now ?? (() => performance.now());
  const pages = pageStore<{ page: SharedPage; expiresAt: number }>(options.maxBytes);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });

  function passOn(req: IncomingMessage, res: ServerResponse): void {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers };
    for (const name of HOP_HEADERS) delete headers[name];
    headers[FRONT_PEER] = req.socket.remoteAddress ?? "";
    headers[FRONT_SECRET] = options.secret;
    const upstream = request({ socketPath: options.ownerSocket, method: req.method, path: req.url, headers, agent }, (answer) => {
      const raw: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!HOP_HEADERS.has(answer.rawHeaders[i].toLowerCase())) raw.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, raw);
      answer.pipe(res);
      // An answer cut off midway: the asker must not take it for a whole one.
      answer.once("close", () => {
        if (!answer.complete) res.destroy();
      });
    });
    upstream.once("error", (error) => {
      // After the answer began (the owner answered early, e.g. 413 to an upload, and closed while
      // the body was still coming): the answer finishes or is cut off on its own.
      if (res.headersSent) return;
      options.logger.warn({ err: error, url: req.url }, "the owner did not answer; 503");
      res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5", "cache-control": "no-store" });
      res.end("The museum's site is restarting. Please try again in a few seconds.\n");
    });
    // The asker went away: the owner's request goes too (it sees its connection close).
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  return {
    /** Answers one request: a held visitor's page, or passed on to the owner. */
    handle(req: IncomingMessage, res: ServerResponse): void {
      if (req.method === "GET" || req.method === "HEAD") {
        if (!requestSessionToken(req.headers.cookie, req.headers.authorization)) {
          const key = pageKey(null, req.url ?? "");
          const held = pages.get(key);
          if (held && now() < held.expiresAt) {
            countPageCache("HIT");
            return sendWithWire(req, res, held.page, held.page.wire, logRequest(options.logger, req, res, false));
          }
          if (held) pages.delete(key);
        }
      }
      passOn(req, res);
    },
    /** A visitor's page the owner shares, rendered `ageMs` ago. */
    shared(key: string, page: SharedPage, ageMs: number): void {
      if (!key.startsWith(VISITOR_KEY)) return;
      const expiresAt = now() + options.ttlMs - ageMs;
      if (expiresAt > now()) pages.set(key, { page, expiresAt });
    },
    /** The collection changed: nothing held is answered again. */
    changed(): void {
      pages.clear();
    },
    /** How many pages are held (tests, metrics). */
    size: () => pages.size,
  };
}
