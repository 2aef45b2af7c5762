/**
 * Image renditions: validates a request for a media original, picks the output format from the
 * Accept header, and returns a resized copy rendered once by sharp and kept in a bounded disk
 * cache (written to a temporary file and renamed, so concurrent requests never see half a file).
 * Only the heights in IMAGE_HEIGHTS are rendered (decision 009); renders go through a small
 * queue, one or two at a time per process, with sharp's own threads, cache and input size held
 * down, so a burst of cache misses costs time in the queue rather than memory. With DATABASE_URL
 * the originals are read from PostgreSQL (decision 024); the renditions stay on this disk.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_HEIGHTS, isImageHeight, MAX_IMAGE_HEIGHT, type ImageHeight } from "../../app/shared/images";
import { fileSha256, type MediaObjects } from "../media/media-objects";
import { createDiskCache, type DiskCacheStats } from "./disk-cache";
import { createRenderQueue, RenderQueueFullError, type RenderQueueStats } from "./render-queue";
import { writeAtomically } from "../files/write-atomically";

export type ImageFormat = "avif" | "webp" | "png" | "jpeg";

export class ImageRequestError extends Error {
  readonly status: 400 | 404 | 503;

  constructor(status: 400 | 404 | 503, message: string) {
    super(message);
    this.name = "ImageRequestError";
    this.status = status;
  }
}

/** Width cap for very wide originals: no rendition is larger than 2400 x 1000. */
const MAX_IMAGE_WIDTH = 2400;
/** Originals above this many pixels (decoded) are refused by sharp before it allocates them. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** A render that takes longer than this is abandoned (sharp stops the libvips pipeline). */
const RENDER_TIMEOUT_SECONDS = 30;
/** Renders at once per process; sharp itself runs each on one libvips thread. */
export const DEFAULT_RENDER_CONCURRENCY = 1;
/**
 * Renders that may wait for a slot; more than that answer 503 at once. A waiting render holds
 * only an open file handle (the original is read once its turn comes), so the bound is on
 * latency (about 64 x 0.2-0.7 s) more than memory; it is long enough for the first visitors of
 * a cold cache (a page asks for up to about 20 images, 6 at a time per browser).
 */
export const DEFAULT_RENDER_QUEUE_LENGTH = 64;
/** Seconds a client is told to wait after a 503 "busy". */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** The Accept header of the browsers the warmer renders for (Chromium, Firefox, Safari 16+ all take AVIF). */
const WARM_ACCEPT = "image/avif,image/webp,image/*,*/*;q=0.8";
const MAX_PATH_LENGTH = 512;
/** Part of every cache key: bump it when encoder settings change to retire old renditions. */
const RENDER_VERSION = 3;

const SOURCE_EXTENSIONS = new Set(["svg", "png", "jpg", "jpeg", "webp"]);

const CONTENT_TYPES: Record<ImageFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  png: "image/png",
  jpeg: "image/jpeg",
};

export const IMAGE_HEIGHT_MESSAGE = `Height must be one of ${IMAGE_HEIGHTS.join(", ")} pixels, or left out for the original size (at most ${MAX_IMAGE_HEIGHT} pixels high).`;
const BUSY_MESSAGE = "The image service is busy. Please try again in a few seconds.";

let sharpConfigured = false;
/**
 * Process-wide sharp settings: one libvips thread per render (renders are already queued), and
 * no libvips operation cache (each rendition is made once and then read from disk, so a cache
 * would only hold decoded images in memory).
 */
export function configureSharp(): void {
  if (sharpConfigured) return;
  sharp.concurrency(1);
  sharp.cache(false);
  sharpConfigured = true;
}

function sourceExtension(file: string): string {
  return path.posix.extname(file).slice(1).toLowerCase();
}

/**
 * Checks a media path from a request ("exhibits/x/photo-1.svg") and returns it unchanged, or
 * throws ImageRequestError 400. Only relative, forward-slash paths to known image types pass.
 */
