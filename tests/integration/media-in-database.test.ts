/**
 * Photos shared through PostgreSQL without a shared disk (decision 024): two instances
 * on one database, each with its own DATA_DIR. A photo uploaded on A is served by B (original
 * size and a rendition) with the same bytes, size and ETag, although B's disk never held it; a
 * member-only photo is still 403 for a visitor on B; an upload whose transaction fails stores
 * nothing; a removed photo is gone from the database and from both instances; the demo seed
 * writes into the database; `media:import` moves disk files in once and a second run moves
 * nothing. Also measures the memory a 15 MB original costs to upload on A and to serve from B.
 *
 * PostgreSQL only (PGlite keeps the disk: tests/integration/admin-photos.test.ts and images.test.ts).
 */
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { openDatabase, queryRows } from "../../server/db/client";
import { mediaChunks, mediaObjects } from "../../server/db/schema";
import { MEMBER_ONLY_IMAGE_MESSAGE } from "../../server/images/image-routes";
import { createLogger } from "../../server/logger";
import { createMediaObjects, fileSha256 } from "../../server/media/media-objects";
import { createServices, type Services } from "../../server/services";
import { createPhotoTestExhibit, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { dateFromToday } from "../helpers/fixtures";
import { loadServerBuild, startTestServer, type TestServer } from "../helpers/test-server";

const onPostgres = (await availableDrivers()).includes("postgres");
const SECRET = "test-secret-test-secret-test-secret-0123";
const MEDIA_CLI = path.resolve("build/host/media-cli.js");

interface Instance {
  url: string;
  services: Services;
  dataDir: string;
  close(): Promise<void>;
}

/** A second instance: its own DATA_DIR, pool and app, on the database at `databaseUrl`. */
async function startInstance(databaseUrl: string): Promise<Instance> {
  const handle = await openDatabase({ databaseUrl, poolSize: 5 });
  const dataDir = mkdtempSync(path.join(tmpdir(), "museum-test-b-"));
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", RATE_LIMIT_RELAXED: "true", DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
  const services = createServices({ config, database: handle, logger: createLogger("silent"), sessionSecret: SECRET });
  const server = createApp({ services, build: await loadServerBuild(), clientDir: path.resolve("build/client") }).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    services,
    dataDir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JPEG of noise (it does not compress): about 1.5 bytes per pixel at quality 100. */
function noiseJpeg(width: number, height: number, quality = 90): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } } })
    .jpeg({ quality })
    .toBuffer();
}

