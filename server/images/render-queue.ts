/**
 * A small bounded work queue for image renders: at most `concurrency` tasks run at once, at most
 * `maxQueued` wait behind them, and any task beyond that is refused at once (the caller answers
 * 503) instead of piling up memory and latency for everyone.
 */

export class RenderQueueFullError extends Error {
  constructor() {
    super("The image render queue is full");
    this.name = "RenderQueueFullError";
  }
}

export interface RenderQueueStats {
  /** Tasks running now. */
  active: number;
  /** Tasks waiting for a slot. */
  queued: number;
  /** The most tasks ever running at the same time (for tests and diagnostics). */
  peakActive: number;
  /** Tasks started since the queue was made. */
  started: number;
}

export function createRenderQueue(o: { concurrency: number; maxQueued: number }) {
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new RangeError("concurrency must be a positive integer");
  if (!Number.isInteger(o.maxQueued) || o.maxQueued < 0) throw new RangeError("maxQueued must be a whole number");
  const waiting: Array<() => void> = [];
  const stats: RenderQueueStats = { active: 0, queued: 0, peakActive: 0, started: 0 };

  /** Hands the finished task's slot to the next waiter, or frees it. */
  function release() {
    const next = waiting.shift();
    stats.queued = waiting.length;
    if (next) next();
    else stats.active--;
  }

  return {
    /** Runs `task` when a slot is free; rejects with RenderQueueFullError when the queue is full. */
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (stats.active >= o.concurrency) {
        if (waiting.length >= o.maxQueued) throw new RenderQueueFullError();
        // The slot is handed over by release(): `active` is not decremented in between.
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          stats.queued = waiting.length;
        });
      } else {
        stats.active++;
      }
      stats.peakActive = Math.max(stats.peakActive, stats.active);
      stats.started++;
      try {
        return await task();
      } finally {
        release();
      }
    },

    stats(): RenderQueueStats {
      return { ...stats };
    },
  };
}

