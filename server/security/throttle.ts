/**
 * The same database-backed counters as the API's express-rate-limit tiers, for page actions
 * (which React Router handles after Express has passed the request on).
 */
import type { Database } from "../db/client";
import { DatabaseRateLimitStore } from "./rate-limit-store";

export interface ThrottleRule {
  name: string;
  windowMs: number;
  limit: number;
}

export const LOGIN_PER_IP: ThrottleRule = { name: "login-ip", windowMs: 15 * 60_000, limit: 20 };
export const LOGIN_PER_ACCOUNT: ThrottleRule = { name: "login-account", windowMs: 15 * 60_000, limit: 10 };
export const PASSWORD_RESET: ThrottleRule = { name: "reset", windowMs: 15 * 60_000, limit: 5 };
export const FORMS: ThrottleRule = { name: "forms", windowMs: 10 * 60_000, limit: 10 };

export function createThrottle(db: Database, relaxed: boolean, now?: () => Date) {
  const factor = relaxed ? 50 : 1;
  const stores = new Map<string, DatabaseRateLimitStore>();
  return {
    factor,
    /** Counts one hit; false when the key is over its limit for the current window. */
    async allow(rule: ThrottleRule, key: string): Promise<boolean> {
      let store = stores.get(rule.name);
      if (!store) {
        store = new DatabaseRateLimitStore(db, rule.name, now);
        store.init({ windowMs: rule.windowMs } as Parameters<DatabaseRateLimitStore["init"]>[0]);
        stores.set(rule.name, store);
      }
      const { totalHits } = await store.increment(key);
      return totalHits <= rule.limit * factor;
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;
