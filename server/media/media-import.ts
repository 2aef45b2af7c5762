/**
 * The one-time move of disk media into PostgreSQL (decision 024): every image file under a
 * media folder is copied into `media_objects` under its path, unless the database already holds
 * the same bytes there, so a second run copies nothing. The disk files are left in place.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Database } from "../db/client";
import { validateImageFile } from "../images/image-service";
import { fileSha256, type MediaObjects } from "./media-objects";
import { transactionRetrying } from "../db/retrying";

export interface ImportReport {
  /** Keys copied into the database (new, or with different bytes than the database had). */
  moved: { key: string; bytes: number }[];
  /** Keys whose bytes the database already held. */
  unchanged: number;
  /** Files that are not media originals (other types, odd names), left alone. */
  skipped: string[];
}

/** Every file under `dir` (relative paths, in name order); nothing when the folder does not exist. */
export async function* filesUnder(dir: string, prefix = ""): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* filesUnder(path.join(dir, entry.name), rel);
    else if (entry.isFile()) yield rel;
  }
}

export async function importDiskMedia(o: { db: Database; objects: MediaObjects; mediaDir: string; onMoved?: (key: string, bytes: number) => void }): Promise<ImportReport> {
  const report: ImportReport = { moved: [], unchanged: 0, skipped: [] };
  for await (const key of filesUnder(path.resolve(o.mediaDir))) {
    try {
      validateImageFile(key);
    } catch {
      report.skipped.push(key);
      continue;
    }
    const file = path.join(o.mediaDir, key);
    const stored = await o.objects.describe(key);
    if (stored && stored.sha256 === (await fileSha256(file))) {
      report.unchanged++;
      continue;
    }
    const written = await transactionRetrying(o.db, (tx) => o.objects.writeFile(tx, key, file));
    report.moved.push({ key, bytes: written.size });
    o.onMoved?.(key, written.size);
  }
  return report;
}
