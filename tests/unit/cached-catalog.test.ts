/** The catalog read cache keeps at most CATALOG_CACHE_MAX_ENTRIES results, however many ids are asked. */
import { describe, expect, it } from "vitest";
import { cacheCatalog, CATALOG_CACHE_MAX_ENTRIES } from "../../server/catalog/cached-catalog";
import type { Catalog } from "../../server/catalog/catalog-service";

/** A catalog whose getExhibit counts its calls and answers null (an unknown id). */
function countingCatalog() {
  const calls: string[] = [];
  const catalog = {
    getExhibit: async (id: string) => {
      calls.push(id);
      return null;
    },
    isEmpty: async () => false,
  } as unknown as Catalog;
  return { catalog, calls };
}

describe("cached catalog", () => {
  it("serves a repeated read from memory within its time", async () => {
    const { catalog, calls } = countingCatalog();
    let t = 0;
    const cached = cacheCatalog(catalog, 30_000, () => t);
    await cached.getExhibit("a", false);
    await cached.getExhibit("a", false);
    expect(calls).toEqual(["a"]);
    t = 30_000;
    await cached.getExhibit("a", false);
    expect(calls).toEqual(["a", "a"]);
  });

  it("stays bounded when asked for endless made-up ids, dropping the least recently used", async () => {
    const { catalog, calls } = countingCatalog();
    const cached = cacheCatalog(catalog, 30_000, () => 0);
    const asked = CATALOG_CACHE_MAX_ENTRIES + 500;
    for (let i = 0; i < asked; i++) await cached.getExhibit(`made-up-${i}`, false);
    expect(calls).toHaveLength(asked);
    // The first ids asked are gone (read again from the catalog); the latest are still kept.
    await cached.getExhibit("made-up-0", false);
    expect(calls).toHaveLength(asked + 1);
    await cached.getExhibit(`made-up-${asked - 1}`, false);
    expect(calls).toHaveLength(asked + 1);
    expect(cached.size).toBeLessThanOrEqual(CATALOG_CACHE_MAX_ENTRIES);
  });

  it("does not remember a failed read", async () => {
    let fail = true;
    const catalog = {
      getExhibit: async () => {
        if (fail) throw new Error("database down");
        return null;
      },
    } as unknown as Catalog;
    const cached = cacheCatalog(catalog, 30_000, () => 0);
    await expect(cached.getExhibit("x", false)).rejects.toThrow("database down");
    fail = false;
    await expect(cached.getExhibit("x", false)).resolves.toBeNull();
  });
});
