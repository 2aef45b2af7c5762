/**
 * What a backup file is (decision 046): one tar archive, readable with `tar -tf`, holding
 *
 *   museum-backup/database.sql.gz   the rows, as a data-only plain SQL script in pg_dump's format
 *                                   (COPY ... FROM stdin blocks, in foreign-key order): what
 *                                   `pg_dump --data-only` writes on PostgreSQL, and what the site
 *                                   writes the same way on PGlite; psql can replay it onto the
 *                                   schema the migrations make
 *   museum-backup/media/<key>       every uploaded or seeded original, byte for byte
 *   museum-backup/manifest.json     last: the site's version and last migration, the row count of
 *                                   every table, and the SHA-256 and size of every other entry
 *
 * The manifest comes last because it holds the hashes of what precedes it: a file cut short has
 * none, and a changed byte anywhere shows as a hash that does not match.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

export const ARCHIVE_ROOT = "museum-backup";
export const DATABASE_ENTRY = `${ARCHIVE_ROOT}/database.sql.gz`;
export const MANIFEST_ENTRY = `${ARCHIVE_ROOT}/manifest.json`;
export const MEDIA_PREFIX = `${ARCHIVE_ROOT}/media/`;
export const FORMAT_NAME = "pittsburgh-sports-museum-backup";
export const FORMAT_VERSION = 1;

/**
 * Tables whose rows a backup leaves out: rate-limit counters (minutes long), the media tables
 * (their originals travel as files, so one backup restores into either database), and the
 * backup log (it names files on the machine that wrote them).
 */
export const TABLES_LEFT_OUT = ["rate_limits", "media_objects", "media_chunks", "backup_runs"] as const;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(FORMAT_NAME),
  formatVersion: z.number().int(),
  createdAt: z.string(),
  site: z.object({ name: z.string(), version: z.string() }),
  source: z.object({ database: z.enum(["pglite", "postgres"]), dumpedWith: z.string() }),
  schema: z.object({ lastMigration: z.string(), migrations: z.number().int() }),
  tables: z.record(z.string(), z.number().int().min(0)),
  database: z.object({ entry: z.string(), bytes: z.number().int().min(0), sha256 }),
  media: z.array(z.object({ key: z.string(), bytes: z.number().int().min(0), sha256 })),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** The site's package name and version, read once from package.json beside the build. */
export function siteVersion(): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

/** `museum-backup-2026-11-28T09-40-00Z-manual.tar`: sorts by time, safe on every file system. */
export function backupFileName(at: Date, reason: string): string {
  return `museum-backup-${at.toISOString().replace(/\.\d{3}Z$/, "Z").replaceAll(":", "-")}-${reason}.tar`;
}

/** The files this site wrote into a backup folder (what pruning may remove). */
export const BACKUP_FILE = /^museum-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[a-z-]+\.tar$/;

/** Compares dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split(/[.+-]/).map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
