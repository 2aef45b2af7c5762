/**
 * Scheduled publishing's clock (decision 032): when a record's publish time passes, every
 * instance's catalog and page caches must forget what they kept, though nobody saved anything.
 * This loop wakes at the next publish time (and at least every `maxWaitMs`, so a time scheduled
 * on another instance is met too), refreshes the search documents that depend on what appeared,
 * and notifies the change feed, which clears the caches of every instance (decision 012).
 * Each instance runs its own loop; a notification more than once only clears a cache twice.
 */
import type { Database } from "../db/client";
import type { Logger } from "../logger";
import { createJobLoop } from "../jobs/scheduler";
import { publishPassed } from "./publication";

export const PUBLISHER_MAX_WAIT_MS = 60_000;

export interface PublisherDeps {
  db: Database;
  logger: Logger;
  now?: () => Date;
  /** Tells every instance that the collection changed (the change feed's notify). */
  notifyChange: () => Promise<void>;
  maxWaitMs?: number;
}

export function createPublisher({ db, logger, now = () => new Date(), notifyChange, maxWaitMs = PUBLISHER_MAX_WAIT_MS }: PublisherDeps) {
  let checkedUpTo = now();

  /** Tells the caches about every publish time passed since the last run; returns the next one. */
  async function runOnce(): Promise<{ appeared: number; next: Date | null }> {
    const to = now();
    const result = await publishPassed(db, checkedUpTo, to);
    checkedUpTo = to;
    if (result.appeared > 0) {
      await notifyChange();
      logger.info({ appeared: result.appeared }, "scheduled records published");
    }
    return result;
  }

  const loop = createJobLoop({
    run: runOnce,
    // A little after the next publish time (so it has passed on this clock), else the longest wait.
    after: ({ next }) => Math.max(250, Math.min(maxWaitMs, next ? next.getTime() - now().getTime() + 250 : maxWaitMs)),
    afterError: (error) => {
      logger.error({ err: error }, "scheduled publishing check failed");
      return maxWaitMs;
    },
  });

  return { runOnce, start: () => loop.start(0), stop: loop.stop };
}

