// The image pipeline over real HTTP: an Express app with only the image router, over a temporary
// media folder seeded with generated posters. Checks negotiation, resizing, ETags, the disk
// cache, path and height validation, and member-only gating.
import { mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express, { type ErrorRequestHandler } from "express";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageRouter } from "../../server/images/image-routes";
import { createImageService, ImageRequestError } from "../../server/images/image-service";
import { isMemberOnlyImage } from "../../server/images/member-only";
import { bannerSvg, exhibitPosterSvg, teamLogoSvg } from "../../server/images/posters";

const colors = { primary: "#101820", secondary: "#ffb612", text: "#ffffff" };
const MEMBER_HEADER = "x-test-member";

let root: string;
let mediaDir: string;
let cacheDir: string;
let base: string;
let server: http.Server;
let images: ReturnType<typeof createImageService>;
const unexpectedErrors: unknown[] = [];

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
  // A file outside the media folder and a symlink inside pointing at it.
  await writeFile(path.join(root, "secret.svg"), poster);
  await symlink(path.join(root, "secret.svg"), path.join(mediaDir, "logos", "escape.svg"));

  const app = express();
  app.use(
    createImageRouter({
      images,
      isMemberOnly: isMemberOnlyImage,
      isMember: async (req) => req.get(MEMBER_HEADER) === "yes",
    }),
  );
  const recordErrors: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    unexpectedErrors.push(err);
    res.status(500).json({ message: "unexpected" });
  };
  app.use(recordErrors);
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(root, { recursive: true, force: true });
  expect(unexpectedErrors).toEqual([]);
});

function get(file: string, o: { accept?: string; member?: boolean; headers?: Record<string, string>; method?: string } = {}) {
  const headers: Record<string, string> = { accept: o.accept ?? "*/*", ...o.headers };
  if (o.member) headers[MEMBER_HEADER] = "yes";
  return fetch(`${base}/images/view/${file}`, { headers, method: o.method ?? "GET" });
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

async function cacheFiles(): Promise<Map<string, number>> {
  const names = await readdir(cacheDir).catch(() => []);
  const out = new Map<string, number>();
  for (const name of names) out.set(name, (await stat(path.join(cacheDir, name))).mtimeMs);
  return out;
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

  it("falls back to JPEG for a JPEG original", async () => {
    const res = await get("logos/photo.jpg?height=100");
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    const { meta } = await imageOf(res);
    expect(meta.format).toBe("jpeg");
    expect(meta.height).toBe(100);
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
    const first = await get("logos/steelers.svg?height=64", { accept: "image/webp" });
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]+"$/);

    const again = await get("logos/steelers.svg?height=64", { accept: "image/webp", headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=86400");
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const weak = await get("logos/steelers.svg?height=64", { accept: "image/webp", headers: { "if-none-match": `"nope", W/${etag}` } });
    expect(weak.status).toBe(304);

    // Another height or format is another representation with another tag.
    const other = await get("logos/steelers.svg?height=65", { accept: "image/webp", headers: { "if-none-match": etag! } });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
    await other.arrayBuffer();
    const png = await get("logos/steelers.svg?height=64", { headers: { "if-none-match": etag! } });
    expect(png.status).toBe(200);
    expect(png.headers.get("etag")).not.toBe(etag);
    await png.arrayBuffer();
  });

  it("reuses the cached rendition instead of rendering again", async () => {
    const before = await cacheFiles();
    const first = await get("logos/steelers.svg?height=123");
    const firstBody = Buffer.from(await first.arrayBuffer());
    const afterFirst = await cacheFiles();
    const created = [...afterFirst.keys()].filter((name) => !before.has(name));
    expect(created).toHaveLength(1);
    const mtime = afterFirst.get(created[0]);

    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await get("logos/steelers.svg?height=123");
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
    const a = await get("logos/pirates.svg?height=50");
    await a.arrayBuffer();
    await images.writeOriginal("logos/pirates.svg", svg);
    const b = await get("logos/pirates.svg?height=50");
    await b.arrayBuffer();
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
    await images.writeOriginal("logos/pirates.svg", teamLogoSvg({ name: "Pittsburgh Pirates", monogram: "PIR", colors }));
    const c = await get("logos/pirates.svg?height=50");
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

  it("rejects heights that are not whole numbers from 16 to 2000", async () => {
    for (const q of ["height=0", "height=99999", "height=abc", "height=15", "height=2001", "height=1.5", "height=-20", "height=", "height=100&height=200"]) {
      const res = await rawGet(`/images/view/logos/steelers.svg?${q}`);
      expect(res.status, q).toBe(400);
      expect(JSON.parse(res.body).message).toMatch(/height/i);
    }
    const ok = await rawGet("/images/view/logos/steelers.svg?height=2000");
    expect(ok.status).toBe(200);
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
      await expect(images.render(file, 100, undefined), file).rejects.toMatchObject({ status: 400 });
    }
    await expect(images.render("logos/steelers.svg", 10, undefined)).rejects.toBeInstanceOf(ImageRequestError);
    await expect(images.render("logos/steelers.svg", 100.5, undefined)).rejects.toMatchObject({ status: 400 });
    await expect(images.render("logos/nope.svg", undefined, undefined)).rejects.toMatchObject({ status: 404 });
    await expect(images.writeOriginal("../outside.svg", "<svg/>")).rejects.toMatchObject({ status: 400 });
  });
});