export function validateImageFile(file: unknown): string {
  const bad = (why: string) => new ImageRequestError(400, `Invalid image path: ${why}.`);
  if (typeof file !== "string" || file.length === 0) throw bad("it is empty");
  if (file.length > MAX_PATH_LENGTH) throw bad("it is too long");
  // NUL and the other control characters never belong in a media name.
  if ([...file].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw bad("it contains control characters");
  if (file.includes("\\")) throw bad("it contains a backslash");
  if (file.startsWith("/") || /^[a-zA-Z]:/.test(file) || path.isAbsolute(file)) throw bad("it must be relative");
  for (const segment of file.split("/")) {
    if (segment === "" || segment === "." || segment === "..") throw bad("it contains an empty, '.' or '..' segment");
  }
  if (!SOURCE_EXTENSIONS.has(sourceExtension(file))) throw bad("only svg, png, jpg, jpeg and webp images are served");
  return file;
}

/** Checks a requested height: undefined (original size, capped) or one of IMAGE_HEIGHTS, else 400. */
export function validateImageHeight(height: unknown): ImageHeight | undefined {
  if (height === undefined) return undefined;
  if (typeof height !== "number" || !isImageHeight(height)) throw new ImageRequestError(400, IMAGE_HEIGHT_MESSAGE);
  return height;
}

/** Media types the client listed explicitly with a non-zero quality ("image/avif;q=0" refuses). */
function acceptedTypes(accept: string | undefined): Set<string> {
  const types = new Set<string>();
  for (const part of (accept ?? "").split(",")) {
    const [type, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!type) continue;
    const q = params.find((p) => /^q\s*=/.test(p));
    const quality = q === undefined ? 1 : Number(q.replace(/^q\s*=\s*/, ""));
    if (Number.isFinite(quality) && quality > 0) types.add(type);
  }
  return types;
}

/**
 * AVIF when the client names it, else WebP, else the lossless or photographic fallback that
 * suits the source. Wildcards do not count: old clients send "*\/*" and cannot decode AVIF.
 */
export function chooseImageFormat(accept: string | undefined, file: string): ImageFormat {
  const types = acceptedTypes(accept);
  if (types.has("image/avif")) return "avif";
  if (types.has("image/webp")) return "webp";
  const ext = sourceExtension(file);
  return ext === "jpg" || ext === "jpeg" ? "jpeg" : "png";
}

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** The answer for a file that is not there, or not there for this requester (image-routes.ts). */
export const IMAGE_NOT_FOUND_MESSAGE = "Image not found.";
const notFound = () => new ImageRequestError(404, IMAGE_NOT_FOUND_MESSAGE);

/** `child` lies inside `root` (both absolute, already resolved). */
function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** The output size: the requested (or original) height capped at MAX_IMAGE_HEIGHT, width capped too. */
export function renditionSize(srcWidth: number, srcHeight: number, height: number | undefined): { width: number; height: number } {
  let outHeight = Math.min(height ?? srcHeight, MAX_IMAGE_HEIGHT);
  let outWidth = Math.max(1, Math.round((srcWidth * outHeight) / srcHeight));
  if (outWidth > MAX_IMAGE_WIDTH) {
    outWidth = MAX_IMAGE_WIDTH;
    outHeight = Math.max(1, Math.round((srcHeight * MAX_IMAGE_WIDTH) / srcWidth));
  }
  return { width: outWidth, height: outHeight };
}

/** An original ready for sharp: its bytes, or the path of a file holding them. */
type SourceInput = Buffer | string;

/** Reads an original for one render; `release` (when given) is called once the render is done. */
type ReadOriginal = () => Promise<{ input: SourceInput; release?: () => Promise<void> }>;

async function encode(input: SourceInput, ext: string, height: number | undefined, format: ImageFormat): Promise<Buffer> {
  const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  const srcWidth = meta.autoOrient?.width ?? meta.width;
  const srcHeight = meta.autoOrient?.height ?? meta.height;
  if (!srcWidth || !srcHeight) throw new Error("The image original has no readable size");
  const out = renditionSize(srcWidth, srcHeight, height);

  // Vector originals are rasterised at the target scale (crisp, and no oversized canvas);
  // sharp's default SVG density is 72 dpi, the size metadata reports.
  const density = ext === "svg" ? Math.min(100_000, Math.max(1, (72 * out.height) / srcHeight)) : undefined;
  let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, ...(density === undefined ? {} : { density }) })
    .timeout({ seconds: RENDER_TIMEOUT_SECONDS })
    .rotate()
    .resize({ width: out.width, height: out.height, fit: "fill" });
  switch (format) {
    case "avif":
      // Quality 45 at effort 3 of 9: on the home page's first banner (the mobile LCP image,
      // 800x1000) 15.5 KB at a PSNR of 41.9 dB, against 23.3 KB and 41.1 dB for quality 55 at
      // effort 1; it takes about 0.6 s instead of 0.25 s, once per rendition (the disk cache
      // keeps it). Decision 016, addendum 3.
      pipeline = pipeline.avif({ quality: 45, effort: 3 });
      break;
    case "webp":
      pipeline = pipeline.webp({ quality: 82, effort: 4 });
      break;
    case "png":
      pipeline = pipeline.png({ compressionLevel: 9 });
      break;
    case "jpeg":
      pipeline = pipeline.flatten({ background: "#ffffff" }).jpeg({ quality: 84, mozjpeg: true });
      break;
  }
  return pipeline.toBuffer();
}

