// The render queue: never more than `concurrency` tasks at once, a bounded wait list, errors
// passed through, and slots handed on in arrival order.
import { describe, expect, it } from "vitest";
import { createRenderQueue, RenderQueueFullError } from "../../server/images/render-queue";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("render queue", () => {
  it("runs at most `concurrency` tasks at once, in arrival order", async () => {
    const queue = createRenderQueue({ concurrency: 2, maxQueued: 10 });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const tasks = Array.from({ length: 8 }, (_, i) =>
      queue.run(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise((r) => setTimeout(r, 5 + ((i * 7) % 11)));
        running--;
        return i * 10;
      }),
    );
    expect(await Promise.all(tasks)).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(queue.stats()).toEqual({ active: 0, queued: 0, peakActive: 2, started: 8 });
  });

  it("refuses a task at once when the wait list is full, and frees the slot after a failure", async () => {
    const queue = createRenderQueue({ concurrency: 1, maxQueued: 1 });
    const gate = deferred();
    const first = queue.run(() => gate.promise);
    const second = queue.run(async () => "second");
    await expect(queue.run(async () => "third")).rejects.toBeInstanceOf(RenderQueueFullError);
    expect(queue.stats()).toMatchObject({ active: 1, queued: 1 });
    gate.resolve();
    await first;
    expect(await second).toBe("second");

    await expect(queue.run(async () => Promise.reject(new Error("encoder failed")))).rejects.toThrow("encoder failed");
    expect(await queue.run(async () => "after")).toBe("after");
    expect(queue.stats()).toMatchObject({ active: 0, queued: 0, peakActive: 1 });
  });

  it("rejects nonsense settings", () => {
    expect(() => createRenderQueue({ concurrency: 0, maxQueued: 1 })).toThrow(RangeError);
    expect(() => createRenderQueue({ concurrency: 1, maxQueued: -1 })).toThrow(RangeError);
  });
});
