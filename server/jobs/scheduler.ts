/**
 * The background loop every periodic job runs on (the outbox worker, housekeeping): one run at a
 * time, the next one scheduled when the last settles (`after` its result, `afterError` when it
 * threw), timers that never keep the process alive, and a stop that waits for the run in progress.
 */
export interface JobLoop {
  /** Starts the loop: the first run after `firstRunMs`. Does nothing when running already. */
  start(firstRunMs: number): void;
  /** Runs soon instead of at the next scheduled time. */
  kick(): void;
  /** Stops scheduling and waits for a run in progress. */
  stop(): Promise<void>;
}

export function createJobLoop<T>(o: { run: () => Promise<T>; after: (result: T) => number; afterError: (error: unknown) => number }): JobLoop {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  function schedule(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }
  function tick() {
    running = o.run().then(
      (result) => schedule(o.after(result)),
      (error: unknown) => schedule(o.afterError(error)),
    );
  }

  return {
    start(firstRunMs) {
      if (!stopped) return;
      stopped = false;
      schedule(firstRunMs);
    },
    kick() {
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
