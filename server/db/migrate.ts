/**
 * Applies the SQL migrations in drizzle/ at start-up. Safe to run twice (Drizzle records what
 * ran) and from several processes at once (an advisory lock lets one migrate at a time).
 */
import path from "node:path";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { DatabaseHandle } from "./client";

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
