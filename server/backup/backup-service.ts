/**
 * Backups while the site serves (decision 046): `take` writes one backup file into
 * BACKUP_DIR and records how it went in backup_runs; the schedule takes one every BACKUP_HOURS
 * and removes scheduled files older than BACKUP_KEEP days (never the newest good one); `latest`
 * is what the console's Overview and /metrics show. A backup that fails says why, leaves no
 * partial file, and the site goes on serving.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { desc, eq, sql } from "drizzle-orm";
import type { Config } from "../config";
import { queryRows, type Database, type DatabaseHandle } from "../db/client";
import { backupRuns, type BackupReason } from "../db/schema";
import { createJobLoop } from "../jobs/scheduler";
import type { Logger } from "../logger";
import { writeArchive, type WrittenArchive } from "./backup-archive";
import { BACKUP_FILE, backupFileName } from "./backup-format";
import { snapshotPglite, snapshotPostgres } from "./database-snapshot";

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** One instance at a time takes a scheduled backup on PostgreSQL. */
const BACKUP_LOCK_ID = 7_172_046;

export interface BackupRun {
  reason: BackupReason;
  startedAt: Date;
  finishedAt: Date | null;
  status: "running" | "ok" | "failed";
  file: string | null;
  bytes: number | null;
  error: string | null;
}

/** The newest backup run, and the newest good one (null when none). */
export async function latestBackups(db: Database): Promise<{ last: BackupRun | null; lastGood: BackupRun | null }> {
  const columns = { reason: backupRuns.reason, startedAt: backupRuns.startedAt, finishedAt: backupRuns.finishedAt, status: backupRuns.status, file: backupRuns.file, bytes: backupRuns.bytes, error: backupRuns.error };
  const [[last], [lastGood]] = await Promise.all([
    db.select(columns).from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(1),
    db.select(columns).from(backupRuns).where(eq(backupRuns.status, "ok")).orderBy(desc(backupRuns.finishedAt)).limit(1),
  ]);
  return { last: last ?? null, lastGood: lastGood ?? null };
}

/** An error in words an operator can act on (a full disk, a folder the site may not write). */
export function explainBackupError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const where = e.path ? ` (${e.path})` : "";
  if (e.code === "ENOSPC") return `the disk is full${where}: free some space or set BACKUP_DIR to a disk with room`;
  if (e.code === "EDQUOT") return `the disk quota is used up${where}`;
  if (e.code === "EACCES" || e.code === "EPERM") return `permission denied${where}: the site's user must be able to write BACKUP_DIR`;
  if (e.code === "EROFS") return `the file system is read-only${where}`;
  return e.message ?? String(error);
}

export interface BackupDeps {
  database: DatabaseHandle;
  config: Pick<Config, "DATA_DIR" | "DATABASE_URL" | "BACKUP_DIR" | "BACKUP_HOURS" | "BACKUP_KEEP">;
  migrationsFolder: string;
  logger: Logger;
  now?: () => Date;
}

