/**
 * One JSON log line per request, with a request id also sent back as X-Request-Id. Secrets that
 * travel in a query string (a password-reset token) are redacted before logging.
 *
 * The line is `logger.info({ req: { id, method, url }, res: { statusCode }, responseTime },
 * "request completed")` (the shape pino-http gave it), to the logger's asynchronous destination,
 * which gathers lines into one write (server/logger.ts; decision 053). A request's child logger
 * (`req.log`, for errors) is made only when something asks for it.
 *
 * A stored visitor page sent before Express is the one answer the site does not log line by line
 * at `info` (decision 057): its line cost a fifth of that answer's CPU. It is logged at `debug`,
 * and `storedPageTally` writes how many went out, once a minute, at `info`.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "../logger";

declare module "http" {
  interface IncomingMessage {
    /** The request id (X-Request-Id). */
    id: string;
    /** A child logger bound to the request id. */
    log: Logger;
  }
}

const SECRET_PARAMS = /([?&](?:token|code|key|secret|password|signature)=)[^&#]*/gi;

/** The URL as it may be written to a log: values of secret-bearing parameters replaced. */
export function redactUrl(url: string | undefined): string {
  // Most addresses carry no parameter at all: no regular expression for them.
  return url?.includes("=") ? url.replace(SECRET_PARAMS, "$1[redacted]") : (url ?? "");
}

/** Requests not logged: health checks and fingerprinted assets. */
function unlogged(url: string): boolean {
  return url === "/healthz" || url === "/readyz" || url.startsWith("/assets/");
}

/**
 * Gives `req` an id and logs one line when the answer has gone out or the connection closed
 * first. Usable outside Express: the host's stored-page path calls it with `forExpress` false,
 * and writes the returned id as X-Request-Id with the rest of its headers; the Express chain
 * gets the header and `req.log` too. Returns the id.
 */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, forExpress = true, level: "info" | "debug" = "info"): string {
  const id = randomUUID();
  const started = performance.now();
  req.id = id;
  if (forExpress) {
    let child: Logger | undefined;
    Object.defineProperty(req, "log", {
      configurable: true,
      enumerable: false,
      get: () => (child ??= logger.child({ reqId: id })),
    });
    res.setHeader("X-Request-Id", id);
  }
  const url = req.url ?? "";
  if (unlogged(url) || (level === "debug" && !logger.isLevelEnabled("debug"))) return id;
  // 'close' follows 'finish' on a completed answer, and comes alone when the client went away.
  res.once("close", () => {
    const statusCode = res.statusCode;
    const fields = {
      req: { id, method: req.method, url: redactUrl(url) },
      res: { statusCode },
      responseTime: Math.round(performance.now() - started),
    };
    if (statusCode >= 500) logger.error(fields, "request errored");
    else if (!res.writableFinished) logger[level](fields, "request aborted");
    else logger[level](fields, "request completed");
  });
  return id;
}

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    logRequest(logger, req, res);
    next();
  };
}

/** How often `storedPageTally` writes its count. */
export const TALLY_MS = 60_000;

/**
 * Counts the stored pages sent without a line each (see above) and writes their number once a
 * `TALLY_MS` at `info` ("stored pages served", with `count` and `seconds`), when there were any.
 */
export function storedPageTally(logger: Logger, everyMs = TALLY_MS) {
  let count = 0;
  let since = performance.now();
  const write = () => {
    const now = performance.now();
    if (count > 0) logger.info({ count, seconds: Math.round((now - since) / 1000) }, "stored pages served");
    count = 0;
    since = now;
  };
  const timer = setInterval(write, everyMs);
  timer.unref();
  return {
    /** One stored page sent. */
    add: () => void count++,
    /** Writes what was counted since the last line, and stops (the process is stopping). */
    stop: () => {
      clearInterval(timer);
      write();
    },
  };
}
