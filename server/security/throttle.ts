/**
 * Slow-downs for rules that services apply themselves (login per IP and account: decision 010),
 * over the same database-backed counters as the host's tiers (server/security/limits.ts).
 */
import { ipKeyGenerator } from "express-rate-limit";
import type { Database } from "../db/client";
import { SlowDownStore, type SlowDownRule } from "./rate-limit-store";

export type { SlowDownRule } from "./rate-limit-store";

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
