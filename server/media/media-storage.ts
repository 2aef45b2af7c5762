/**
 * Where uploaded originals live: a small storage interface (put, remove, exists) so a shared
 * object store can replace the disk later. Today: files under DATA_DIR/media, the folder the
 * image routes render from. Keys are relative paths checked to stay inside the folder; writes
 * are atomic (a temporary sibling renamed over the target), so a reader never sees half a file.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export interface MediaStorage {
  put(key: string, bytes: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9/_.-]*$/;

export function createDiskMediaStorage(mediaDir: string): MediaStorage {
  const root = path.resolve(mediaDir);
  const locate = (key: string) => {
    const target = path.resolve(root, key);
    if (!KEY.test(key) || key.includes("..") || !target.startsWith(root + path.sep)) throw new Error(`invalid media key: ${key}`);
    return target;
  };
  return {
    async put(key, bytes) {
      const target = locate(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.${randomUUID()}.tmp`;
      try {
        await fs.writeFile(temp, bytes);
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
    },
    async remove(key) {
      await fs.rm(locate(key), { force: true });
    },
    async exists(key) {
      return fs.access(locate(key)).then(
        () => true,
        () => false,
      );
    },
  };
}
