// The traffic gauge (decision 041): a wait for quiet ends once no request has been in flight for
// quietMs, never while one is, at maxWaitMs at the latest, and at once when aborted.
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTrafficGauge } from "../../server/http/traffic";

const response = () => new EventEmitter() as unknown as ServerResponse;

describe("traffic gauge", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Watches a wait: `after(ms)` advances the fake clock and says whether the wait has ended by then. */
  function watch(wait: Promise<void>) {
    let ended = false;
    void wait.then(() => (ended = true));
    return {
      async after(ms: number) {
        await vi.advanceTimersByTimeAsync(ms);
        return ended;
      },
    };
  }

  it("a process that answered nothing yet is quiet at once", async () => {
    const gauge = createTrafficGauge();
    expect(await watch(gauge.quiet({ quietMs: 1500, maxWaitMs: 10_000 })).after(1)).toBe(true);
  });

  it("waits while a request is in flight, then quietMs after it closed", async () => {
    const gauge = createTrafficGauge();
    const res = response();
    gauge.track(res);
    expect(gauge.inFlight).toBe(1);
    const wait = watch(gauge.quiet({ quietMs: 1500, maxWaitMs: 10_000 }));
    expect(await wait.after(3000)).toBe(false);
    res.emit("close");
    expect(gauge.inFlight).toBe(0);
    expect(await wait.after(1400)).toBe(false);
    expect(await wait.after(200)).toBe(true);
  });

  it("a request that begins during the quiet time starts it again", async () => {
    const gauge = createTrafficGauge();
    const first = response();
    gauge.track(first);
    first.emit("close");
    const wait = watch(gauge.quiet({ quietMs: 1000, maxWaitMs: 10_000 }));
    expect(await wait.after(800)).toBe(false);
    const second = response();
    gauge.track(second);
    second.emit("close");
    expect(await wait.after(800)).toBe(false);
    expect(await wait.after(300)).toBe(true);
  });

  it("a site that is never quiet still lets the work go on after maxWaitMs", async () => {
    const gauge = createTrafficGauge();
    gauge.track(response());
    const wait = watch(gauge.quiet({ quietMs: 1000, maxWaitMs: 5000 }));
    expect(await wait.after(4900)).toBe(false);
    expect(await wait.after(200)).toBe(true);
  });

  it("an abort ends the wait at once", async () => {
    const gauge = createTrafficGauge();
    gauge.track(response());
    const stop = new AbortController();
    const wait = watch(gauge.quiet({ quietMs: 1000, maxWaitMs: 60_000, signal: stop.signal }));
    expect(await wait.after(500)).toBe(false);
    stop.abort();
    expect(await wait.after(0)).toBe(true);
  });
});