export function createBackups({ database, config, migrationsFolder, logger, now = () => new Date() }: BackupDeps) {
  const db = database.db;
  const backupDir = path.resolve(config.BACKUP_DIR);
  let running: Promise<unknown> = Promise.resolve();
  /** True while a snapshot holds (or waits for) the database: PGlite answers nothing else meanwhile. */
  let snapshotting: number | null = null;

  /** backup_runs may not exist yet (a backup before the upgrade that makes it): the file is what counts. */
  async function record<T>(write: () => Promise<T>): Promise<T | null> {
    try {
      const [table] = await queryRows<{ t: string | null }>(db, sql`select to_regclass('public.backup_runs')::text as t`);
      return table?.t ? await write() : null;
    } catch (error) {
      logger.warn({ err: error }, "could not record the backup run");
      return null;
    }
  }

  async function takeNow(reason: BackupReason): Promise<WrittenArchive> {
    const started = now();
    const runId = await record(async () => (await db.insert(backupRuns).values({ reason, startedAt: started, status: "running" }).returning({ id: backupRuns.id }))[0].id);
    const file = path.join(backupDir, backupFileName(started, reason));
    // PGlite's originals are hard-linked beside them, so the staging folder is inside DATA_DIR.
    const stagingRoot = database.kind === "pglite" ? path.resolve(config.DATA_DIR) : backupDir;
    const stagingDir = path.join(stagingRoot, `.backup-staging-${randomBytes(4).toString("hex")}`);
    try {
      await fs.mkdir(backupDir, { recursive: true, mode: 0o700 });
      await fs.mkdir(stagingDir, { recursive: true, mode: 0o700 });
      snapshotting = Date.now();
      const snapshot = await (database.kind === "pglite" && database.pglite
        ? snapshotPglite(database.pglite, { mediaDir: path.join(config.DATA_DIR, "media"), stagingDir, migrationsFolder })
        : snapshotPostgres(config.DATABASE_URL as string, { stagingDir, migrationsFolder })
      ).finally(() => (snapshotting = null));
      let written: WrittenArchive;
      try {
        written = await writeArchive(snapshot, file, started);
      } finally {
        await snapshot.close();
      }
      const rows = Object.values(written.manifest.tables).reduce((a, b) => a + b, 0);
      logger.info({ file, bytes: written.bytes, rows, media: written.manifest.media.length, reason, ms: now().getTime() - started.getTime() }, "backup written");
      if (runId) await record(() => db.update(backupRuns).set({ status: "ok", finishedAt: now(), file, bytes: written.bytes }).where(eq(backupRuns.id, runId)));
      return written;
    } catch (error) {
      const message = explainBackupError(error);
      logger.error({ err: error, reason, file }, `backup failed: ${message}`);
      if (runId) await record(() => db.update(backupRuns).set({ status: "failed", finishedAt: now(), error: message.slice(0, 1000) }).where(eq(backupRuns.id, runId)));
      throw Object.assign(new Error(`The backup failed: ${message}`), { cause: error });
    } finally {
      await fs.rm(stagingDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Takes a backup now (one at a time in this process); throws with the reason in words when it fails. */
  function take(reason: BackupReason): Promise<WrittenArchive> {
    const run = running.then(() => takeNow(reason));
    running = run.catch(() => undefined);
    return run;
  }

  /** Removes scheduled backups older than BACKUP_KEEP days, keeping the newest good file whatever its age. */
  async function prune(): Promise<string[]> {
    const names = (await fs.readdir(backupDir).catch(() => [] as string[])).filter((n) => BACKUP_FILE.test(n) && n.endsWith("-scheduled.tar")).sort();
    const newest = names.at(-1);
    const removed: string[] = [];
    const cutoff = now().getTime() - config.BACKUP_KEEP * DAY_MS;
    for (const name of names) {
      if (name === newest) continue;
      const file = path.join(backupDir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) {
        await fs.rm(file, { force: true });
        removed.push(file);
      }
    }
    if (removed.length) logger.info({ removed: removed.length, keepDays: config.BACKUP_KEEP }, "old scheduled backups removed");
    return removed;
  }

  /** Milliseconds until the next scheduled backup is due (0 = now). */
  async function dueIn(): Promise<number> {
    const { last, lastGood } = await latestBackups(db);
    const every = config.BACKUP_HOURS * HOUR_MS;
    // A failed run is tried again after an hour rather than a whole period.
    const goodDue = lastGood?.finishedAt ? lastGood.finishedAt.getTime() + every : 0;
    const retryDue = last?.status === "failed" && last.finishedAt ? last.finishedAt.getTime() + Math.min(HOUR_MS, every) : 0;
    return Math.max(0, Math.max(goodDue, retryDue) - now().getTime());
  }

  const schedule = createJobLoop({
    async run() {
      const due = await dueIn();
      if (due > 0) return due;
      await database.withExclusiveLock(BACKUP_LOCK_ID, async () => {
        // Another instance may have taken it while this one waited for the lock.
        if ((await dueIn()) > 0) return;
        await take("scheduled");
        await prune();
      });
      return dueIn();
    },
    // At most an hour between looks: a clock change or another instance's backup is noticed.
    after: (ms) => Math.min(Math.max(ms, 1_000), HOUR_MS),
    afterError: () => HOUR_MS,
  });

  return {
    take,
    prune,
    dueIn,
    latest: () => latestBackups(db),
    /** A backup's snapshot holds the embedded database right now, for 30 s at most (readiness says ready rather than unreachable). */
    holdsDatabase: () => database.kind === "pglite" && snapshotting !== null && Date.now() - snapshotting < 30_000,
    /** Starts the schedule (nothing when BACKUP_HOURS is 0); the first look ten minutes after start, so a start and its first visitors go first. */
    start(firstLookMs = 10 * 60_000) {
      if (config.BACKUP_HOURS > 0) schedule.start(firstLookMs);
    },
    stop: () => schedule.stop(),
    directory: backupDir,
  };
}
