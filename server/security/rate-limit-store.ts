/**
 * Rate-limit counters kept in the database, so every instance behind a load balancer counts the
 * same hits: an express-rate-limit store (fixed windows; the limiting itself is
 * express-rate-limit's), and a slow-down (each attempt past the free ones waits twice as long
 * as the one before). A row means nothing once its reset_at has passed; housekeeping deletes it.
 */
import { sql } from "drizzle-orm";
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
import { resendable } from "../db/retrying";
import { rateLimits } from "../db/schema";

export class DatabaseRateLimitStore implements Store {
  private windowMs = 60_000;
  readonly prefix: string;

  constructor(
    private readonly db: Database,
    prefix: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.prefix = `${prefix}:`;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = this.now();
    const resetAt = new Date(now.getTime() + this.windowMs).toISOString();
    // Sent again after a lost connection (`resendable`, decision 052): at worst one hit counts twice.
    const [row] = await resendable(() => queryRows<{ hits: number; reset_at: string | Date }>(
      this.db,
      sql`insert into ${rateLimits} (key, hits, reset_at) values (${this.prefix + key}, 1, ${resetAt})
          on conflict (key) do update set
            hits = case when ${rateLimits.resetAt} <= ${now.toISOString()} then 1 else ${rateLimits.hits} + 1 end,
            reset_at = case when ${rateLimits.resetAt} <= ${now.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
          returning hits, reset_at`,
    ));
    return { totalHits: Number(row.hits), resetTime: new Date(row.reset_at) };
  }

  async decrement(key: string): Promise<void> {
    await resendable(async () => {
      await this.db.execute(sql`update ${rateLimits} set hits = greatest(hits - 1, 0) where key = ${this.prefix + key}`);
    });
  }

  async resetKey(key: string): Promise<void> {
    await resendable(async () => {
      await this.db.execute(sql`delete from ${rateLimits} where key = ${this.prefix + key}`);
    });
  }
}

/** A slow-down: `free` attempts at once, then each next one only after a doubling wait. */
export interface SlowDownRule {
  name: string;
  /** Attempts allowed without waiting. */
  free: number;
  /** The wait after the last free attempt; it doubles with every attempt after that. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Counting starts again this long after the last attempt. */
  forgetAfterMs: number;
}

export type SlowDownVerdict = { allowed: true; attempts: number } | { allowed: false; retryAfterMs: number };

/** The wait imposed after attempt number `attempts` (1-based). */
export function slowDownDelayMs(rule: SlowDownRule, attempts: number): number {
  if (attempts < rule.free) return 0;
  return Math.min(rule.baseDelayMs * 2 ** Math.min(attempts - rule.free, 30), rule.maxDelayMs);
}

/**
 * The slow-down's counters. `attempt` counts and allows in one statement (the row is locked by
 * the upsert), so a burst of parallel requests gets exactly the free attempts through and no
 * more; an attempt refused while waiting is not counted.
 */
export class SlowDownStore {
  constructor(
    private readonly db: Database,
    private readonly rule: SlowDownRule,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key(key: string) {
    return `${this.rule.name}:${key}`;
  }

  async attempt(key: string): Promise<SlowDownVerdict> {
    const { free, baseDelayMs, maxDelayMs, forgetAfterMs } = this.rule;
    const now = this.now();
    const at = now.toISOString();
    const forgetAt = new Date(now.getTime() + forgetAfterMs).toISOString();
    const firstDelay = slowDownDelayMs(this.rule, 1);
    const firstBlock = firstDelay > 0 ? new Date(now.getTime() + firstDelay).toISOString() : null;
    // n = the count including this attempt; the wait it leaves behind is base * 2^(n - free), capped.
    const n = sql`(case when r.reset_at <= ${at} then 1 else r.hits + 1 end)`;
    const [row] = await queryRows<{ hits: number }>(
      this.db,
      sql`insert into ${rateLimits} as r (key, hits, reset_at, blocked_until)
          values (${this.key(key)}, 1, ${forgetAt}, ${firstBlock})
          on conflict (key) do update set
            hits = ${n},
            reset_at = excluded.reset_at,
            blocked_until = case when ${n} < ${free} then null
              else ${at}::timestamptz
                + least(${baseDelayMs}::float8 * power(2, least(${n} - ${free}, 30)), ${maxDelayMs}::float8) * interval '1 millisecond'
            end
          where r.reset_at <= ${at} or r.blocked_until is null or r.blocked_until <= ${at}
          returning r.hits`,
    );
    if (row) return { allowed: true, attempts: Number(row.hits) };
    const [held] = await queryRows<{ blocked_until: string | Date | null }>(
      this.db,
      sql`select blocked_until from ${rateLimits} where key = ${this.key(key)}`,
    );
    const until = held?.blocked_until ? new Date(held.blocked_until).getTime() : now.getTime();
    return { allowed: false, retryAfterMs: Math.max(until - now.getTime(), 1000) };
  }

  /** Forgets one key's attempts (after a success). */
  async clear(key: string): Promise<void> {
    await resendable(async () => {
      await this.db.execute(sql`delete from ${rateLimits} where key = ${this.key(key)}`);
    });
  }

  /** Forgets the attempts of every key that starts with `prefix`. */
  async clearPrefix(prefix: string): Promise<void> {
    const p = this.key(prefix);
    await this.db.execute(sql`delete from ${rateLimits} where left(key, ${p.length}) = ${p}`);
  }
}
