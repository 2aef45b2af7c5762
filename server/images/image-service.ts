/**
 * Image renditions: validates a request for a media original, picks the output format from the
 * Accept header, and returns a resized copy rendered once by sharp and kept in a disk cache
 * (written to a temporary file and renamed, so concurrent requests never see half a file).
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

export type ImageFormat = "avif" | "webp" | "png" | "jpeg";

export class ImageRequestError extends Error {
  readonly status: 400 | 404;

  constructor(status: 400 | 404, message: string) {
    super(message);
    this.name = "ImageRequestError";
    this.status = status;
  }
}

export const MIN_IMAGE_HEIGHT = 16;
export const MAX_IMAGE_HEIGHT = 2000;
/** Width cap for very wide originals, so one request cannot ask for a giant canvas. */
const MAX_IMAGE_WIDTH = 8000;
const MAX_PATH_LENGTH = 512;
/** Part of every cache key: bump it when encoder settings change to retire old renditions. */
const RENDER_VERSION = 1;

const SOURCE_EXTENSIONS = new Set(["svg", "png", "jpg", "jpeg", "webp"]);

const CONTENT_TYPES: Record<ImageFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  png: "image/png",
  jpeg: "image/jpeg",
};

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

/** Checks a requested height: undefined (original size) or an integer 16..2000, else 400. */
export function validateImageHeight(height: unknown): number | undefined {
  if (height === undefined) return undefined;
  if (typeof height !== "number" || !Number.isInteger(height) || height < MIN_IMAGE_HEIGHT || height > MAX_IMAGE_HEIGHT) {
    throw new ImageRequestError(400, `Height must be a whole number from ${MIN_IMAGE_HEIGHT} to ${MAX_IMAGE_HEIGHT}.`);
  }
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

const notFound = () => new ImageRequestError(404, "Image not found.");

/** `child` lies inside `root` (both absolute, already resolved). */
function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** Writes a file atomically: a uniquely named sibling first, then a rename over the target. */
async function writeAtomically(target: string, content: string | Buffer): Promise<void> {
  const temp = `${target}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await fs.writeFile(temp, content);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

async function encode(input: Buffer, ext: string, height: number | undefined, format: ImageFormat): Promise<Buffer> {
  const meta = await sharp(input).metadata();
  const srcWidth = meta.autoOrient?.width ?? meta.width;
  const srcHeight = meta.autoOrient?.height ?? meta.height;
  if (!srcWidth || !srcHeight) throw new Error("The image original has no readable size");

  let outHeight = Math.min(height ?? srcHeight, MAX_IMAGE_HEIGHT);
  let outWidth = Math.max(1, Math.round((srcWidth * outHeight) / srcHeight));
  if (outWidth > MAX_IMAGE_WIDTH) {
    outWidth = MAX_IMAGE_WIDTH;
    outHeight = Math.max(1, Math.round((srcHeight * MAX_IMAGE_WIDTH) / srcWidth));
  }

  // Vector originals are rasterised at the target scale (crisp, and no oversized canvas);
  // sharp's default SVG density is 72 dpi, the size metadata reports.
  const density = ext === "svg" ? Math.min(100_000, Math.max(1, (72 * outHeight) / srcHeight)) : undefined;
  let pipeline = sharp(input, density === undefined ? {} : { density })
    .rotate()
    .resize({ width: outWidth, height: outHeight, fit: "fill" });
  switch (format) {
    case "avif":
      pipeline = pipeline.avif({ quality: 55, effort: 2 });
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

export function createImageService(o: { mediaDir: string; cacheDir: string }) {
  const mediaDir = path.resolve(o.mediaDir);
  const cacheDir = path.resolve(o.cacheDir);
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

  async function produce(target: string, read: () => Promise<Buffer>, ext: string, height: number | undefined, format: ImageFormat) {
    const output = await encode(await read(), ext, height, format);
    await fs.mkdir(cacheDir, { recursive: true });
    await writeAtomically(target, output);
  }

  return {
    /**
     * Validates `file` and `height`, picks the format from `accept`, and returns the cached
     * rendition (rendering it first when missing) with its content type and a strong ETag.
     */
    async render(
      file: string,
      height: number | undefined,
      accept: string | undefined,
    ): Promise<{ path: string; contentType: string; etag: string }> {
      const rel = validateImageFile(file);
      const outHeight = validateImageHeight(height);
      const format = chooseImageFormat(accept, rel);
      const ext = sourceExtension(rel);
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
        const key = createHash("sha256")
          .update(JSON.stringify([RENDER_VERSION, rel, stat.mtimeMs, stat.size, outHeight ?? "original", format]))
          .digest("hex");
        const target = path.join(cacheDir, `${key}.${format === "jpeg" ? "jpg" : format}`);
        const result = { path: target, contentType: CONTENT_TYPES[format], etag: `"${key.slice(0, 40)}"` };

        const cached = await fs.stat(target).then(
          (s) => s.isFile() && s.size > 0,
          () => false,
        );
        if (cached) return result;

        let job = inFlight.get(key);
        if (!job) {
          const fileHandle = handle;
          job = produce(target, () => fileHandle.readFile(), ext, outHeight, format).finally(() => inFlight.delete(key));
          inFlight.set(key, job);
        }
        await job;
        return result;
      } finally {
        await handle.close();
      }
    },

    /** Writes an original into mediaDir (creating folders); used by the seeder. */
    async writeOriginal(file: string, content: string | Buffer): Promise<void> {
      const rel = validateImageFile(file);
      const target = path.resolve(mediaDir, rel);
      if (!isInside(mediaDir, target)) throw new ImageRequestError(400, "Invalid image path: it leads outside the media folder.");
      const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
      // Unchanged content keeps its mtime, so re-seeding does not invalidate cached renditions.
      const existing = await fs.readFile(target).catch(() => undefined);
      if (existing?.equals(bytes)) return;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await writeAtomically(target, bytes);
    },
  };
}

export type ImageService = ReturnType<typeof createImageService>;
