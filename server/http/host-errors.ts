/**
 * Last stops for errors outside React Router: the API answers JSON (a client's mistake keeps its
 * 4xx with a clear message; a database that cannot answer is 503); a page request is rendered by
 * React Router's error page with the status (`hostError` in the load context), and only if that
 * fails too, a small plain page. Express's bare text answer is never sent.
 */
import type { ErrorRequestHandler, Request, Response } from "express";
import { HOST_MESSAGES } from "../../app/shared/messages";
import { isDatabaseUnavailable, isUntranslatableText } from "../db/errors";
import { BODY_LIMITS, formatBytes } from "./body-limits";
import type { ResolvedRoute } from "./route-policy";
import { markPersonal } from "./shared-caching";

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
}

/** The status and message an error should be answered with. */
export function classifyError(err: unknown, req: Request): { status: number; message: string } {
  const e = (err ?? {}) as HttpishError;
  const status = e.status ?? e.statusCode ?? 500;
  if (e.type === "entity.too.large" || status === 413) return { status: 413, message: HOST_MESSAGES.bodyTooLarge(formatBytes(BODY_LIMITS[(req.res?.locals.route as ResolvedRoute | undefined)?.body ?? "page form"].maxBytes)) };
  if (e.type === "entity.parse.failed") return { status: 400, message: "The request body is not valid JSON." };
  if (status >= 400 && status < 500) return { status, message: HOST_MESSAGES.badRequest };
  if (isUntranslatableText(err)) return { status: 400, message: HOST_MESSAGES.badRequest };
  if (isDatabaseUnavailable(err)) return { status: 503, message: HOST_MESSAGES.unavailable };
  return { status: 500, message: "Something went wrong on our side. Please try again later." };
}

export const apiErrorHandler: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (res.headersSent) return next(err);
  const { status, message } = classifyError(err, req);
  if (status >= 500) req.log.error({ err }, "api error");
  if (status === 503) res.setHeader("Retry-After", "30");
  markPersonal(res);
  res.status(status).json({ message, success: false });
};

export function pageErrorHandler(renderErrorPage: (req: Request, res: Response, status: number) => Promise<void>): ErrorRequestHandler {
  return async (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const { status, message } = classifyError(err, req);
    if (status >= 500) req.log.error({ err }, "page request failed");
    if (status === 503) res.setHeader("Retry-After", "30");
    markPersonal(res);
    if (status === 413 || status === 400) {
      res.setHeader("Connection", "close");
      return res.status(status).type("text/plain").send(message);
    }
    try {
      await renderErrorPage(req, res, status);
    } catch (error) {
      req.log.error({ err: error }, "error page failed");
      if (!res.headersSent) res.status(status).type("text/plain").send(HOST_MESSAGES.unavailable);
    }
  };
}
