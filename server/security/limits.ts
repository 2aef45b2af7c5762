/**
 * Rate limits in tiers (per IP unless said otherwise): reads generous, writes tighter, login and
 * password reset tightest, and login also per account. RATE_LIMIT_RELAXED multiplies the limits
 * for automated test runs instead of branching in the code.
 */
import type { Request, RequestHandler } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { SERVER_MESSAGES } from "../../app/lib/messages";
import type { Database } from "../db/client";
import { DatabaseRateLimitStore } from "./rate-limit-store";
import { FORMS, LOGIN_PER_ACCOUNT, LOGIN_PER_IP, PASSWORD_RESET, type ThrottleRule } from "./throttle";

export interface LimitTiers {
  writes: RequestHandler;
  login: RequestHandler;
  loginPerAccount: RequestHandler;
  passwordReset: RequestHandler;
  forms: RequestHandler;
}

const MINUTE = 60_000;

export function createRateLimits(db: Database, relaxed: boolean, now?: () => Date): LimitTiers {
  const factor = relaxed ? 50 : 1;
  const make = ({ name, windowMs, limit }: ThrottleRule, message: string, key?: (req: Request) => string) =>
    rateLimit({
      windowMs,
      limit: limit * factor,
      standardHeaders: "draft-8",
      legacyHeaders: false,
      store: new DatabaseRateLimitStore(db, name, now),
      keyGenerator: key ?? ((req) => ipKeyGenerator(req.ip ?? "unknown")),
      handler: (_req, res) => res.status(429).json({ message, login: false, success: false }),
    });
  const accountKey = (req: Request) => {
    const email = (req.body as { emailAddress?: unknown } | undefined)?.emailAddress;
    return typeof email === "string" ? email.trim().toLowerCase() : "none";
  };
  return {
    writes: make({ name: "writes", windowMs: MINUTE, limit: 60 }, SERVER_MESSAGES.tooManyRequests),
    login: make(LOGIN_PER_IP, SERVER_MESSAGES.loginRateLimited),
    loginPerAccount: make(LOGIN_PER_ACCOUNT, SERVER_MESSAGES.loginRateLimited, accountKey),
    passwordReset: make(PASSWORD_RESET, SERVER_MESSAGES.tooManyRequests),
    forms: make(FORMS, SERVER_MESSAGES.tooManyRequests),
  };
}
