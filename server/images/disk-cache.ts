/**
 * The bound on the rendition cache folder: keeps its total size under `maxBytes` by deleting the
 * least recently used renditions. Each process keeps an index (name, size, last use) that it
 * rebuilds from the folder when its own count goes over the bound and at least every
 * `rescanMs`, so files written or deleted by other processes sharing the folder are counted too.
 * Recency crosses processes through the files' mtimes, refreshed on a hit at most once per
 * `touchAfterMs`. Deleting is safe under readers: an open file stays readable after unlink, a
 * rendition between "rendered" and "opened" is pinned, and callers re-render a rendition that
 * vanished anyway (another process may have evicted it).
 */
import fs from "node:fs/promises";
import path from "node:path";

export const DEFAULT_IMAGE_CACHE_BYTES = 256 * 1024 * 1024;
/** Eviction stops at this share of the bound, so one write over the bound does not rescan each time. */
const LOW_WATER_RATIO = 0.8;
/** Temporary files older than this were left by a crashed writer. */
const STALE_TEMP_MS = 10 * 60_000;
/** How many files are stat'ed at once during a scan. */
const STAT_BATCH = 64;

interface Entry {
  size: number;
  used: number;
}

export interface DiskCacheStats {
  bytes: number;
  files: number;
  evictions: number;
  scans: number;
}

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

export function isTemporaryCacheFile(name: string): boolean {
  return name.endsWith(".tmp");
}

export function createDiskCache(o: { dir: string; maxBytes?: number; rescanMs?: number; touchAfterMs?: number; now?: () => number }) {
  const dir = path.resolve(o.dir);
  const maxBytes = o.maxBytes ?? DEFAULT_IMAGE_CACHE_BYTES;
  const rescanMs = o.rescanMs ?? 30_000;
  const touchAfterMs = o.touchAfterMs ?? 60_000;
  const now = o.now ?? Date.now;
  if (!(maxBytes > 0)) throw new RangeError("maxBytes must be positive");

  let entries = new Map<string, Entry>();
  let total = 0;
  let lastScan = Number.NEGATIVE_INFINITY;
  let enforcing: Promise<void> | undefined;
  const pinned = new Map<string, number>();
  const counters = { evictions: 0, scans: 0 };

  function record(name: string, size: number, used: number) {
    const old = entries.get(name);
    total += size - (old?.size ?? 0);
    entries.set(name, { size, used: Math.max(used, old?.used ?? 0) });
  }

  /** Rebuilds the index from the folder, keeping this process's fresher last-use times. */
  async function scan(): Promise<void> {
    const started = now();
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") throw error;
      names = [];
    }
    const fresh = new Map<string, Entry>();
    let sum = 0;
    for (let i = 0; i < names.length; i += STAT_BATCH) {
      await Promise.all(
        names.slice(i, i + STAT_BATCH).map(async (name) => {
          const file = path.join(dir, name);
          const s = await fs.stat(file).catch(() => undefined);
          if (!s?.isFile()) return;
          if (isTemporaryCacheFile(name)) {
            if (started - s.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true }).catch(() => undefined);
            return;
          }
          fresh.set(name, { size: s.size, used: Math.max(s.mtimeMs, entries.get(name)?.used ?? 0) });
          sum += s.size;
        }),
      );
    }
    // A rendition this process wrote while the scan ran may have been missed by readdir.
    for (const [name, e] of entries) {
      if (!fresh.has(name) && e.used >= started) {
        fresh.set(name, e);
        sum += e.size;
      }
    }
    entries = fresh;
    total = sum;
    lastScan = now();
    counters.scans++;
  }

  /** Rescans, then deletes least recently used unpinned renditions down to the low-water mark. */
  async function enforce(): Promise<void> {
    await scan();
    if (total <= maxBytes) return;
    const goal = Math.floor(maxBytes * LOW_WATER_RATIO);
    const candidates = [...entries].filter(([name]) => !pinned.has(name)).sort((a, b) => a[1].used - b[1].used);
    for (const [name, entry] of candidates) {
      if (total <= goal) break;
      try {
        await fs.unlink(path.join(dir, name));
      } catch (error) {
        // Gone already: another process evicted it. Anything else: leave it and go on.
        if (errnoCode(error) !== "ENOENT") continue;
      }
      if (entries.get(name) === entry) {
        entries.delete(name);
        total -= entry.size;
        counters.evictions++;
      }
    }
  }

  const needsEnforcing = () => total > maxBytes || now() - lastScan >= rescanMs;

  /** Brings the folder under the bound (one eviction pass at a time per process). */
  async function settle(): Promise<void> {
    // Two rounds at most: a pass already running may have started before our write.
    for (let round = 0; round < 2; round++) {
      if (enforcing) {
        await enforcing;
        continue;
      }
      if (!needsEnforcing()) return;
      enforcing = enforce().finally(() => {
        enforcing = undefined;
      });
      await enforcing;
    }
  }

  return {
    dir,
    maxBytes,

    /** A cached rendition was served: it becomes the most recently used. */
    noteHit(name: string, size: number, mtimeMs: number): void {
      const t = now();
      record(name, size, t);
      if (t - mtimeMs >= touchAfterMs) {
        const seconds = t / 1000;
        fs.utimes(path.join(dir, name), seconds, seconds).catch(() => undefined);
      }
    },

    /** A rendition was written: counts it, and evicts older ones when the folder is over the bound. */
    async noteWrite(name: string, size: number): Promise<void> {
      record(name, size, now());
      await settle();
    },

    /** Keeps `name` from being evicted by this process until the returned function is called. */
    pin(name: string): () => void {
      pinned.set(name, (pinned.get(name) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const count = (pinned.get(name) ?? 1) - 1;
        if (count > 0) pinned.set(name, count);
        else pinned.delete(name);
      };
    },

    stats(): DiskCacheStats {
      return { bytes: total, files: entries.size, ...counters };
    },
  };
}