function runImport(env: Record<string, string | undefined>, args: string[]) {
  const result = spawnSync(process.execPath, [MEDIA_CLI, ...args], { env: { ...process.env, LOG_LEVEL: "silent", ...env }, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe.skipIf(!onPostgres)("media originals in PostgreSQL, two instances without a shared disk", () => {
  let a: TestServer;
  let b: Instance;
  let curator: StaffAccount;
  let member: string;
  let exhibitId: string;

  const get = (base: string, p: string, cookie?: string, headers: Record<string, string> = {}) => fetch(`${base}${p}`, { redirect: "manual", headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const bytesOf = async (answer: Response) => Buffer.from(await answer.arrayBuffer());
  const upload = (bytes: Buffer, name = "photo.jpg") => {
    const form = new FormData();
    form.append("alt", "The 1979 team on the field");
    form.append("photos", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), name);
    return fetch(`${a.url}/admin/exhibits/${exhibitId}/photos/upload`, { method: "POST", body: form, redirect: "manual", headers: { cookie: curator.cookie } });
  };
  const stored = async () => (await a.services.admin.photos.get(exhibitId))!.photos.map((p) => p.file);
  const objectRows = async (key: string) => ({
    objects: (await a.database.handle.db.select({ key: mediaObjects.key }).from(mediaObjects).where(eq(mediaObjects.key, key))).length,
    chunks: (await a.database.handle.db.select({ seq: mediaChunks.seq }).from(mediaChunks).where(eq(mediaChunks.key, key))).length,
  });

  beforeAll(async () => {
    a = await startTestServer("postgres", {}, { seed: true, listen: true });
    b = await startInstance(a.database.url!);
    curator = await createStaffAccount(a.services, "curator");
    member = (await createStaffAccount(a.services, "member", { validThrough: dateFromToday(30) })).cookie;
    exhibitId = await createPhotoTestExhibit(a.services, curator, "Shared Photo Exhibit", 1979);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("writes the demo seed's originals into the database, not onto the disk, and both instances serve them", async () => {
    const [{ count }] = await queryRows<{ count: number }>(a.database.handle.db, sql`select count(*)::int as count from media_objects where key like 'logos/%'`);
    expect(count).toBeGreaterThan(0);
    expect(existsSync(path.join(a.config.DATA_DIR, "media", "logos"))).toBe(false);
    const [{ key }] = await queryRows<{ key: string }>(a.database.handle.db, sql`select key from media_objects where key like 'logos/%' order by key limit 1`);
    const fromA = await get(a.url, `/images/view/${key}?height=80`, undefined, { accept: "image/png" });
    const fromB = await get(b.url, `/images/view/${key}?height=80`, undefined, { accept: "image/png" });
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect((await bytesOf(fromB)).equals(await bytesOf(fromA))).toBe(true);
  });

  it("lets two instances write the same original at once (two hosts seeding an empty database): they take turns", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#ffb612"/></svg>');
    const wider = Buffer.from(svg.toString().replaceAll('width="40"', 'width="60"'));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // A's transaction stays open a moment after its first statements; B writes the same key meanwhile.
    const slowly = async function* () {
      yield svg.subarray(0, 10);
      await pause(400);
      yield svg.subarray(10);
    };
    const first = a.database.handle.db.transaction((tx) => createMediaObjects(a.database.handle.db).write(tx, "logos/race.svg", slowly()));
    await pause(100);
    const second = b.services.database.db.transaction((tx) => createMediaObjects(b.services.database.db).write(tx, "logos/race.svg", [wider]));
    await Promise.all([first, second]);
    const answer = await get(b.url, "/images/view/logos/race.svg?height=80", undefined, { accept: "image/png" });
    expect(answer.status).toBe(200);
    expect((await sharp(await bytesOf(answer)).metadata()).width).toBe(240);
  });

  it("serves a photo uploaded on A from B, original and rendition, with the same bytes, size and ETag", async () => {
    const answer = await upload(await noiseJpeg(900, 600));
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`/admin/exhibits/${exhibitId}/photos?upload=done`);
    const [key] = await stored();
    expect(await objectRows(key)).toMatchObject({ objects: 1 });
    // B's disk never held it: B streams it from the database.
    expect(existsSync(path.join(b.dataDir, "media", key))).toBe(false);

    for (const query of ["", "?height=300"]) {
      const fromB = await get(b.url, `/images/view/${key}${query}`, member, { accept: "image/jpeg" });
      const fromA = await get(a.url, `/images/view/${key}${query}`, member, { accept: "image/jpeg" });
      expect([fromB.status, fromA.status]).toEqual([200, 200]);
      expect(fromB.headers.get("content-type")).toBe("image/jpeg");
      expect(fromB.headers.get("etag")).toBe(fromA.headers.get("etag"));
      const [bodyB, bodyA] = [await bytesOf(fromB), await bytesOf(fromA)];
      expect(bodyB.equals(bodyA)).toBe(true);
      const meta = await sharp(bodyB).metadata();
      expect([meta.width, meta.height]).toEqual(query ? [450, 300] : [900, 600]);
    }
    // The ETag is the same on both, so a browser's copy from A is still good on B.
    const etag = (await get(a.url, `/images/view/${key}?height=300`, member, { accept: "image/jpeg" })).headers.get("etag")!;
    expect((await get(b.url, `/images/view/${key}?height=300`, member, { accept: "image/jpeg", "if-none-match": etag })).status).toBe(304);
  });

  it("keeps the member-only rule on B: a visitor gets 403 for an exhibit photo", async () => {
    const [key] = await stored();
    const answer = await get(b.url, `/images/view/${key}?height=300`);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ message: MEMBER_ONLY_IMAGE_MESSAGE });
  });

  it("shares a team logo uploaded on A with B at once (public, no ticket needed)", async () => {
    // Uploaded inside the team form (decision 039): the form comes back with the logo's name.
    const form = new FormData();
    form.append("name", "Shared Logo Team");
    form.append("intent", "upload-logo");
    form.append("logoFile", new Blob([new Uint8Array(await noiseJpeg(120, 120))], { type: "image/jpeg" }), "logo.jpg");
    const answer = await fetch(`${a.url}/admin/teams/new`, { method: "POST", body: form, redirect: "manual", headers: { cookie: curator.cookie } });
    expect(answer.status).toBe(200);
    const logo = /value="(logos\/[0-9a-f-]{36}\.jpg)"/.exec(await answer.text())?.[1];
    expect(logo).toMatch(/^logos\/[0-9a-f-]{36}\.jpg$/);
    const fromB = await get(b.url, `/images/view/${logo}?height=80`, undefined, { accept: "image/jpeg" });
    expect(fromB.status).toBe(200);
    expect((await sharp(await bytesOf(fromB)).metadata()).height).toBe(80);
  });

  it("stores nothing when the upload's transaction fails after the photo was written", async () => {
    const key = await a.services.admin.photos.store(exhibitId, await noiseJpeg(64, 64), "x.jpg");
    // An actor that does not exist: the audit entry's foreign key fails after the photo rows and the original.
    await expect(a.services.admin.photos.add({ userId: randomUUID(), email: "ghost@museum.example" }, exhibitId, [key], "Ghost")).rejects.toThrow();
    expect(await objectRows(key)).toEqual({ objects: 0, chunks: 0 });
    expect(await stored()).not.toContain(key);
    expect((await get(b.url, `/images/view/${key}`, member)).status).toBe(404);
  });

  it("removes a photo from the database with its row: both instances answer 404", async () => {
    const [key] = await stored();
    const chunksBefore = (await objectRows(key)).chunks;
    expect(chunksBefore).toBeGreaterThan(0);
    const answer = await fetch(`${b.url}/admin/exhibits/${exhibitId}/photos`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: curator.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ remove: key }),
    });
    expect(answer.status).toBe(200);
    expect(await stored()).not.toContain(key);
    expect(await objectRows(key)).toEqual({ objects: 0, chunks: 0 });
    // A rendered it before and still holds its copy and renditions on disk: the database decides.
    expect((await get(a.url, `/images/view/${key}?height=300`, member, { accept: "image/jpeg" })).status).toBe(404);
    expect((await get(b.url, `/images/view/${key}?height=300`, member, { accept: "image/jpeg" })).status).toBe(404);
  });

  it("media:import moves disk files into the database once; a second run moves nothing", async () => {
    const legacy = mkdtempSync(path.join(tmpdir(), "museum-legacy-media-"));
    try {
      mkdirSync(path.join(legacy, "banners"), { recursive: true });
      mkdirSync(path.join(legacy, "exhibits", "old-exhibit"), { recursive: true });
      writeFileSync(path.join(legacy, "banners", "legacy.jpg"), await noiseJpeg(300, 200));
      writeFileSync(path.join(legacy, "exhibits", "old-exhibit", "photo-1.jpg"), await noiseJpeg(200, 200));
      writeFileSync(path.join(legacy, "notes.txt"), "not an image");
      const env = { DATABASE_URL: a.database.url!, DATA_DIR: path.join(tmpdir(), `museum-import-${randomUUID()}`) };

      const first = runImport(env, ["--from", legacy]);
      expect(first.status).toBe(0);
      expect(first.out).toContain("moved banners/legacy.jpg");
      expect(first.out).toContain("moved exhibits/old-exhibit/photo-1.jpg");
      expect(first.out).toContain("skipped notes.txt");
      expect(first.out).toContain("2 files moved");
      expect(await objectRows("banners/legacy.jpg")).toMatchObject({ objects: 1 });
      const fromB = await get(b.url, "/images/view/banners/legacy.jpg", undefined, { accept: "image/jpeg" });
      expect(fromB.status).toBe(200);
      expect((await sharp(await bytesOf(fromB)).metadata()).width).toBe(300);

      const second = runImport(env, ["--from", legacy]);
      expect(second.status).toBe(0);
      expect(second.out).not.toMatch(/^ +moved /m);
      expect(second.out).toContain("0 files moved (0 bytes), 2 already in the database, 1 skipped.");
    } finally {
      rmSync(legacy, { recursive: true, force: true });
    }
  }, 120_000);

  it("media:import refuses to run without DATABASE_URL", () => {
    const run = runImport({ DATABASE_URL: undefined, DATA_DIR: path.join(tmpdir(), `museum-import-${randomUUID()}`) }, []);
    expect(run.status).toBe(1);
    expect(run.out).toContain("DATABASE_URL is not set");
  });

  it("uploads a 15 MB original on A and serves it from B (memory figures printed)", async () => {
    // Noise at quality 100: just under the 15 MB upload limit.
    let original = await noiseJpeg(3900, 2925, 100);
    for (let side = 3800; original.length > 15 * 1024 * 1024; side -= 100) original = await noiseJpeg(side, Math.round((side * 3) / 4), 100);
    const peak = { rss: 0 };
    const sample = setInterval(() => (peak.rss = Math.max(peak.rss, process.memoryUsage.rss())), 5);
    const measure = async (what: string, fn: () => Promise<void>) => {
      global.gc?.();
      const before = process.memoryUsage.rss();
      peak.rss = before;
      const started = performance.now();
      await fn();
      const delta = Math.round((peak.rss - before) / 1024 / 1024);
      console.log(`[media-in-database] ${what}: peak RSS +${delta} MB in ${Math.round(performance.now() - started)} ms (original ${(original.length / 1024 / 1024).toFixed(1)} MB)`);
      return delta;
    };
    try {
      const uploadDelta = await measure("upload on A", async () => {
        expect((await upload(original, "big.jpg")).status).toBe(303);
      });
      const key = (await stored()).at(-1)!;
      const row = (await a.database.handle.db.select().from(mediaObjects).where(eq(mediaObjects.key, key)))[0];
      expect(row.chunks).toBe(Math.ceil(row.size / (256 * 1024)));
      const serveDelta = await measure("serve from B (stream from the database, render at 800)", async () => {
        const answer = await get(b.url, `/images/view/${key}?height=800`, member, { accept: "image/jpeg" });
        expect(answer.status).toBe(200);
        expect((await sharp(await bytesOf(answer)).metadata()).height).toBe(800);
      });
      // The database part alone: 15 MB streamed in (a transaction) and out (to a file), 256 KB at a time.
      const objects = createMediaObjects(a.database.handle.db);
      const scratch = mkdtempSync(path.join(tmpdir(), "museum-media-io-"));
      for (let mb = 0; mb < 15; mb++) appendFileSync(path.join(scratch, "in.bin"), randomBytes(1024 * 1024));
      const writeDelta = await measure("write 15 MB into PostgreSQL alone", async () => {
        await a.database.handle.db.transaction((tx) => objects.writeFile(tx, "banners/io-test.jpg", path.join(scratch, "in.bin")));
      });
      const readDelta = await measure("read 15 MB from PostgreSQL alone", async () => {
        expect(await objects.download("banners/io-test.jpg", path.join(scratch, "out.bin"))).toBe(true);
      });
      expect(await fileSha256(path.join(scratch, "out.bin"))).toBe(await fileSha256(path.join(scratch, "in.bin")));
      rmSync(scratch, { recursive: true, force: true });
      // Bounded: the upload's cost is the decode and re-encode (as on disk); the database's part stays small.
      expect(uploadDelta).toBeLessThan(400);
      expect(serveDelta).toBeLessThan(400);
      expect(writeDelta).toBeLessThan(128);
      expect(readDelta).toBeLessThan(128);
    } finally {
      clearInterval(sample);
    }
  }, 180_000);
});
