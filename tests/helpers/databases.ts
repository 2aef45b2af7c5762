/**
 * Databases for integration tests: an in-memory PGlite, and a fresh PostgreSQL database created
 * for the suite (dropped afterwards). PostgreSQL missing fails in CI, skips with a reason elsewhere.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../../server/db/client";
import { migrationsFolder, runMigrations } from "../../server/db/migrate";

/** Server on which suites create their own databases: DATABASE_URL's when set, else the local one. */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export type DriverKind = "pglite" | "postgres";

let postgresReachable: Promise<boolean> | undefined;
export function isPostgresReachable(): Promise<boolean> {
  postgresReachable ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query("select 1");
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return postgresReachable;
}

/**
 * Which drivers this run covers: both by default; PostgreSQL only when DATABASE_URL is set (the
 * CI pass on PostgreSQL). In CI an unreachable PostgreSQL is an error, not a skip.
 */
export async function availableDrivers(): Promise<DriverKind[]> {
  if (await isPostgresReachable()) return process.env.DATABASE_URL ? ["postgres"] : ["pglite", "postgres"];
  if (process.env.CI) throw new Error(`PostgreSQL is required in CI but ${POSTGRES_ADMIN_URL} is unreachable`);
  console.warn(`[tests] skipping PostgreSQL runs: ${POSTGRES_ADMIN_URL} is unreachable`);
  return ["pglite"];
}

export interface TestDatabase {
  handle: DatabaseHandle;
  url?: string;
  drop(): Promise<void>;
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates an empty PostgreSQL database and returns its URL. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `museum_t_${randomBytes(6).toString("hex")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // Wait for the suite's connections to finish closing; force only as a last resort, since
    // forcing kills backends whose clients are still saying goodbye.
    async drop() {
      for (let attempt = 0; attempt < 50; attempt++) {
        try {
          return await adminQuery(`drop database if exists ${name}`);
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** A hash of every migration file: the migrated image below is kept per set of migrations. */
function migrationsKey(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, name.name);
      if (name.isDirectory()) walk(file);
      else hash.update(name.name).update(readFileSync(file));
    }
  };
  walk(migrationsFolder());
  return hash.digest("hex").slice(0, 16);
}

let migratedImage: Promise<Blob> | undefined;
/**
 * A migrated, empty PGlite data directory image, made once per set of migrations and shared by
 * the test processes through a file in the temporary directory: loading it takes about 0.6 s
 * where initdb and every migration take about 2.5 s, for each of the suite's PGlite databases.
 */
function pgliteImage(): Promise<Blob> {
  migratedImage ??= (async () => {
    const file = path.join(os.tmpdir(), `museum-pglite-migrated-${migrationsKey()}.tar`);
    const kept = await readFile(file).catch(() => null);
    if (kept) return new Blob([kept]);
    const handle = await openDatabase({});
    await runMigrations(handle);
    const image = await handle.pglite!.dumpDataDir("none");
    await handle.close();
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await image.arrayBuffer()));
    await rename(partial, file);
    return image;
  })();
  return migratedImage;
}

/** An empty, migrated database of the given kind. */
export async function openTestDatabase(kind: DriverKind, options: { retrySeconds?: number } = {}): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await openDatabase({ pgliteImage: await pgliteImage() });
    // Nothing to do on the migrated image; kept so a database is never handed out unmigrated.
    await runMigrations(handle);
    return { handle, drop: () => handle.close() };
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ databaseUrl: created.url, poolSize: 5, retrySeconds: options.retrySeconds });
  await runMigrations(handle);
  return {
    handle,
    url: created.url,
    drop: async () => {
      await handle.close();
      await created.drop();
    },
  };
}
