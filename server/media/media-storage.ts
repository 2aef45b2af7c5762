/**
 * Where uploaded originals live: a small storage interface. On disk (PGlite): files under
 * DATA_DIR/media, the folder the image routes render from. With DATABASE_URL (decision 024): the
 * file written on disk is this instance's copy, and `persist` streams it into PostgreSQL in the
 * transaction of the record that names it, where every instance reads it; `forget` deletes it in
 * the transaction that drops the record. Keys are relative paths checked to stay inside the
 * folder; disk writes are atomic (a temporary sibling renamed over the target), so a reader never
 * sees half a file.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { MediaExecutor, MediaObjects } from "./media-objects";
import { writeAtomically } from "../files/write-atomically";

export interface MediaStorage {
  /** Writes the file on this instance's disk (not yet visible to other instances). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** Removes this instance's file (after its record is gone, or when an upload did not complete). */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Writes a copy of the stored original `from` at `to` on this instance's disk (`persist` shares it); false when `from` is not stored. */
  copy(from: string, to: string): Promise<boolean>;
  /** In the transaction of the record that names them: the files become the shared originals (no-op on disk). */
  persist(tx: MediaExecutor, keys: string[]): Promise<void>;
  /** In the transaction that drops their record: the shared originals go (no-op on disk, where `remove` does it). */
  forget(tx: MediaExecutor, keys: string[]): Promise<void>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9/_.-]*$/;

/** A key the storage accepts: a relative path of plain names, never leaving the folder. */
export function isMediaKey(key: string): boolean {
  return KEY.test(key) && !key.includes("..") && key.length <= 500;
}

function locator(mediaDir: string) {
  const root = path.resolve(mediaDir);
  return (key: string) => {
    const target = path.resolve(root, key);
    if (!isMediaKey(key) || !target.startsWith(root + path.sep)) throw new Error(`invalid media key: ${key}`);
    return target;
  };
}

/** Writes `target` (its folder made first) through a temporary sibling renamed over it. */
async function atomically(target: string, content: Buffer | ((temp: string) => Promise<void>)): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  await writeAtomically(target, content);
}

export function createDiskMediaStorage(mediaDir: string): MediaStorage {
  const locate = locator(mediaDir);
  return {
    put: (key, bytes) => atomically(locate(key), bytes),
    async remove(key) {
      await fs.rm(locate(key), { force: true });
    },
    async exists(key) {
      return fs.access(locate(key)).then(
        () => true,
        () => false,
      );
    },
    async copy(from, to) {
      const source = locate(from);
      const target = locate(to);
      if (!(await fs.stat(source).then((stat) => stat.isFile(), () => false))) return false;
      await atomically(target, (temp) => fs.copyFile(source, temp));
      return true;
    },
    persist: async () => undefined,
    forget: async () => undefined,
  };
}

/** With DATABASE_URL: the disk file is the uploading instance's copy; PostgreSQL holds the original every instance reads. */
export function createDatabaseMediaStorage(mediaDir: string, objects: MediaObjects): MediaStorage {
  const disk = createDiskMediaStorage(mediaDir);
  const locate = locator(mediaDir);
  return {
    put: disk.put,
    remove: disk.remove,
    exists: async (key) => (await objects.describe(key)) !== null,
    async copy(from, to) {
      // The shared original, whichever instance stored it (this disk may not hold it).
      const target = locate(to);
      await fs.mkdir(path.dirname(target), { recursive: true });
      return objects.download(from, target);
    },
    async persist(tx, keys) {
      for (const key of keys) await objects.writeFile(tx, key, locate(key));
    },
    forget: (tx, keys) => objects.remove(tx, keys),
  };
}

/** The storage for this database: PostgreSQL's when `objects` is given (DATABASE_URL), else the disk. */
export function createMediaStorage(mediaDir: string, objects?: MediaObjects): MediaStorage {
  return objects ? createDatabaseMediaStorage(mediaDir, objects) : createDiskMediaStorage(mediaDir);
}
