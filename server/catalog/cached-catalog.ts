/**
 * A read-through cache in front of the catalog. The collection is small and changes only when
 * curators reseed or edit it, while every page reads it; each instance keeps results for a
 * short time (CATALOG_CACHE_SECONDS) and a change is visible everywhere within that time.
 * Visitor- and member-shaped results are cached under different keys, so gating still holds.
 */
import type { Catalog } from "./catalog-service";

type AsyncMethod = (...args: never[]) => Promise<unknown>;

export function cacheCatalog(catalog: Catalog, ttlMs: number, now: () => number = Date.now): Catalog & { clear(): void } {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>();
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
      entries.set(key, { at: now(), value });
      // A failed read is not remembered.
      value.catch(() => entries.delete(key));
      return value;
    };
  }
  return { ...(wrapped as Catalog), clear: () => entries.clear() };
}
