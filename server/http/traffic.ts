/**
 * The requests this process is answering, and a wait for a quiet moment (decision 041): work
 * that takes a whole core for a while and that nobody waits for (the rendition warmer) starts
 * its next step when no request has been in flight for a short while, so a visitor who arrives
 * seconds after a start does not share the cores with it. The wait is bounded: on a site that is
 * never quiet the work still goes on, one step per `maxWaitMs`.
 */
import type { ServerResponse } from "node:http";

export interface QuietWait {
  /** How long no request must have been in flight. */
  quietMs: number;
  /** The longest wait: past it the work goes on anyway. */
  maxWaitMs: number;
  /** Ends the wait at once (the process is stopping). */
  signal?: AbortSignal;
}

/** How often a waiting step looks again. */
const POLL_MS = 100;

export function createTrafficGauge(now: () => number = Date.now) {
  let inFlight = 0;
  // When a request last began or ended: quiet is measured from here once none is in flight.
  let lastActivity = Number.NEGATIVE_INFINITY;

  return {
    /** Counts `res` as in flight until it closes (answered, or its connection gone). */
    track(res: ServerResponse) {
      inFlight++;
      lastActivity = now();
      res.once("close", () => {
        inFlight--;
        lastActivity = now();
      });
    },
    get inFlight() {
      return inFlight;
    },
    /** Resolves once no request has been in flight for `quietMs`, after `maxWaitMs` at most, or on abort. */
    quiet({ quietMs, maxWaitMs, signal }: QuietWait): Promise<void> {
      const deadline = now() + maxWaitMs;
      return new Promise((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          resolve();
        };
        const look = () => {
          const t = now();
          if (signal?.aborted || t >= deadline || (inFlight === 0 && t - lastActivity >= quietMs)) return done();
          const untilQuiet = inFlight === 0 ? quietMs - (t - lastActivity) : POLL_MS;
          timer = setTimeout(look, Math.max(1, Math.min(untilQuiet, POLL_MS, deadline - t)));
          timer.unref();
        };
        signal?.addEventListener("abort", done, { once: true });
        look();
      });
    },
  };
}

export type TrafficGauge = ReturnType<typeof createTrafficGauge>;
