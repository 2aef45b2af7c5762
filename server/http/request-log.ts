/**
 * One JSON log line per request (pino-http) with a request id, also sent back as X-Request-Id.
 * Secrets that travel in a query string (a password-reset token) are redacted before logging.
 */
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "../logger";

const SECRET_PARAMS = /([?&](?:token|code|key|secret|password|signature)=)[^&#]*/gi;

/** The URL as it may be written to a log: values of secret-bearing parameters replaced. */
export function redactUrl(url: string | undefined): string {
  return (url ?? "").replace(SECRET_PARAMS, "$1[redacted]");
}

export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => {
      const id = randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url?.startsWith("/assets/") === true },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? "error" : "info"),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
