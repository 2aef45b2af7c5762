/**
 * Applies the SQL migrations in drizzle/ at start-up. Safe to run twice (Drizzle records what
 * ran) and from several processes at once (an advisory lock lets one migrate at a time).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { queryRows, type Database, type DatabaseHandle } from "./client";

const MIGRATION_LOCK_ID = 7_172_001;

export function migrationsFolder(): string {
  return path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");
}

export async function runMigrations(handle: DatabaseHandle, folder = migrationsFolder()) {
  await handle.withExclusiveLock(MIGRATION_LOCK_ID, async (db) => {
    if (handle.kind === "pglite") {
      await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: folder });
    } else {
      await migratePg(db as unknown as NodePgDatabase, { migrationsFolder: folder });
    }
  });
}

/** One migration of the journal: its file's tag and the time drizzle records for it once applied. */
export interface MigrationEntry {
  tag: string;
  when: number;
}

/** The migrations in `folder`, oldest first (drizzle's journal). */
export function migrationJournal(folder = migrationsFolder()): MigrationEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: MigrationEntry[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

/** The time of the newest migration applied to this database (the journal's `when`), or null when none ever was. */
export async function lastAppliedMigration(db: Database): Promise<number | null> {
  const [table] = await queryRows<{ t: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!table?.t) return null;
  const [row] = await queryRows<{ at: string | number | null }>(db, sql`select max(created_at) as at from drizzle.__drizzle_migrations`);
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

/** The journal's migrations this database has not had yet (all of them on a new database). */
export async function pendingMigrations(db: Database, folder = migrationsFolder()): Promise<MigrationEntry[]> {
  const last = await lastAppliedMigration(db);
  return migrationJournal(folder).filter((m) => last === null || m.when > last);
}

/**
 * A copy of `folder` whose journal stops at `tag` (written under `into`): the schema of an older
 * backup, onto which its rows load before the newer migrations run over them.
 */
export function migrationsUpTo(folder: string, tag: string, into: string): string {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: MigrationEntry[] };
  const at = journal.entries.findIndex((m) => m.tag === tag);
  if (at < 0) throw new Error(`migration ${tag} is not in ${folder}`);
  mkdirSync(path.join(into, "meta"), { recursive: true });
  for (const m of journal.entries.slice(0, at + 1)) copyFileSync(path.join(folder, `${m.tag}.sql`), path.join(into, `${m.tag}.sql`));
  writeFileSync(path.join(into, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, at + 1) }));
  return into;
}
