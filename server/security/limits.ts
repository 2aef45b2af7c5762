/**
 * One host-level rate limiter, in tiers, for every request that changes state or costs real
 * work, pages and API alike: login and password reset (asking for a link, using one) tightest, the contact and newsletter
 * forms next, other writes generous, image renders per minute. Which tier a request counts
 * against is its route's policy (app/shared/route-policy.ts), resolved from the route that
 * matched (server/http/route-policy.ts), so every spelling of a path meets the same limit. Counted per client IP (IPv6 by
 * /56). On PostgreSQL the counters are in the database, so every instance counts the same hits;
 * on PGlite, one process's database and so always one instance, they are in that process's
 * memory (express-rate-limit's MemoryStore), which spares every counted request a write (about
 * 2 ms on PGlite). RATE_LIMIT_RELAXED multiplies the limits for automated test runs instead of
 * branching in the code.
 *
 * An API call over its limit is answered 429 here. A page action is not: React Router's client
 * can only read an answer shaped by the action, so the request goes on with
 * `res.locals.rateLimited` set, and the action answers with the message (see
 * `rateLimitedAnswer` in app/lib/guards.server.ts) without doing any work.
 */
import type { Request, RequestHandler } from "express";
import { ipKeyGenerator, MemoryStore, rateLimit, type RateLimitRequestHandler } from "express-rate-limit";
import { SERVER_MESSAGES } from "../../app/shared/messages";
import { SEARCH_MESSAGES } from "../../app/shared/search";
import type { RateTierName } from "../../app/shared/route-policy";
import type { Database } from "../db/client";
import { routeOf, type ResolvedRoute } from "../http/route-policy";
import { DatabaseRateLimitStore } from "./rate-limit-store";

export interface LimitTier {
  name: string;
  windowMs: number;
  limit: number;
  message: string;
  /** Counted in each process's memory even on PostgreSQL (a count is cheap, and a write per view would not be). */
  memoryOnly?: boolean;
}

const MINUTE = 60_000;

export const LIMIT_TIERS: Record<RateTierName, LimitTier> = {
  login: { name: "login-ip", windowMs: 15 * MINUTE, limit: 20, message: SERVER_MESSAGES.loginRateLimited },
  /** Asking for a reset link: each ask sends a mail, so few (a person asks once or twice). */
  resetRequest: { name: "reset-request", windowMs: 15 * MINUTE, limit: 5, message: SERVER_MESSAGES.tooManyRequests },
  /** Using one: room for mistyped passwords; a link's 256-bit token cannot be guessed at any rate. */
  resetUse: { name: "reset-use", windowMs: 15 * MINUTE, limit: 10, message: SERVER_MESSAGES.tooManyRequests },
  forms: { name: "forms", windowMs: 10 * MINUTE, limit: 20, message: SERVER_MESSAGES.tooManyRequests },
  writes: { name: "writes", windowMs: MINUTE, limit: 60, message: SERVER_MESSAGES.tooManyRequests },
  /** Image requests (a page shows up to ~40); renders are the costly part, hits are cheap. */
  images: { name: "images", windowMs: MINUTE, limit: 600, message: SERVER_MESSAGES.tooManyRequests },
  /** Searches and suggestions: reads, but each one costs more than a stored page. */
  search: { name: "search", windowMs: MINUTE, limit: 120, message: SEARCH_MESSAGES.rateLimited },
  /** A page shown counts one view (decision 060): a school group behind one address browses fast; kept in memory only. */
  visits: { name: "visits", windowMs: MINUTE, limit: 300, message: SERVER_MESSAGES.tooManyRequests, memoryOnly: true },
};

/** The tier a resolved request counts against (its route's policy, app/shared/route-policy.ts), or null. */
export function limitTierOf(route: ResolvedRoute): LimitTier | null {
  return route.tier ? LIMIT_TIERS[route.tier] : null;
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
        store: counters === "memory" || tier.memoryOnly ? new MemoryStore() : new DatabaseRateLimitStore(db, tier.name, now),
        keyGenerator: (req: Request) => ipKeyGenerator(req.ip ?? "unknown"),
        handler: (_req, res, next) => {
          if (routeOf(res).host) {
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
    const tier = limitTierOf(routeOf(res));
    if (!tier) return next();
    limiters.get(tier.name)!(req, res, next);
  };
}
