// The image pipeline over real HTTP: an Express app with only the image router, over a temporary
// media folder seeded with generated posters. Checks negotiation, resizing to the fixed set of
// heights, ETags, the bounded disk cache, the render queue, path and height validation, and
// member-only gating.
import { mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express, { type ErrorRequestHandler } from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_HEIGHTS, MAX_IMAGE_HEIGHT } from "../../app/shared/images";
import { createImageRouter } from "../../server/images/image-routes";
import { createImageService, IMAGE_HEIGHT_MESSAGE, ImageRequestError, type ImageService } from "../../server/images/image-service";
import { isMemberOnlyImage } from "../../server/images/member-only";
import { bannerSvg, exhibitPosterSvg, teamLogoSvg } from "../../server/db/seed/posters";

const colors = { primary: "#101820", secondary: "#ffb612", text: "#ffffff" };
const MEMBER_HEADER = "x-test-member";

let root: string;
let mediaDir: string;
let cacheDir: string;
let base: string;
let images: ImageService;
const servers: http.Server[] = [];
const unexpectedErrors: unknown[] = [];

/** An Express app with only the image router over `service`, listening on a free port. */
async function serve(service: ImageService): Promise<string> {
  const app = express();
  app.use(
    createImageRouter({
      images: service,
      isMemberOnly: isMemberOnlyImage,
      isMember: async (req) => req.get(MEMBER_HEADER) === "yes",
    }),
  );
  const recordErrors: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    unexpectedErrors.push(err);
    res.status(500).json({ message: "unexpected" });
  };
  app.use(recordErrors);
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A plain SVG of the given size (no text, so it renders fast). */
function blockSvg(width: number, height: number, fill = "#ffb612"): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${fill}"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#101820"/></svg>`;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "museum-images-"));
  mediaDir = path.join(root, "media");
  cacheDir = path.join(root, "cache");
  images = createImageService({ mediaDir, cacheDir });

  await images.writeOriginal("logos/steelers.svg", teamLogoSvg({ name: "Pittsburgh Steelers", monogram: "PS", colors }));
  const poster = exhibitPosterSvg({
    title: "The Immaculate Reception",
    caption: "Franco Harris & the deflected pass",
    year: 1972,
    teamName: "Pittsburgh Steelers",
    colors,
    index: 0,
  });
  await images.writeOriginal("exhibits/immaculate/photo-1.svg", poster);
  await images.writeOriginal("banners/desktop-1.svg", bannerSvg({ title: "City of Champions", subtitle: "Sports", colors, variant: "desktop", index: 0 }));
  const jpeg = await sharp(Buffer.from(poster)).jpeg().toBuffer();
  await images.writeOriginal("logos/photo.jpg", jpeg);
  await images.writeOriginal("banners/tall.svg", blockSvg(1200, 3000));
  await images.writeOriginal("banners/wide.svg", blockSvg(12000, 1000));
  // A file outside the media folder and a symlink inside pointing at it.
  await writeFile(path.join(root, "secret.svg"), poster);
  await symlink(path.join(root, "secret.svg"), path.join(mediaDir, "logos", "escape.svg"));

  base = await serve(images);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  await rm(root, { recursive: true, force: true });
  expect(unexpectedErrors).toEqual([]);
});

function get(file: string, o: { accept?: string; member?: boolean; headers?: Record<string, string>; method?: string; base?: string } = {}) {
  const headers: Record<string, string> = { accept: o.accept ?? "*/*", ...o.headers };
  if (o.member) headers[MEMBER_HEADER] = "yes";
  return fetch(`${o.base ?? base}/images/view/${file}`, { headers, method: o.method ?? "GET" });
}

/** A raw request: the path goes out exactly as written (fetch would normalise "../"). */
function rawGet(pathAndQuery: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = http.request({ host: url.hostname, port: url.port, path: pathAndQuery, method: "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function imageOf(res: Response) {
  const body = Buffer.from(await res.arrayBuffer());
  return { body, meta: await sharp(body).metadata() };
}

async function cacheFiles(dir = cacheDir): Promise<Map<string, number>> {
  const names = await readdir(dir).catch(() => []);
  const out = new Map<string, number>();
  for (const name of names) out.set(name, (await stat(path.join(dir, name))).mtimeMs);
  return out;
}

/** Total bytes of the files in a cache folder, as the disk sees them. */
async function cacheBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir).catch(() => [])) total += (await stat(path.join(dir, name))).size;
  return total;
}

describe("format negotiation and resizing", () => {
  it("sends PNG for an SVG original when the client names no modern format", async () => {
    const res = await get("logos/steelers.svg?height=150");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("vary")).toMatch(/accept/i);
    const { meta, body } = await imageOf(res);
    expect(meta.format).toBe("png");
    expect(meta.height).toBe(150);
    expect(meta.width).toBe(150);
    expect(Number(res.headers.get("content-length"))).toBe(body.length);
  });

  it("sends WebP when Accept names image/webp", async () => {
    const res = await get("exhibits/immaculate/photo-1.svg?height=200", { accept: "image/webp,*/*", member: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    const { meta } = await imageOf(res);
    expect(meta.format).toBe("webp");
    expect(meta.height).toBe(200);
    expect(meta.width).toBe(300);
  });

  it("prefers AVIF when accepted, and ignores a format refused with q=0", async () => {
    const res = await get("logos/steelers.svg?height=150", { accept: "image/avif,image/webp,image/apng,*/*;q=0.8" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/avif");
    const { meta } = await imageOf(res);
    expect(meta.format).toBe("heif");
    expect(meta.compression).toBe("av1");
    expect(meta.height).toBe(150);

    const refused = await get("logos/steelers.svg?height=150", { accept: "image/avif;q=0, image/webp" });
    expect(refused.headers.get("content-type")).toBe("image/webp");
    await refused.arrayBuffer();
  });

  it("keeps the original size when no height is given", async () => {
    const res = await get("banners/desktop-1.svg");
    expect(res.status).toBe(200);
    const { meta } = await imageOf(res);
    expect([meta.width, meta.height]).toEqual([1600, 600]);
  });

  it("caps an original without a height at the tallest rendition, and very wide ones at 2400 px", async () => {
    const tall = await imageOf(await get("banners/tall.svg", { accept: "image/webp" }));
    expect([tall.meta.width, tall.meta.height]).toEqual([400, MAX_IMAGE_HEIGHT]);
    const wide = await imageOf(await get("banners/wide.svg", { accept: "image/webp" }));
    expect([wide.meta.width, wide.meta.height]).toEqual([2400, 200]);
    const wideTall = await imageOf(await get(`banners/wide.svg?height=${MAX_IMAGE_HEIGHT}`, { accept: "image/webp" }));
    expect([wideTall.meta.width, wideTall.meta.height]).toEqual([2400, 200]);
  });

  it("renders every allowed height", async () => {
    for (const height of IMAGE_HEIGHTS) {
      const res = await get(`exhibits/immaculate/photo-1.svg?height=${height}`, { accept: "image/webp", member: true });
      expect(res.status, String(height)).toBe(200);
      const { meta } = await imageOf(res);
      expect([meta.width, meta.height]).toEqual([height * 1.5, height]);
    }
  });

  it("falls back to JPEG for a JPEG original", async () => {
    const res = await get("logos/photo.jpg?height=200");
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const { meta } = await imageOf(res);
    expect(meta.format).toBe("jpeg");
    expect(meta.height).toBe(200);
  });

  it("answers HEAD with the headers only", async () => {
    const res = await get("logos/steelers.svg?height=150", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(Number(res.headers.get("content-length"))).toBeGreaterThan(0);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });
});

describe("caching", () => {
  it("gives a strong ETag and answers a matching If-None-Match with 304", async () => {
    const first = await get("logos/steelers.svg?height=400", { accept: "image/webp" });
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]+"$/);

    const again = await get("logos/steelers.svg?height=400", { accept: "image/webp", headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const weak = await get("logos/steelers.svg?height=400", { accept: "image/webp", headers: { "if-none-match": `"nope", W/${etag}` } });
    expect(weak.status).toBe(304);

    // Another height or format is another representation with another tag.
    const other = await get("logos/steelers.svg?height=300", { accept: "image/webp", headers: { "if-none-match": etag! } });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
    await other.arrayBuffer();
    const png = await get("logos/steelers.svg?height=400", { headers: { "if-none-match": etag! } });
    expect(png.status).toBe(200);
    expect(png.headers.get("etag")).not.toBe(etag);
    await png.arrayBuffer();
  });

  it("answers a matching If-None-Match without rendering, even when the rendition was evicted", async () => {
    const first = await get("banners/desktop-1.svg?height=150", { accept: "image/webp" });
    await first.arrayBuffer();
    const etag = first.headers.get("etag")!;
    for (const name of (await cacheFiles()).keys()) await rm(path.join(cacheDir, name));
    const started = images.stats().renders.started;
    const again = await get("banners/desktop-1.svg?height=150", { accept: "image/webp", headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(images.stats().renders.started).toBe(started);
    expect((await cacheFiles()).size).toBe(0);
  });

  it("reuses the cached rendition instead of rendering again", async () => {
    const before = await cacheFiles();
    const first = await get("logos/steelers.svg?height=600");
    const firstBody = Buffer.from(await first.arrayBuffer());
    const afterFirst = await cacheFiles();
    const created = [...afterFirst.keys()].filter((name) => !before.has(name));
    expect(created).toHaveLength(1);
    const mtime = afterFirst.get(created[0]);

    expect(first.headers.get("x-cache")).toBe("MISS");

    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await get("logos/steelers.svg?height=600");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(Buffer.from(await second.arrayBuffer()).equals(firstBody)).toBe(true);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const afterSecond = await cacheFiles();
    expect(afterSecond.size).toBe(afterFirst.size);
    expect(afterSecond.get(created[0])).toBe(mtime);
  });

  it("renders once for concurrent requests and leaves no temporary files", async () => {
    const before = await cacheFiles();
    const responses = await Promise.all(Array.from({ length: 6 }, () => get("banners/desktop-1.svg?height=300", { accept: "image/avif" })));
    const bodies = await Promise.all(responses.map(async (r) => Buffer.from(await r.arrayBuffer())));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const b of bodies) expect(b.equals(bodies[0])).toBe(true);
    const after = await cacheFiles();
    expect([...after.keys()].filter((n) => !before.has(n))).toHaveLength(1);
    expect([...after.keys()].filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("changes the ETag when the original changes, and keeps it when re-seeded unchanged", async () => {
    const svg = teamLogoSvg({ name: "Pittsburgh Pirates", monogram: "PP", colors });
    await images.writeOriginal("logos/pirates.svg", svg);
    const a = await get("logos/pirates.svg?height=80");
    await a.arrayBuffer();
    await images.writeOriginal("logos/pirates.svg", svg);
    const b = await get("logos/pirates.svg?height=80");
    await b.arrayBuffer();
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    await images.writeOriginal("logos/pirates.svg", teamLogoSvg({ name: "Pittsburgh Pirates", monogram: "PIR", colors }));
    const c = await get("logos/pirates.svg?height=80");
    await c.arrayBuffer();
    expect(c.headers.get("etag")).not.toBe(a.headers.get("etag"));
  });
});

describe("client errors", () => {
  async function expect400(res: { status: number; body: string }) {
    expect(res.status).toBe(400);
    expect(typeof JSON.parse(res.body).message).toBe("string");
  }

  it("rejects paths that climb out of the media folder, raw or percent-encoded", async () => {
    await expect400(await rawGet("/images/view/../etc/passwd"));
    await expect400(await rawGet("/images/view/%2e%2e%2fetc%2fpasswd"));
    const viaFetch = await fetch(`${base}/images/view/%2e%2e%2fetc%2fpasswd`);
    expect(viaFetch.status).toBe(400);
    expect(await viaFetch.json()).toHaveProperty("message");
    await expect400(await rawGet("/images/view/%2e%2e/%2e%2e/etc/passwd.svg"));
    await expect400(await rawGet("/images/view/logos/..%2f..%2fsecret.svg"));
  });

  it("rejects backslashes, NUL, unknown extensions, bad escapes and symlinks leading outside", async () => {
    await expect400(await rawGet("/images/view/logos%5csteelers.svg"));
    await expect400(await rawGet("/images/view/logos/steelers.svg%00.png"));
    await expect400(await rawGet("/images/view/logos/readme.txt"));
    await expect400(await rawGet("/images/view/logos//steelers.svg"));
    await expect400(await rawGet("/images/view/logos/%E0%A4%A.svg"));
    await expect400(await rawGet("/images/view/logos/escape.svg"));
  });

  it("rejects any height outside the fixed set, naming the allowed ones", async () => {
    const refused = ["height=2000", "height=1999", "height=151", "height=100", "height=16", "height=1200", "height=0", "height=99999"];
    const malformed = ["height=abc", "height=1.5", "height=-20", "height=", "height=100&height=200", "height=150&height=150"];
    for (const q of [...refused, ...malformed]) {
      const res = await rawGet(`/images/view/logos/steelers.svg?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers["cache-control"], q).toBe("no-store");
      expect(JSON.parse(res.body), q).toEqual({ message: IMAGE_HEIGHT_MESSAGE });
    }
    expect(IMAGE_HEIGHT_MESSAGE).toBe(
      "Height must be one of 80, 150, 200, 300, 400, 600, 800, 1000 pixels, or left out for the original size (at most 1000 pixels high).",
    );
    // A refused height costs nothing: not even a member-only check or a look at the disk.
    const before = images.stats().renders.started;
    const res = await rawGet("/images/view/exhibits/immaculate/photo-1.svg?height=2000");
    expect(res.status).toBe(400);
    expect(images.stats().renders.started).toBe(before);
  });

  it("answers 404 JSON for a missing original", async () => {
    const res = await get("logos/missing.svg?height=150");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: "Image not found." });
    const folder = await get("logos/steelers.svg/inner.svg");
    expect(folder.status).toBe(404);
    await folder.arrayBuffer();
  });
});

