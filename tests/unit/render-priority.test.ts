// Image renders give way (decision 041): after a render, libvips's worker threads run at nice
// RENDER_NICE while the thread running JavaScript keeps its priority.
import { readdirSync, readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { lowerRenderThreads, RENDER_NICE } from "../../server/images/render-priority";

/** Each thread of this process: its name and niceness (field 19 of /proc/<pid>/task/<tid>/stat). */
function threads() {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { tid: Number(tid), name: readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim(), nice: Number(fields[16]) };
  });
}

describe.runIf(process.platform === "linux")("render thread priority", () => {
  it("lowers libvips's worker threads and no other", async () => {
    await sharp({ create: { width: 800, height: 800, channels: 3, background: "#ffb612" } }).avif().toBuffer();
    const before = threads();
    expect(before.some((t) => t.name === "libvips worker")).toBe(true);
    expect(lowerRenderThreads()).toBeGreaterThan(0);
    const after = threads();
    // At RENDER_NICE, or lower still when the process runs under `nice` (never raised).
    const own = before.find((t) => t.tid === process.pid)!.nice;
    for (const t of after.filter((x) => x.name === "libvips worker")) expect(t).toMatchObject({ nice: Math.max(own, RENDER_NICE) });
    // Every other thread keeps the niceness it had.
    for (const t of after.filter((x) => x.name !== "libvips worker")) expect(t.nice).toBe(before.find((b) => b.tid === t.tid)?.nice ?? t.nice);
    expect(after.find((t) => t.tid === process.pid)?.nice).toBe(own);
  });
});
