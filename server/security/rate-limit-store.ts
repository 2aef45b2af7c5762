/**
 * An express-rate-limit store kept in the database (fixed windows), so every instance behind a
 * load balancer counts the same hits. The limiting itself is express-rate-limit's.
 */
import { sql } from "drizzle-orm";
import type { ClientRateLimitInfo, Options, Store } from "express-rate-limit";
import type { Database } from "../db/client";
import { queryRows } from "../db/client";
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
    const [row] = await queryRows<{ hits: number; reset_at: string | Date }>(
      this.db,
      sql`insert into ${rateLimits} (key, hits, reset_at) values (${this.prefix + key}, 1, ${resetAt})
          on conflict (key) do update set
            hits = case when ${rateLimits.resetAt} <= ${now.toISOString()} then 1 else ${rateLimits.hits} + 1 end,
            reset_at = case when ${rateLimits.resetAt} <= ${now.toISOString()} then excluded.reset_at else ${rateLimits.resetAt} end
          returning hits, reset_at`,
    );
    return { totalHits: Number(row.hits), resetTime: new Date(row.reset_at) };
  }

  async decrement(key: string): Promise<void> {
    await this.db.execute(sql`update ${rateLimits} set hits = greatest(hits - 1, 0) where key = ${this.prefix + key}`);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.execute(sql`delete from ${rateLimits} where key = ${this.prefix + key}`);
  }
}