describe("member-only images", () => {
  it("refuses exhibit photos to visitors with 403 and private, no-store", async () => {
    const res = await get("exhibits/immaculate/photo-1.svg?height=200");
    expect(res.status).toBe(403);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toEqual({ message: "A museum ticket is required to view this image." });
    // Whether the file exists stays hidden from visitors.
    const missing = await get("exhibits/nothing-here.svg");
    expect(missing.status).toBe(403);
    await missing.arrayBuffer();
  });

  it("serves them to members with a private cache header", async () => {
    const res = await get("exhibits/immaculate/photo-1.svg?height=200", { member: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(res.headers.get("content-type")).toBe("image/png");
    await res.arrayBuffer();
  });

  it("serves logos and banners publicly", async () => {
    for (const file of ["logos/steelers.svg?height=150", "banners/desktop-1.svg"]) {
      const res = await get(file);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
      await res.arrayBuffer();
    }
  });

  it("classifies folders", () => {
    expect(isMemberOnlyImage("exhibits/x/photo-1.svg")).toBe(true);
    expect(isMemberOnlyImage("exhibits/x/matching.svg")).toBe(true);
    expect(isMemberOnlyImage("logos/steelers.svg")).toBe(false);
    expect(isMemberOnlyImage("banners/mobile-2.svg")).toBe(false);
  });
});

describe("image service", () => {
  it("rejects bad paths and heights with ImageRequestError", async () => {
    for (const file of ["/etc/passwd.svg", "../x.svg", "a\\b.svg", "a\u0000.svg", "logos/x.gif", "C:/x.svg"]) {
      await expect(images.openRendition(file, 150, undefined), file).rejects.toMatchObject({ status: 400 });
    }
    await expect(images.openRendition("logos/steelers.svg", 10, undefined)).rejects.toBeInstanceOf(ImageRequestError);
    await expect(images.openRendition("logos/steelers.svg", 2000, undefined)).rejects.toMatchObject({ status: 400 });
    await expect(images.openRendition("logos/steelers.svg", 150.5, undefined)).rejects.toMatchObject({ status: 400 });
    await expect(images.openRendition("logos/nope.svg", undefined, undefined)).rejects.toMatchObject({ status: 404 });
    await expect(images.writeOriginal("../outside.svg", "<svg/>")).rejects.toMatchObject({ status: 400 });
  });
});

describe("bounded disk cache", () => {
  it("stays under its byte bound, evicts the least recently used, and re-renders evicted renditions", async () => {
    const dir = path.join(root, "small-cache");
    const bound = 40_000;
    const small = createImageService({ mediaDir, cacheDir: dir, cacheMaxBytes: bound });
    const open = async (file: string, height: number | undefined, accept = "image/webp") => {
      const r = await small.openRendition(file, height, accept);
      const body = await r.body!.handle.readFile();
      await r.body!.handle.close();
      return { etag: r.etag, body };
    };

    const first = await open("logos/steelers.svg", 150);
    const requests: Array<[string, number]> = [];
    for (const file of ["logos/steelers.svg", "exhibits/immaculate/photo-1.svg", "banners/desktop-1.svg"]) {
      for (const height of IMAGE_HEIGHTS) requests.push([file, height]);
    }
    let written = first.body.length;
    for (const [file, height] of requests) {
      // Keep the first rendition in use: the least recently used ones go first.
      if (file !== "logos/steelers.svg" || height !== 150) written += (await open(file, height)).body.length;
      await open("logos/steelers.svg", 150);
      expect(await cacheBytes(dir), `${file} ${height}`).toBeLessThanOrEqual(bound);
    }
    expect(written).toBeGreaterThan(3 * bound);
    const stats = small.stats();
    expect(stats.cache.evictions).toBeGreaterThan(0);
    expect(stats.cache.bytes).toBe(await cacheBytes(dir));
    expect(stats.cache.bytes).toBeLessThanOrEqual(bound);

    // The often-used rendition survived; an early one was evicted and comes back on demand.
    const startedBefore = small.stats().renders.started;
    expect((await open("logos/steelers.svg", 150)).body.equals(first.body)).toBe(true);
    expect(small.stats().renders.started).toBe(startedBefore);
    const early = requests.find(([file, height]) => file === "logos/steelers.svg" && height === 80)!;
    const again = await open(early[0], early[1]);
    expect(small.stats().renders.started).toBe(startedBefore + 1);
    const meta = await sharp(again.body).metadata();
    expect(meta.height).toBe(80);
    expect(await cacheBytes(dir)).toBeLessThanOrEqual(bound);
  });

  it("keeps serving a rendition that another process evicted while it was being sent", async () => {
    const dir = path.join(root, "evicted-cache");
    const service = createImageService({ mediaDir, cacheDir: dir });
    const r = await service.openRendition("logos/steelers.svg", 200, "image/webp");
    for (const name of (await cacheFiles(dir)).keys()) await rm(path.join(dir, name));
    const body = await r.body!.handle.readFile();
    await r.body!.handle.close();
    expect(body.length).toBe(r.body!.size);
    expect((await sharp(body).metadata()).height).toBe(200);
  });
});

describe("render queue", () => {
  const distinct = (n: number) =>
    Array.from({ length: n }, (_, i) => [`logos/steelers.svg?height=${IMAGE_HEIGHTS[i % IMAGE_HEIGHTS.length]}`, i < IMAGE_HEIGHTS.length ? "image/webp" : "image/avif"] as const);

  it("renders one at a time per process by default, whatever the number of concurrent misses", async () => {
    const service = createImageService({ mediaDir, cacheDir: path.join(root, "queue-1") });
    const at = await serve(service);
    const responses = await Promise.all(distinct(12).map(([file, accept]) => get(file, { accept, base: at })));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    const { renders } = service.stats();
    expect(renders.started).toBe(12);
    expect(renders.peakActive).toBe(1);
    expect([renders.active, renders.queued]).toEqual([0, 0]);
  });

  it("never runs more than the configured number at once", async () => {
    const service = createImageService({ mediaDir, cacheDir: path.join(root, "queue-2"), renderConcurrency: 2 });
    const at = await serve(service);
    const responses = await Promise.all(distinct(10).map(([file, accept]) => get(file, { accept, base: at })));
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(service.stats().renders.peakActive).toBe(2);
  });

  it("answers 503 with Retry-After when the queue is full, and serves the rest", async () => {
    const service = createImageService({ mediaDir, cacheDir: path.join(root, "queue-full"), renderConcurrency: 1, renderQueueLength: 2 });
    const at = await serve(service);
    // Large AVIF renders (a few hundred ms each), so the burst arrives while the first one runs.
    const slow = ["banners/tall.svg", "banners/wide.svg", "banners/desktop-1.svg"].flatMap((file) =>
      [600, 800, 1000].map((height) => `${file}?height=${height}`),
    );
    const responses = await Promise.all(slow.map((file) => get(file, { accept: "image/avif", base: at })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    for (const r of responses) {
      if (r.status === 503) {
        expect(r.headers.get("retry-after")).toBe("5");
        expect(await r.json()).toEqual({ message: "The image service is busy. Please try again in a few seconds." });
      } else await r.arrayBuffer();
    }
    expect(service.stats().renders.peakActive).toBe(1);
    // Once the burst is over the refused ones render normally.
    const retry = await get(slow[responses.findIndex((r) => r.status === 503)], { accept: "image/avif", base: at });
    expect(retry.status).toBe(200);
    await retry.arrayBuffer();
  });
});
