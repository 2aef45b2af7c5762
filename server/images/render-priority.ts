/**
 * Image renders give way to everything else the machine does (decision 041). sharp does its
 * pixel work in libvips's own worker threads (named "libvips worker"), outside Node's event
 * loop, so a render takes a whole core for up to a second. Those threads are given a lower
 * scheduling priority (nice RENDER_NICE): on an idle machine a render runs as fast as before;
 * on a busy one the threads that answer pages, the database and anything else go first.
 *
 * The rendition warmer calls this before each render after the home page's (which go at full
 * priority: the first visitor waits for them). A priority once lowered cannot be raised again
 * without privileges, so from then on every render of the process runs lower, a visitor's too:
 * on a busy machine one image waits a little longer rather than every page. libvips may start
 * new worker threads at any render; threads already lowered are skipped.
 *
 * Linux only (it reads /proc/self/task and sets each thread's priority, which Linux keeps per
 * thread); elsewhere it does nothing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/** The niceness of libvips's threads at least: 10 of 19, the usual value for background work. */
export const RENDER_NICE = 10;
const VIPS_THREAD = "libvips worker";
const TASKS = "/proc/self/task";

const lowered = new Set<number>();
let unsupported = process.platform !== "linux";

/** Lowers the priority of libvips's worker threads not yet lowered; returns how many are lowered in all. */
export function lowerRenderThreads(): number {
  if (unsupported) return 0;
  let tids: string[];
  try {
    tids = readdirSync(TASKS);
  } catch {
    unsupported = true;
    return 0;
  }
  const alive = new Set<number>();
  for (const name of tids) {
    const tid = Number(name);
    alive.add(tid);
    if (lowered.has(tid)) continue;
    try {
      if (readFileSync(`${TASKS}/${name}/comm`, "utf8").trim() !== VIPS_THREAD) continue;
      // Never raised: a process already started under `nice` keeps its threads' lower priority.
      if (getPriority(tid) < RENDER_NICE) setPriority(tid, RENDER_NICE);
      lowered.add(tid);
    } catch {
      // The thread ended meanwhile, or the system refused: the render runs at the usual priority.
    }
  }
  // Thread ids are reused: forget the ones that ended.
  for (const tid of lowered) if (!alive.has(tid)) lowered.delete(tid);
  return lowered.size;
}
