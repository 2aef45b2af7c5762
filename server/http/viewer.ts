/**
 * Who is asking, decided once per request from the session (cookie or Bearer token), for the
 * API, the images and the pages alike. When the database cannot answer, the request goes on as a
 * visitor's with `res.locals.hostError = 503`: the API answers 503 and a page shows the error page.
 */
import type { RequestHandler } from "express";
import { requestSessionToken } from "../accounts/request-auth";
import type { SessionStore } from "../accounts/sessions";
import { isDatabaseUnavailable } from "../db/errors";
import type { Logger } from "../logger";

export function resolveViewer(sessions: SessionStore, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    res.locals.viewer = null;
    const token = requestSessionToken(req.headers.cookie, req.headers.authorization);
    if (!token) return next();
    try {
      res.locals.viewer = await sessions.viewerFor(token, req.ip);
      next();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) return next(error);
      logger.warn({ err: error }, "database unavailable while reading the session");
      res.locals.hostError = 503;
      next();
    }
  };
}
