/**
 * Media originals in PostgreSQL (decision 024): each original is a `media_objects` row (key,
 * size, SHA-256) and its bytes in `media_chunks` rows of CHUNK_BYTES, written and read one chunk
 * at a time, so neither side ever holds a whole file in memory or sends it in one statement.
 * Writes take the caller's transaction, so an original commits (or rolls back) with the record
 * that names it; a deleted object's chunks go with it (ON DELETE CASCADE).
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { mediaChunks, mediaObjects } from "../db/schema";
import { transactionRetrying } from "../db/retrying";

export const CHUNK_BYTES = 256 * 1024;

/** What the statements of a write or delete run on: the database or an open transaction. */
export type MediaExecutor = Pick<Database, "select" | "insert" | "update" | "delete">;

export interface StoredObject {
  size: number;
  sha256: string;
  chunks: number;
}

/** Cuts any sequence of buffers into pieces of exactly `size` bytes (the last one shorter). */
async function* rechunk(source: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const piece of source) {
    let rest = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    while (length + rest.length >= size) {
      const take = size - length;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      pending = [];
      length = 0;
      rest = rest.subarray(take);
    }
    if (rest.length) {
      pending.push(rest);
      length += rest.length;
    }
  }
  if (length) yield Buffer.concat(pending);
}

export function createMediaObjects(db: Database) {
  async function describe(key: string, on: Pick<Database, "select"> = db): Promise<StoredObject | null> {
    const [row] = await on.select({ size: mediaObjects.size, sha256: mediaObjects.sha256, chunks: mediaObjects.chunks }).from(mediaObjects).where(eq(mediaObjects.key, key)).limit(1);
    return row ?? null;
  }

  /**
   * Replaces the object at `key` with the bytes of `source`, in the transaction `tx`. The upsert
   * locks the key first, so two writers of one key (two instances seeding at once) take turns.
   */
  async function write(tx: MediaExecutor, key: string, source: AsyncIterable<Buffer | Uint8Array> | Iterable<Buffer>): Promise<StoredObject> {
    const empty = { size: 0, sha256: "", chunks: 0 };
    await tx.insert(mediaObjects).values({ key, ...empty }).onConflictDoUpdate({ target: mediaObjects.key, set: { ...empty, createdAt: sql`now()` } });
    await tx.delete(mediaChunks).where(eq(mediaChunks.key, key));
    const hash = createHash("sha256");
    let size = 0;
    let seq = 0;
    for await (const data of rechunk(source, CHUNK_BYTES)) {
      hash.update(data);
      size += data.length;
      await tx.insert(mediaChunks).values({ key, seq: seq++, data });
    }
    const stored = { size, sha256: hash.digest("hex"), chunks: seq };
    await tx.update(mediaObjects).set(stored).where(eq(mediaObjects.key, key));
    return stored;
  }

  /** The object's bytes, chunk after chunk (one query each); throws when it disappears meanwhile. */
  async function* read(key: string, object: StoredObject): AsyncGenerator<Buffer> {
    for (let seq = 0; seq < object.chunks; seq++) {
      const [row] = await db.select({ data: mediaChunks.data }).from(mediaChunks).where(and(eq(mediaChunks.key, key), eq(mediaChunks.seq, seq))).limit(1);
      if (!row) throw new Error(`media object ${key} lost its chunk ${seq} while being read`);
      yield Buffer.from(row.data);
    }
  }

  return {
    describe,
    write,
    read,

    /** Streams the file at `file` into the object `key` (in `tx`). */
    writeFile(tx: MediaExecutor, key: string, file: string): Promise<StoredObject> {
      return write(tx, key, createReadStream(file, { highWaterMark: CHUNK_BYTES }));
    },

    /** Writes `bytes` at `key` in a transaction of its own unless the same bytes are there already; true when written. */
    async writeIfChanged(key: string, bytes: Buffer): Promise<boolean> {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      if ((await describe(key))?.sha256 === sha256) return false;
      await transactionRetrying(db, (tx) => write(tx, key, [bytes]));
      return true;
    },

    /** Deletes the objects (and their chunks) in `tx`. */
    async remove(tx: MediaExecutor, keys: string[]): Promise<void> {
      for (const key of keys) await tx.delete(mediaObjects).where(eq(mediaObjects.key, key));
    },

    /**
     * Streams the object into the file `target` (written beside it and renamed, so a reader never
     * sees half a file); false when the object does not exist.
     */
    async download(key: string, target: string): Promise<boolean> {
      const object = await describe(key);
      if (!object) return false;
      const temp = `${target}.${randomUUID()}.tmp`;
      const hash = createHash("sha256");
      try {
        await pipeline(
          Readable.from(read(key, object)),
          async function* (chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              hash.update(chunk);
              yield chunk;
            }
          },
          createWriteStream(temp),
        );
        // Replaced while we read (a re-seed, a re-import): the pieces would not belong together.
        if (hash.digest("hex") !== object.sha256) throw new Error(`media object ${key} changed while being read`);
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
      return true;
    },
  };
}

export type MediaObjects = ReturnType<typeof createMediaObjects>;

/** Hex SHA-256 of a file, read as a stream. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const piece of createReadStream(file, { highWaterMark: CHUNK_BYTES })) hash.update(piece as Buffer);
  return hash.digest("hex");
}
