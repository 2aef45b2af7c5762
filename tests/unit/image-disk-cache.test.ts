// The bound on the rendition cache folder: least recently used files go first, pinned ones stay,
// two processes sharing the folder (two cache objects here) keep it under the bound together,
// and temporary files left by a crashed writer are cleared.
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDiskCache } from "../../server/images/disk-cache";

let dir: string;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "museum-image-cache-"));
  clock = Date.parse("2026-11-23T12:00:00Z");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a rendition file as the image service does, then tells the cache about it. */
async function put(cache: ReturnType<typeof createDiskCache>, name: string, size: number) {
  clock += 1000;
  await writeFile(path.join(dir, name), Buffer.alloc(size, 1));
  await utimes(path.join(dir, name), clock / 1000, clock / 1000);
  await cache.noteWrite(name, size);
}

async function onDisk(): Promise<{ names: string[]; bytes: number }> {
  const names = (await readdir(dir)).sort();
  let bytes = 0;
  for (const name of names) bytes += (await stat(path.join(dir, name))).size;
  return { names, bytes };
}

describe("disk cache bound", () => {
  it("evicts least recently used files down to the low-water mark", async () => {
    const cache = createDiskCache({ dir, maxBytes: 5000, now });
    for (const name of ["a", "b", "c", "d", "e"]) await put(cache, `${name}.webp`, 1000);
    expect((await onDisk()).bytes).toBe(5000);

    // "a" is used again, so "b" is now the oldest.
    clock += 1000;
    cache.noteHit("a.webp", 1000, clock);
    await put(cache, "f.webp", 1000);
    const after = await onDisk();
    expect(after.bytes).toBeLessThanOrEqual(4000);
    expect(after.names).toEqual(["a.webp", "d.webp", "e.webp", "f.webp"]);
    expect(cache.stats()).toMatchObject({ bytes: 4000, files: 4, evictions: 2 });
  });

  it("never evicts a pinned file", async () => {
    const cache = createDiskCache({ dir, maxBytes: 3000, now });
    await put(cache, "old.webp", 1000);
    const unpin = cache.pin("old.webp");
    for (const name of ["b", "c", "d"]) await put(cache, `${name}.webp`, 1000);
    expect((await onDisk()).names).toContain("old.webp");
    expect((await onDisk()).bytes).toBeLessThanOrEqual(3000);
    unpin();
    await put(cache, "e.webp", 1000);
    await put(cache, "f.webp", 1000);
    expect((await onDisk()).names).toEqual(["e.webp", "f.webp"]);
  });

  it("counts what other processes wrote, and keeps the shared folder under the bound", async () => {
    const one = createDiskCache({ dir, maxBytes: 6000, now, rescanMs: 0 });
    const two = createDiskCache({ dir, maxBytes: 6000, now, rescanMs: 0 });
    for (let i = 0; i < 12; i++) {
      await put(i % 2 ? one : two, `r${String(i).padStart(2, "0")}.avif`, 1000);
      expect((await onDisk()).bytes).toBeLessThanOrEqual(6000);
    }
    // The newest survive whichever process wrote them.
    expect((await onDisk()).names.at(-1)).toBe("r11.avif");
    expect((await onDisk()).names).not.toContain("r00.avif");
  });

  it("rescans at least every rescanMs even under the bound, and removes stale temporary files", async () => {
    const cache = createDiskCache({ dir, maxBytes: 10_000, now, rescanMs: 30_000 });
    await put(cache, "a.webp", 1000);
    const scans = cache.stats().scans;
    await writeFile(path.join(dir, "b.webp.123.abc.tmp"), Buffer.alloc(500));
    await utimes(path.join(dir, "b.webp.123.abc.tmp"), clock / 1000 - 3600, clock / 1000 - 3600);
    await writeFile(path.join(dir, "c.webp.123.def.tmp"), Buffer.alloc(500));
    await utimes(path.join(dir, "c.webp.123.def.tmp"), clock / 1000, clock / 1000);
    await put(cache, "b.webp", 1000);
    expect(cache.stats().scans).toBe(scans);
    clock += 31_000;
    await put(cache, "c.webp", 1000);
    expect(cache.stats().scans).toBe(scans + 1);
    // The hour-old temporary file is gone, the fresh one (a write in progress) is left alone.
    expect((await onDisk()).names).toEqual(["a.webp", "b.webp", "c.webp", "c.webp.123.def.tmp"]);
    expect(cache.stats().bytes).toBe(3000);
  });

  it("copes with a folder that does not exist yet", async () => {
    const missing = createDiskCache({ dir: path.join(dir, "not-yet"), maxBytes: 1000, now });
    await missing.noteWrite("ghost.webp", 2000);
    expect(missing.stats()).toMatchObject({ bytes: 0, files: 0 });
  });
});
