/**
 * Last stop for API errors: body-parser's client errors (bad JSON, too large) keep their 4xx
 * status with a clear message; anything else is logged and answered 500 without details.
 */
import type { ErrorRequestHandler } from "express";
import { sendError } from "./http-errors";

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
}

export const apiErrorHandler: ErrorRequestHandler = (err: unknown, req, res, next) => {
  if (res.headersSent) return next(err);
  const e = (err ?? {}) as HttpishError;
  const status = e.status ?? e.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message =
      e.type === "entity.parse.failed"
        ? "The request body is not valid JSON."
        : e.type === "entity.too.large"
          ? "The request body is too large."
          : "The request could not be understood.";
    return sendError(res, status, message);
  }
  req.log.error({ err }, "api error");
  sendError(res, 500, "Something went wrong on our side. Please try again later.");
};
