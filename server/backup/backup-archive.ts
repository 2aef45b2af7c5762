/**
 * Writing and checking the backup file (format in backup-format.ts, decision 046).
 *
 * `writeArchive` streams a snapshot into `<dir>/.<name>.partial` and renames it to its name only
 * once the last byte is on disk (fsync'd), so a file with the final name is always whole; on any
 * failure (a full disk, a lost connection) the partial file is removed and the error thrown.
 *
 * `checkArchive` reads a file through once without writing anything: every entry hashed, the
 * manifest read and compared. A file cut short, a changed byte, a missing or extra entry or a
 * manifest this code does not understand is refused with a message saying which, before a
 * restore touches its target.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { isMediaKey } from "../media/media-storage";
import { DATABASE_ENTRY, FORMAT_NAME, FORMAT_VERSION, MANIFEST_ENTRY, MEDIA_PREFIX, manifestSchema, siteVersion, type Manifest } from "./backup-format";
import type { DatabaseSnapshot } from "./database-snapshot";

/** A pipeline step (an async generator) that hashes and counts what passes through it. */
export function hashing(): { tap(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer>; result(): { sha256: string; bytes: number } } {
  const hash = createHash("sha256");
  let bytes = 0;
  let digest: string | undefined;
  return {
    async *tap(source) {
      for await (const chunk of source) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    },
    result: () => ({ sha256: (digest ??= hash.digest("hex")), bytes }),
  };
}

/** Files up to this size are read whole: one read instead of a stream's several turns of the event loop. */
const READ_WHOLE_BYTES = 1024 * 1024;

/** Adds one entry of `size` bytes from `source`; the bytes' hash, refusing a source that gives another size. */
async function addEntry(pack: tar.Pack, name: string, size: number, source: Readable | Buffer): Promise<{ sha256: string; bytes: number }> {
  const header = { name, size, mode: 0o600, mtime: new Date() };
  let result: { sha256: string; bytes: number };
  if (Buffer.isBuffer(source)) {
    result = { sha256: createHash("sha256").update(source).digest("hex"), bytes: source.length };
    if (result.bytes !== size) throw new Error(`${name} changed size while being copied (${size} -> ${result.bytes} bytes)`);
    await new Promise<void>((resolve, reject) => pack.entry(header, source, (error) => (error ? reject(error) : resolve())));
    return result;
  }
  const digest = hashing();
  await pipeline(source, digest.tap, pack.entry(header));
  result = digest.result();
  if (result.bytes !== size) throw new Error(`${name} changed size while being copied (${size} -> ${result.bytes} bytes)`);
  return result;
}

export interface WrittenArchive {
  file: string;
  bytes: number;
  manifest: Manifest;
}

/** Writes `snapshot` as the backup file `file` (see the header); removes the partial file on failure. */
export async function writeArchive(snapshot: DatabaseSnapshot, file: string, now: Date): Promise<WrittenArchive> {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial`);
  const pack = tar.pack();
  // A deep buffer: the archive leaves in few large writes, however busy the process is.
  const out = createWriteStream(partial, { flags: "wx", mode: 0o600, highWaterMark: 4 * 1024 * 1024 });
  const written = pipeline(pack, out);
  // A write error ends `written` first; entries waiting on the pack would otherwise wait forever.
  // The entry then fails with the pack's own "destroyed" error: the write error is the reason to report.
  let writeError: unknown = null;
  written.catch((error: unknown) => {
    writeError = error;
    pack.destroy();
  });
  try {
    const dumpSize = (await fs.stat(snapshot.dumpFile)).size;
    const database = await addEntry(pack, DATABASE_ENTRY, dumpSize, createReadStream(snapshot.dumpFile));
    const media: Manifest["media"] = [];
    for (const item of snapshot.media) {
      const source = item.bytes <= READ_WHOLE_BYTES && snapshot.readMedia ? await snapshot.readMedia(item.key) : snapshot.openMedia(item.key);
      const result = await addEntry(pack, `${MEDIA_PREFIX}${item.key}`, item.bytes, source);
      media.push({ key: item.key, ...result });
    }
    const manifest: Manifest = {
      format: FORMAT_NAME,
      formatVersion: FORMAT_VERSION,
      createdAt: now.toISOString(),
      site: siteVersion(),
      source: { database: snapshot.source, dumpedWith: snapshot.dumpedWith },
      schema: { lastMigration: snapshot.lastMigration, migrations: snapshot.migrations },
      tables: snapshot.tables,
      database: { entry: DATABASE_ENTRY, ...database },
      media,
    };
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await addEntry(pack, MANIFEST_ENTRY, text.length, Readable.from([text]));
    pack.finalize();
    await written;
    const handle = await fs.open(partial, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(partial, file);
    await syncDirectory(path.dirname(file));
    return { file, bytes: (await fs.stat(file)).size, manifest };
  } catch (error) {
    pack.destroy();
    out.destroy();
    await written.catch(() => undefined);
    await fs.rm(partial, { force: true }).catch(() => undefined);
    throw writeError ?? error;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r").catch(() => null);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/** A backup file that cannot be restored; `message` says why in words. */
export class BadBackupError extends Error {
  override name = "BadBackupError";
}

const MANIFEST_LIMIT = 64 * 1024 * 1024;

/**
 * Reads the archive's entries in order, each handed to `onEntry` with its stream (which it must
 * consume). Turns a cut or foreign file into BadBackupError.
 */
export async function readArchive(file: string, onEntry: (name: string, size: number, stream: Readable) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  const source = createReadStream(file);
  const feeding = pipeline(source, extract).catch((error: unknown) => {
    extract.destroy(error as Error);
  });
  try {
    for await (const entry of extract) {
      const { name, size, type } = entry.header;
      if (type !== "file") {
        entry.resume();
        continue;
      }
      await onEntry(name, size ?? 0, entry as unknown as Readable);
    }
  } catch (error) {
    if (error instanceof BadBackupError) throw error;
    const message = (error as Error).message ?? String(error);
    if (/unexpected end|premature|truncat/i.test(message)) throw new BadBackupError(`${file} is incomplete: it ends in the middle of an entry (the file was cut short). It cannot be restored.`);
    if (/invalid tar header|checksum|not a tar/i.test(message)) throw new BadBackupError(`${file} is not a backup file of this site, or it is damaged (${message}).`);
    throw error;
  } finally {
    source.destroy();
    await feeding;
  }
}

async function consume(stream: Readable, into?: Buffer[]): Promise<{ sha256: string; bytes: number }> {
  const digest = hashing();
  const sink = new PassThrough();
  sink.on("data", (chunk: Buffer) => {
    if (into) into.push(chunk);
  });
  await pipeline(stream, digest.tap, sink);
  return digest.result();
}

/** Checks `file` through (see the header) and returns its manifest; throws BadBackupError. */
export async function checkArchive(file: string): Promise<Manifest> {
  await fs.access(file).catch(() => {
    throw new BadBackupError(`${file} does not exist or cannot be read.`);
  });
  const seen = new Map<string, { sha256: string; bytes: number }>();
  let manifestText: string | null = null;
  let afterManifest = false;
  await readArchive(file, async (name, size, stream) => {
    if (manifestText !== null) afterManifest = true;
    if (name === MANIFEST_ENTRY) {
      if (size > MANIFEST_LIMIT) throw new BadBackupError(`${file}: its manifest is too large to be one of ours.`);
      const pieces: Buffer[] = [];
      await consume(stream, pieces);
      manifestText = Buffer.concat(pieces).toString("utf8");
      return;
    }
    if (name !== DATABASE_ENTRY && !(name.startsWith(MEDIA_PREFIX) && isMediaKey(name.slice(MEDIA_PREFIX.length)))) {
      stream.resume();
      throw new BadBackupError(`${file} holds an entry a backup of this site never holds: ${name.slice(0, 200)}`);
    }
    if (seen.has(name)) throw new BadBackupError(`${file} holds ${name} twice.`);
    seen.set(name, await consume(stream));
  });
  if (manifestText === null) throw new BadBackupError(`${file} has no manifest: it is incomplete (cut short) or not a backup of this site.`);
  if (afterManifest) throw new BadBackupError(`${file} has entries after its manifest: it is not a backup this site wrote.`);
  let manifest: Manifest;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(manifestText));
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    manifest = parsed.data;
  } catch (error) {
    throw new BadBackupError(`${file}: its manifest cannot be read (${(error as Error).message}).`);
  }
  if (manifest.formatVersion > FORMAT_VERSION) throw new BadBackupError(`${file} was written in backup format ${manifest.formatVersion}, newer than this version of the site reads (${FORMAT_VERSION}). Restore it with version ${manifest.site.version} or later.`);
  const mismatch = (name: string, expected: { sha256: string; bytes: number }) => {
    const got = seen.get(name);
    if (!got) return `${name} is missing`;
    if (got.bytes !== expected.bytes || got.sha256 !== expected.sha256) return `${name} does not match its SHA-256 in the manifest (the file is damaged)`;
    return null;
  };
  const problems = [mismatch(DATABASE_ENTRY, manifest.database), ...manifest.media.map((m) => mismatch(`${MEDIA_PREFIX}${m.key}`, m))].filter((p): p is string => p !== null);
  const listed = new Set([DATABASE_ENTRY, ...manifest.media.map((m) => `${MEDIA_PREFIX}${m.key}`)]);
  for (const name of seen.keys()) if (!listed.has(name)) problems.push(`${name} is not in the manifest`);
  if (problems.length) throw new BadBackupError(`${file} cannot be restored: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}.`);
  return manifest;
}
