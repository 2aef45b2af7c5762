/**
 * Makes the renditions the pages ask for before a visitor does: once after start-up,
 * when the site already answers, and again shortly after every change of the collection (an
 * upload saved on a record, a seed, an import), so no visitor waits for sharp. One rendition at a
 * time, through the image service's own render queue: a visitor's request waits behind at most
 * one warming render. Renditions already cached cost a lookup; those checked in this process are
 * not looked up again.
 *
 * Decision 041: the home page's renditions (banners, logos) come first and at once, since the
 * first visitor after a deploy asks for them within seconds. Every other render gives way: it
 * waits for a quiet moment (no request in flight for QUIET_MS, at most MAX_WAIT_MS) and runs
 * with libvips's threads at a lower priority (`lowerPriority`), since sharp takes a whole core
 * and a visitor should not share it.
 */
import type { WantedRendition } from "../catalog/images-in-use";
import type { Logger } from "../logger";
import type { ImageService } from "./image-service";
import type { TrafficGauge } from "../http/traffic";
import { createJobLoop } from "../jobs/scheduler";

/** How long after a change the warmer runs, so a burst of saves (an import) is one run. */
export const WARM_AFTER_CHANGE_MS = 5_000;
/** How long after start-up the first run begins: the site answers first. */
export const WARM_AFTER_START_MS = 1_000;
/** A render starts once no request has been in flight this long: a page and its assets come well within it. */
export const QUIET_MS = 1_500;
/** ...or after this long anyway, so a site that is never quiet still gets its renditions. */
export const MAX_WAIT_MS = 10_000;

export interface WarmRun {
  rendered: number;
  cached: number;
  missing: number;
  failed: number;
  ms: number;
}

export function createRenditionWarmer(o: {
  images: Pick<ImageService, "warm">;
  wanted: () => Promise<WantedRendition[]>;
  logger: Logger;
  /** This process's requests: renders after the home page's wait for a quiet moment (none: they go at once). */
  traffic?: Pick<TrafficGauge, "quiet">;
  /** Called before a render after the home page's: lowers the render threads' priority (render-priority.ts). */
  lowerPriority?: () => void;
  /** Called after every run (tests). */
  onRun?: (run: WarmRun) => void;
}) {
  const done = new Set<string>();
  let stopping = false;
  // Ends a wait for quiet when the process stops.
  let stopWaiting = new AbortController();
  const traffic = o.traffic;
  /** Before a render the home page does not need: give way to visitors. */
  const giveWay = async () => {
    o.lowerPriority?.();
    if (!traffic) return;
    await traffic.quiet({ quietMs: QUIET_MS, maxWaitMs: MAX_WAIT_MS, signal: stopWaiting.signal });
    // Stopping: no render starts after the wait.
    if (stopping) throw new Error("the rendition warmer is stopping");
  };

  async function run(): Promise<WarmRun> {
    const started = Date.now();
    const tally: WarmRun = { rendered: 0, cached: 0, missing: 0, failed: 0, ms: 0 };
    for (const w of await o.wanted()) {
      if (stopping) break;
      const key = `${w.file}@${w.height}`;
      if (done.has(key)) continue;
      try {
        const outcome = await o.images.warm(w.file, w.height, w.home ? undefined : giveWay);
        tally[outcome]++;
        if (outcome !== "missing") done.add(key);
      } catch (err) {
        if (stopping) break;
        tally.failed++;
        o.logger.warn({ err, file: w.file, height: w.height }, "could not warm a rendition");
      }
    }
    tally.ms = Date.now() - started;
    if (tally.rendered || tally.failed) o.logger.info(tally, "renditions warmed");
    o.onRun?.(tally);
    return tally;
  }

  // After a run, wait for the next change (kick); a run that failed as a whole tries again in a minute.
  const loop = createJobLoop({ run, after: () => 2 ** 31 - 1, afterError: () => 60_000 });
  let kickTimer: ReturnType<typeof setTimeout> | undefined;

  return {
    start(firstRunMs = WARM_AFTER_START_MS) {
      stopping = false;
      stopWaiting = new AbortController();
      loop.start(firstRunMs);
    },
    /** One run now, outside the schedule (tests, the first deploy's script). */
    runOnce: run,
    /** The collection changed: warm what is new, once the burst of changes is over. */
    changed() {
      clearTimeout(kickTimer);
      kickTimer = setTimeout(() => loop.kick(), WARM_AFTER_CHANGE_MS);
      kickTimer.unref();
    },
    async stop() {
      stopping = true;
      stopWaiting.abort();
      clearTimeout(kickTimer);
      await loop.stop();
    },
  };
}

