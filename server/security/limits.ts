/**
 * One host-level rate limiter, in tiers, for every request that changes state or costs real
 * work, pages and API alike: login and password reset tightest, the contact and newsletter
 * forms next, other writes generous, image renders per minute. Counted per client IP (IPv6 by
 * /56). On PostgreSQL the counters are in the database, so every instance counts the same hits;
 * on PGlite, one process's database and so always one instance, they are in that process's
 * memory (express-rate-limit's MemoryStore), which spares every counted request a write (about
 * 2 ms on PGlite). RATE_LIMIT_RELAXED multiplies the limits for automated test runs instead of
 * branching in the code.
 *
 * An API call over its limit is answered 429 here. A page action is not: React Router's client
 * can only read an answer shaped by the action, so the request goes on with
 * `res.locals.rateLimited` set, and the action answers with the message (see
 * app/lib/action-guards.server.ts) without doing any work.
 */
import type { Request, RequestHandler } from "express";
import { ipKeyGenerator, MemoryStore, rateLimit, type RateLimitRequestHandler } from "express-rate-limit";
import { SERVER_MESSAGES } from "../../app/shared/messages";
import { SEARCH_MESSAGES } from "../../app/lib/search";
import type { Database } from "../db/client";
import { DatabaseRateLimitStore } from "./rate-limit-store";

export interface LimitTier {
  name: string;
  windowMs: number;
  limit: number;
  message: string;
}

const MINUTE = 60_000;

export const LIMIT_TIERS = {
  login: { name: "login-ip", windowMs: 15 * MINUTE, limit: 20, message: SERVER_MESSAGES.loginRateLimited },
  passwordReset: { name: "reset", windowMs: 15 * MINUTE, limit: 5, message: SERVER_MESSAGES.tooManyRequests },
  forms: { name: "forms", windowMs: 10 * MINUTE, limit: 20, message: SERVER_MESSAGES.tooManyRequests },
  writes: { name: "writes", windowMs: MINUTE, limit: 60, message: SERVER_MESSAGES.tooManyRequests },
  /** Image requests (a page shows up to ~40); renders are the costly part, hits are cheap. */
  images: { name: "images", windowMs: MINUTE, limit: 600, message: SERVER_MESSAGES.tooManyRequests },
  /** Searches and suggestions (issue 14): reads, but each one costs more than a stored page. */
  search: { name: "search", windowMs: MINUTE, limit: 120, message: SEARCH_MESSAGES.rateLimited },
} satisfies Record<string, LimitTier>;

type TierName = keyof typeof LIMIT_TIERS;

/** Which tier a request counts against; null for requests that are not limited. */
const ROUTES: [method: string, path: RegExp, tier: TierName][] = [
  ["POST", /^\/api\/stripe\/webhook$/, "writes"],
  // The console's password check before sensitive actions is a password guess like a login.
  // So are the account's own forms that check the current password (issue 13).
  ["POST", /^\/(?:login|api\/users\/login|admin\/confirm-password|account\/(?:password|email|delete))$/, "login"],
  ["POST", /^\/(?:password\/(?:request|reset)|api\/users\/(?:request-reset|reset-password))$/, "passwordReset"],
  // A gift's sign-in or sign-up on its redeem page is a password guess like a login (issue 13).
  ["POST", /^\/gift\/redeem\/[^/]+$/, "login"],
  ["POST", /^\/(?:gift|gift\/[^/]+\/pay|contact|subscribe|api\/email\/contact|api\/contact|api\/mc\/subscribe|api\/subscribes)$/, "forms"],
  ["GET", /^\/images\//, "images"],
  ["GET", /^\/(?:search|api\/search(?:\/suggest)?)$/, "search"],
];

/** The page a `.data` call belongs to: `/login.data` → `/login`, `/_root.data` → `/`. */
export function pagePath(path: string): string {
  const p = path.replace(/\/_root\.data$/, "/").replace(/\.data$/, "");
  return p.length > 1 ? p.replace(/\/+$/, "") : p;
}

export function tierFor(method: string, path: string): LimitTier | null {
  const m = method === "HEAD" ? "GET" : method;
  const p = pagePath(path);
  if (m === "POST" && p === "/api/stripe/webhook") return null; // Stripe's own retries; signed
  for (const [routeMethod, re, tier] of ROUTES) if (routeMethod === m && re.test(p)) return LIMIT_TIERS[tier];
  return m === "GET" || m === "OPTIONS" ? null : LIMIT_TIERS.writes;
}

/** Where the counters live: the database (shared by every instance) or this process's memory (PGlite: one process). */
export type CounterStore = "database" | "memory";

export function createHostRateLimiter(db: Database, relaxed: boolean, counters: CounterStore = "database", now?: () => Date): RequestHandler {
  const factor = relaxed ? 50 : 1;
  const limiters = new Map<string, RateLimitRequestHandler>();
  for (const tier of Object.values(LIMIT_TIERS)) {
    limiters.set(
      tier.name,
      rateLimit({
        windowMs: tier.windowMs,
        limit: tier.limit * factor,
        standardHeaders: "draft-8",
        legacyHeaders: false,
        store: counters === "memory" ? new MemoryStore() : new DatabaseRateLimitStore(db, tier.name, now),
        keyGenerator: (req: Request) => ipKeyGenerator(req.ip ?? "unknown"),
        handler: (req, res, next) => {
          if (req.path.startsWith("/api/") || req.path.startsWith("/images/")) {
            res.status(429).json({ message: tier.message, login: false, success: false });
            return;
          }
          res.locals.rateLimited = tier.message;
          next();
        },
      }),
    );
  }
  return (req, res, next) => {
    const tier = tierFor(req.method, req.path);
    if (!tier) return next();
    limiters.get(tier.name)!(req, res, next);
  };
}