/** An open cached rendition: the caller streams `handle` (or closes it) and never leaves it open. */
export interface OpenRendition {
  handle: fs.FileHandle;
  size: number;
}

export interface Rendition {
  contentType: string;
  etag: string;
  /** The rendition's bytes, or null when `skipIf` matched the ETag (nothing rendered or opened). */
  body: OpenRendition | null;
  /** MISS when this request had to wait for a render (the expensive case), else HIT. */
  cache: "HIT" | "MISS";
}

export function createImageService(o: {
  mediaDir: string;
  cacheDir: string;
  /** Bound on the rendition cache folder in bytes (default 256 MiB). */
  cacheMaxBytes?: number;
  /** Renders running at once in this process (default 1). */
  renderConcurrency?: number;
  /** Renders waiting for a slot before more are refused with 503 (default 64). */
  renderQueueLength?: number;
  /**
   * With DATABASE_URL: the originals in PostgreSQL (decision 024), the only ones served. A
   * render uses this instance's copy under mediaDir when it holds the same bytes, else streams
   * the original into a temporary file beside the cache; writeOriginal writes there.
   */
  originals?: MediaObjects;
}) {
  configureSharp();
  const mediaDir = path.resolve(o.mediaDir);
  const cacheDir = path.resolve(o.cacheDir);
  const cache = createDiskCache({ dir: cacheDir, maxBytes: o.cacheMaxBytes });
  const queue = createRenderQueue({
    concurrency: o.renderConcurrency ?? DEFAULT_RENDER_CONCURRENCY,
    maxQueued: o.renderQueueLength ?? DEFAULT_RENDER_QUEUE_LENGTH,
  });
  /** Renditions being produced right now in this process, by cache key: one render each. */
  const inFlight = new Map<string, Promise<void>>();

  /** The real path of an original, refusing anything that leads out of mediaDir (symlinks too). */
  async function locate(file: string): Promise<string> {
    const lexical = path.resolve(mediaDir, file);
    if (!isInside(mediaDir, lexical)) throw new ImageRequestError(400, "Invalid image path: it leads outside the media folder.");
    let root: string;
    let real: string;
    try {
      root = await fs.realpath(mediaDir);
      real = await fs.realpath(lexical);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP" || code === "ENAMETOOLONG") throw notFound();
      throw error;
    }
    if (!isInside(root, real)) throw new ImageRequestError(400, "Invalid image path: it leads outside the media folder.");
    return real;
  }

  /** The cached rendition opened for reading, or undefined when it is not (or no longer) there. */
  async function openCached(target: string): Promise<(OpenRendition & { mtimeMs: number }) | undefined> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(target, "r");
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return undefined;
      throw error;
    }
    try {
      const s = await handle.stat();
      if (s.isFile() && s.size > 0) return { handle, size: s.size, mtimeMs: s.mtimeMs };
    } catch (error) {
      await handle.close();
      throw error;
    }
    await handle.close();
    return undefined;
  }

  /** Renders one rendition into the cache, queued behind the other renders of this process. */
  function produce(key: string, name: string, read: ReadOriginal, ext: string, height: number | undefined, format: ImageFormat) {
    let job = inFlight.get(key);
    if (job) return job;
    const target = path.join(cacheDir, name);
    job = queue
      .run(async () => {
        const source = await read();
        let output: Buffer;
        try {
          output = await encode(source.input, ext, height, format);
        } finally {
          await source.release?.();
        }
        await fs.mkdir(cacheDir, { recursive: true });
        await writeAtomically(target, output);
        return output.length;
      })
      .then(
        (size) => cache.noteWrite(name, size),
        (error: unknown) => {
          throw error instanceof RenderQueueFullError ? new ImageRequestError(503, BUSY_MESSAGE) : error;
        },
      )
      .finally(() => inFlight.delete(key));
    inFlight.set(key, job);
    return job;
  }

  interface RenditionRequest {
    rel: string;
    ext: string;
    outHeight: ImageHeight | undefined;
    format: ImageFormat;
    skipIf?: (etag: string) => boolean;
    /** Awaited before a missing rendition is queued for its render (the warmer yields to visitors here). */
    beforeRender?: () => Promise<void>;
  }

  /** The rendition of `request` for the original identified by `version`, from the cache or rendered from `read`. */
  async function serve(request: RenditionRequest, version: unknown[], read: ReadOriginal): Promise<Rendition> {
    const { rel, ext, outHeight, format, skipIf } = request;
    const key = createHash("sha256")
      .update(JSON.stringify([RENDER_VERSION, rel, ...version, outHeight ?? "original", format]))
      .digest("hex");
    const name = `${key}.${format === "jpeg" ? "jpg" : format}`;
    const contentType = CONTENT_TYPES[format];
    const etag = `"${key.slice(0, 40)}"`;
    if (skipIf?.(etag)) return { contentType, etag, body: null, cache: "HIT" };

    const unpin = cache.pin(name);
    try {
      // Another process may evict the file between our render and our open: render again.
      let waited = !request.beforeRender;
      for (let attempt = 0; attempt < 3; ) {
        const cached = await openCached(path.join(cacheDir, name));
        if (cached) {
          cache.noteHit(name, cached.size, cached.mtimeMs);
          return { contentType, etag, body: { handle: cached.handle, size: cached.size }, cache: attempt === 0 ? "HIT" : "MISS" };
        }
        if (!waited) {
          // Wait as asked, then look again: a visitor may have had it rendered meanwhile.
          waited = true;
          await request.beforeRender?.();
          continue;
        }
        await produce(key, name, read, ext, outHeight, format);
        attempt++;
      }
      throw new Error(`Rendition ${name} vanished from the image cache three times in a row`);
    } finally {
      unpin();
    }
  }

  /**
   * With the originals in PostgreSQL: the ETag and cache key come from the stored SHA-256, so
   * every instance answers the same; a deleted original is a 404 everywhere, whatever copy a disk
   * still holds. The render reads this instance's copy when it has the same bytes, else the
   * original streamed from the database into a temporary file (removed after the render).
   */
  async function fromDatabase(originals: MediaObjects, request: RenditionRequest): Promise<Rendition> {
    const stored = await originals.describe(request.rel);
    if (!stored) throw notFound();
    return serve(request, ["db", stored.sha256, stored.size], async () => {
      const local = await locate(request.rel).catch(() => undefined);
      if (local && (await fileSha256(local).catch(() => undefined)) === stored.sha256) return { input: local };
      await fs.mkdir(cacheDir, { recursive: true });
      const temp = path.join(cacheDir, `original-${randomUUID()}.tmp`);
      if (!(await originals.download(request.rel, temp))) throw notFound();
      return { input: temp, release: () => fs.rm(temp, { force: true }) };
    });
  }

  /** The rendition of `file` at `height` for `accept`, from the cache or rendered (see openRendition). */
  async function open(
    file: string,
    height: number | undefined,
    accept: string | undefined,
    hooks: Pick<RenditionRequest, "skipIf" | "beforeRender"> = {},
  ): Promise<Rendition> {
    const rel = validateImageFile(file);
    const outHeight = validateImageHeight(height);
    const format = chooseImageFormat(accept, rel);
    const ext = sourceExtension(rel);
    const request: RenditionRequest = { rel, ext, outHeight, format, ...hooks };
    if (o.originals) return fromDatabase(o.originals, request);

    const source = await locate(rel);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(source, "r");
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") throw notFound();
      throw error;
    }
    try {
      // Stat and read through one handle, so the ETag describes the bytes actually rendered.
      const stat = await handle.stat();
      if (!stat.isFile()) throw notFound();
      let original: Promise<Buffer> | undefined;
      return await serve(request, [stat.mtimeMs, stat.size], async () => ({ input: await (original ??= handle.readFile()) }));
    } finally {
      await handle.close();
    }
  }

  return {
    /**
     * Validates `file` and `height`, picks the format from `accept`, and returns the rendition's
     * content type, strong ETag and an open handle on the cached file (rendering it first when
     * missing). When `skipIf(etag)` is true (a matching If-None-Match) nothing is rendered or
     * opened and `body` is null.
     */
    openRendition(file: string, height: number | undefined, accept: string | undefined, skipIf?: (etag: string) => boolean): Promise<Rendition> {
      return open(file, height, accept, { skipIf });
    },

    /**
     * Makes the rendition a browser that takes AVIF (every current one) gets for `file` at
     * `height`, unless it is cached already, through the same render queue as visitors' requests.
     * "missing" when the original does not exist. `beforeRender` is awaited before a render is
     * queued (not for a cached one): the warmer waits there for a quiet moment (decision 041).
     */
    async warm(file: string, height: number, beforeRender?: () => Promise<void>): Promise<"cached" | "rendered" | "missing"> {
      try {
        const rendition = await open(file, height, WARM_ACCEPT, { beforeRender });
        await rendition.body?.handle.close();
        return rendition.cache === "HIT" ? "cached" : "rendered";
      } catch (error) {
        if (error instanceof ImageRequestError && (error.status === 404 || error.status === 400)) return "missing";
        throw error;
      }
    },

    /** Writes an original into mediaDir (creating folders), or into PostgreSQL with `originals`; used by the seeder. */
    async writeOriginal(file: string, content: string | Buffer): Promise<void> {
      const rel = validateImageFile(file);
      if (o.originals) {
        await o.originals.writeIfChanged(rel, typeof content === "string" ? Buffer.from(content, "utf8") : content);
        return;
      }
      const target = path.resolve(mediaDir, rel);
      if (!isInside(mediaDir, target)) throw new ImageRequestError(400, "Invalid image path: it leads outside the media folder.");
      const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      // Unchanged content keeps its mtime, so re-seeding does not invalidate cached renditions.
      const existing = await fs.readFile(target).catch(() => undefined);
      if (existing?.equals(bytes)) return;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await writeAtomically(target, bytes);
    },

    /** Render queue and disk cache figures of this process (tests, diagnostics). */
    stats(): { renders: RenderQueueStats; cache: DiskCacheStats } {
      return { renders: queue.stats(), cache: cache.stats() };
    },
  };
}

export type ImageService = ReturnType<typeof createImageService>;
