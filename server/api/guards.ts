/**
 * Guards for the JSON API, the counterparts of app/lib/guards.server.ts: each lets the request
 * through or answers it (401 for no session).
 */
import type { RequestHandler } from "express";

/** A signed-in account (paid or not), or 401 with `message`. */
export function requireAccount(message: string): RequestHandler {
  return (_req, res, next) => {
    if (res.locals.viewer) return next();
    res.status(401).json({ success: false, message });
  };
}
