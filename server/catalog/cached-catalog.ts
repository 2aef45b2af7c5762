/**
 * A read-through cache in front of the catalog. The collection is small and changes only when
 * curators reseed or edit it, while every page reads it; each instance keeps results for a
 * short time (CATALOG_CACHE_SECONDS) and a change is visible everywhere within that time.
 * Visitor- and member-shaped results are cached under different keys, so gating still holds.
 * The keys come from the request (ids, query filters), so the cache keeps at most
 * CATALOG_CACHE_MAX_ENTRIES of them, least recently used out first: asking for endless made-up
 * ids costs one entry each, never unbounded memory.
 */
import { LRUCache } from "lru-cache";
import type { Catalog } from "./catalog-service";

/** Far more than a real collection's distinct reads (every team, category, exhibit and enshrinee, both shapes). */
export const CATALOG_CACHE_MAX_ENTRIES = 2_000;

type AsyncMethod = (...args: never[]) => Promise<unknown>;
type Entry = { at: number; value: Promise<unknown> };

export function cacheCatalog(
  catalog: Catalog,
  ttlMs: number,
  now: () => number = Date.now,
  maxEntries: number = CATALOG_CACHE_MAX_ENTRIES,
): Catalog & { clear(): void; readonly size: number } {
  const entries = new LRUCache<string, Entry>({ max: maxEntries });
  const wrapped = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(catalog) as [string, AsyncMethod][]) {
    if (name === "isEmpty") {
      wrapped[name] = fn;
      continue;
    }
    wrapped[name] = (...args: never[]) => {
      const key = `${name}:${JSON.stringify(args)}`;
      const hit = entries.get(key);
      if (hit && now() - hit.at < ttlMs) return hit.value;
      const value = fn(...args);
      const entry = { at: now(), value };
      entries.set(key, entry);
      // A failed read is not remembered (unless a newer read has taken its place already).
      value.catch(() => {
        if (entries.peek(key) === entry) entries.delete(key);
      });
      return value;
    };
  }
  return {
    ...(wrapped as Catalog),
    clear: () => entries.clear(),
    get size() {
      return entries.size;
    },
  };
}
