/**
 * What a 15 MB original costs in memory with the originals in PostgreSQL (decision 024).
 * A fresh PostgreSQL database with the demo collection and one exhibit; a JPEG of noise just
 * under the 15 MB upload limit; then each step in a fresh process of its own, with the peak RSS
 * reset just before it (Linux: /proc/self/clear_refs, VmHWM):
 *   upload-db:   the console's store + add on instance A (clean, then stream into PostgreSQL in
 *                the photo rows' transaction);
 *   upload-disk: the same on PGlite (disk), for comparison;
 *   write/read:  15 MB (BENCH_IO_MB) written into and read out of PostgreSQL alone, 256 KB at a time;
 *   serve:       instance B (another DATA_DIR, no copy on disk) renders it at 800 px from the
 *                original streamed out of PostgreSQL.
 * Run: `npx tsx bench/media-memory.ts` (PostgreSQL at TEST_POSTGRES_URL, default the local one);
 * BENCH_STEPS=write,read BENCH_IO_MB=60 runs only those steps, on a larger file.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { openDatabase } from "../server/db/client";
import { runMigrations } from "../server/db/migrate";
import { seedCollection } from "../server/db/seed/seed-collection";
import { loadConfig } from "../server/config";
import { createLogger } from "../server/logger";
import { createServices } from "../server/services";
import { createMediaObjects } from "../server/media/media-objects";
import { createPhotoTestExhibit, createStaffAccount } from "../tests/helpers/admin-fixtures";
import { createPostgresDatabase } from "../tests/helpers/databases";

const SELF = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;
/** Size of the write/read steps' file: run with BENCH_IO_MB=60 to see the peak does not grow with it. */
const IO_MB = Number(process.env.BENCH_IO_MB ?? 15);

function status(field: "VmRSS" | "VmHWM"): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? Number.NaN) / 1024;
}

/** Runs `fn` with the peak RSS reset first; prints the peak's growth over the RSS before. */
async function measure(label: string, fn: () => Promise<void>) {
  global.gc?.();
  writeFileSync("/proc/self/clear_refs", "5");
  const before = status("VmRSS");
  const started = performance.now();
  await fn();
  console.log(`${label.padEnd(12)} peak RSS +${Math.round(status("VmHWM") - before)} MB over ${Math.round(before)} MB, ${Math.round(performance.now() - started)} ms`);
}

async function services(databaseUrl: string | undefined, dataDir: string) {
  const handle = await openDatabase({ databaseUrl, poolSize: 3 });
  if (!databaseUrl) await runMigrations(handle);
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  return { handle, services: createServices({ config, database: handle, logger: createLogger("silent"), sessionSecret: "bench".repeat(8) }) };
}

async function step(name: string, url: string, work: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `museum-media-${name}-`));
  const { handle, services: s } = await services(name === "upload-disk" ? undefined : url, dataDir);
  try {
    if (name === "upload-db" || name === "upload-disk") {
      if (name === "upload-disk") await seedCollection({ db: handle.db, media: s.images });
      const curator = await createStaffAccount(s, "curator");
      const exhibitId = await createPhotoTestExhibit(s, curator, "Bench Exhibit", 1979);
      const bytes = readFileSync(path.join(work, "original.jpg"));
      await measure(name, async () => {
        const key = await s.admin.photos.store(exhibitId, bytes, "big.jpg");
        const saved = await s.admin.photos.add({ userId: curator.userId, email: curator.email }, exhibitId, [key], "Big");
        if (!saved.ok) throw new Error(saved.message);
        if (name === "upload-db") writeFileSync(path.join(work, "key.txt"), key);
      });
    } else if (name === "write" || name === "read") {
      const objects = createMediaObjects(handle.db);
      await measure(name, async () => {
        if (name === "write") await handle.db.transaction((tx) => objects.writeFile(tx, "banners/bench.bin.jpg", path.join(work, "random.bin")));
        else await objects.download("banners/bench.bin.jpg", path.join(dataDir, "out.bin"));
      });
    } else if (name === "serve") {
      const key = readFileSync(path.join(work, "key.txt"), "utf8");
      await measure(name, async () => {
        const rendition = await s.images.openRendition(key, 800, "image/jpeg");
        await rendition.body?.handle.close();
      });
    }
  } finally {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const [, , phase, phaseUrl, phaseWork] = process.argv;
if (phase) {
  await step(phase, phaseUrl, phaseWork);
} else {
  const created = await createPostgresDatabase();
  const work = mkdtempSync(path.join(tmpdir(), "museum-media-bench-"));
  try {
    const { handle, services: s } = await services(created.url, work);
    await runMigrations(handle);
    await seedCollection({ db: handle.db, media: s.images });
    await handle.close();
    const original = await sharp({ create: { width: 3900, height: 2925, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
      .jpeg({ quality: 100 })
      .toBuffer();
    writeFileSync(path.join(work, "original.jpg"), original);
    for (let i = 0; i < IO_MB; i++) appendFileSync(path.join(work, "random.bin"), randomBytes(MB));
    console.log(`original: ${(original.length / MB).toFixed(1)} MB JPEG, 3900 x 2925; write/read: ${IO_MB} MB of random bytes`);
    for (const name of (process.env.BENCH_STEPS ?? "upload-db,upload-disk,write,read,serve").split(",")) {
      const run = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", SELF, name, created.url, work], { stdio: "inherit" });
      if (run.status !== 0) throw new Error(`step ${name} failed`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    await created.drop();
  }
}
