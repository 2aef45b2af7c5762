/**
 * A response body compressed ahead of time, sent to many askers: brotli, gzip or plain as each
 * one accepts, with an ETag that answers a revalidation with 304. Used by the anonymous page
 * cache and by the JSON API for collection reads that are themselves cached.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import type { Request, Response } from "express";
import { etagMatches } from "./etag";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Below this size compression saves less than it costs. */
const MIN_COMPRESS_BYTES = 1024;

export interface Precompressed {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * `shared`: the body will be sent many times, so it is worth compressing hard in both encodings;
 * otherwise it is sent once and only gzipped, quickly. Runs on libuv's thread pool.
 */
export async function precompress(body: Buffer, { shared }: { shared: boolean }): Promise<Precompressed> {
  const etag = `"${createHash("sha1").update(body).digest("base64url")}"`;
  if (body.length < MIN_COMPRESS_BYTES) return { body, etag };
  if (!shared) return { body, etag, gzip: await gzipAsync(body) };
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    // Quality 11, not 9: on the home page 15.7 KB against 17.4 KB and no slower (88 ms against
    // 102 ms on this machine's core, once per cache entry): a page that fits the first round trips of a
    // new connection paints sooner on a slow network (decision 016, addendum 3).
    brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  return { body, etag, gzip: gz, br };
}

export function precompressedSize(p: Precompressed): number {
  return p.body.length + (p.gzip?.length ?? 0) + (p.br?.length ?? 0);
}

/** The q-value an Accept-Encoding header gives `coding` (0 when refused or not named). */
function qualityOf(header: string, coding: string): number {
  let star = 0;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";");
    const n = name.trim().toLowerCase();
    if (n !== coding && n !== "*") continue;
    const q = params.map((x) => x.trim()).find((x) => x.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (n === coding) return value;
    star = value;
  }
  return star;
}

const encodingChoices = new Map<string, "br" | "gzip" | "identity">();
/** The encoding to send a compressed-ahead body in: brotli or gzip as the asker prefers (brotli on a tie), else plain. */
export function preferredEncoding(header: string | undefined, content: Precompressed): "br" | "gzip" | "identity" {
  if (!header) return "identity";
  const key = `${content.br ? 1 : 0}${content.gzip ? 1 : 0}${header}`;
  let choice = encodingChoices.get(key);
  if (choice === undefined) {
    const br = content.br ? qualityOf(header, "br") : 0;
    const gzip = content.gzip ? qualityOf(header, "gzip") : 0;
    choice = br > 0 && br >= gzip ? "br" : gzip > 0 ? "gzip" : "identity";
    if (encodingChoices.size >= 64) encodingChoices.clear();
    encodingChoices.set(key, choice);
  }
  return choice;
}

/**
 * Sends `p` as the body of the response whose status and headers are already set. With
 * `etag`, a request whose If-None-Match matches gets 304 and no body.
 */
export function sendPrecompressed(req: Request, res: Response, p: Precompressed, { etag }: { etag: boolean }): void {
  res.vary("Accept-Encoding");
  if (etag) {
    res.setHeader("ETag", p.etag);
    if (etagMatches(req.get("if-none-match"), p.etag)) {
      res.status(304).end();
      return;
    }
  }
  // Brotli on a tie, as the stored-page path does: Chrome names gzip first ("gzip, deflate, br,
  // zstd"), and Express's negotiation would follow that order and send the larger gzip copy.
  const encoding = preferredEncoding(req.get("accept-encoding"), p);
  const compressed = encoding === "identity" ? undefined : p[encoding];
  const body = compressed ?? p.body;
  // A body already encoded is left alone by the compression middleware.
  if (compressed) res.setHeader("Content-Encoding", encoding as string);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") res.end();
  else res.end(body);
}
