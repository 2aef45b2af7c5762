/**
 * The same database-backed counters as the API's express-rate-limit tiers, for page actions
 * (which React Router handles after Express has passed the request on), and slow-downs for
 * rules that services apply themselves (login per IP and account: decision 010).
 */
import { ipKeyGenerator } from "express-rate-limit";
import type { Database } from "../db/client";
import { DatabaseRateLimitStore, SlowDownStore, type SlowDownRule } from "./rate-limit-store";

export type { SlowDownRule, SlowDownVerdict } from "./rate-limit-store";

export interface ThrottleRule {
  name: string;
  windowMs: number;
  limit: number;
}

export const LOGIN_PER_IP: ThrottleRule = { name: "login-ip", windowMs: 15 * 60_000, limit: 20 };
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

/**
 * A slow-down over the shared counters. RATE_LIMIT_RELAXED multiplies its free attempts, as it
 * multiplies the tiers' limits.
 */
export function createSlowDown(db: Database, rule: SlowDownRule, relaxed: boolean, now?: () => Date): SlowDownStore {
  return new SlowDownStore(db, relaxed ? { ...rule, free: rule.free * 50 } : rule, now);
}

/** A client address as a counter key: IPv6 addresses count by /56, as the host tiers do. */
export function clientKey(ip: string | undefined): string {
  return ipKeyGenerator(ip || "unknown");
}
