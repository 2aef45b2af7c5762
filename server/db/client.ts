/**
 * Opens the database: PGlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Both are driven through Drizzle's Postgres dialect, so services see one `Database` type.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { sql, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { lockDataDir } from "./data-dir-lock";
import { READ_ONLY, registerPool, RetryingPool, type RetryOptions } from "./retrying";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** Rows of a raw SQL query (both drivers answer with `{ rows }`). */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Runs `fn` while holding a cross-process lock (a no-op lock for the single-process PGlite). */
  withExclusiveLock<T>(lockId: number, fn: (db: Database) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The PostgreSQL pool's connections (for /metrics); null on PGlite, which has no pool. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /**
   * PGlite only (one process sees every write): a number that grows after each statement that is
   * not a plain `select` and after each transaction, committed or not. What was read while it
   * stayed the same is still what the database holds (decision 028). Undefined on PostgreSQL,
   * where other processes write too.
   */
  writeCount?: () => number;
  /** PGlite only: the client itself, for the backup's COPY of every table in one transaction (decision 046). */
  pglite?: PGlite;
}

/** Counts PGlite's writes (see `writeCount`): wraps the entry points Drizzle and the change feed use. */
function countWrites(client: PGlite): () => number {
  let writes = 0;
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  const after = async <T>(write: boolean, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } finally {
      if (write) writes++;
    }
  };
  client.query = ((text: string, ...rest: unknown[]) => after(!READ_ONLY.test(text), () => (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest))) as PGlite["query"];
  // exec may hold several statements: always a write.
  client.exec = ((text: string, ...rest: unknown[]) => after(true, () => (exec as (...a: unknown[]) => Promise<unknown>)(text, ...rest))) as PGlite["exec"];
  client.transaction = ((fn: Parameters<PGlite["transaction"]>[0]) => after(true, () => transaction(fn))) as PGlite["transaction"];
  return () => writes;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** Directory for PGlite files; omitted = in-memory PGlite (tests). */
  pgliteDir?: string;
  /** In-memory PGlite only: start from this data directory image (`dumpDataDir`), e.g. an already migrated one (tests). */
  pgliteImage?: Blob;
  poolSize?: number;
  /**
   * A PostgreSQL connection that ended (a restart, a failover, a killed backend), idle or checked
   * out: reported here, never thrown. Without a listener the client's 'error' event would end the process.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * PostgreSQL: how long one operation may wait for the database to come back (DB_RETRY_SECONDS,
   * decisions 037 and 052): a refused connection is opened again, a read is sent again, and a
   * `transactionRetrying` cut before its COMMIT is run again (a COMMIT cut in flight has its
   * outcome looked up). 0 = fail at once. Default 8.
   */
  retrySeconds?: number;
  /** Told about each retry (the host logs it). */
  onRetry?: RetryOptions["onRetry"];
}

/** DB_RETRY_SECONDS's default. */
export const DEFAULT_RETRY_SECONDS = 8;

/** LOG_SQL=true prints every statement (diagnostics only). */
const sqlLogging = () => process.env.LOG_SQL === "true";

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const retry = { retryMs: (options.retrySeconds ?? DEFAULT_RETRY_SECONDS) * 1000, onRetry: options.onRetry };
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, retry, options.onConnectionError);
  }
  return openPglite(options.pgliteDir, options.pgliteImage);
}

/** Where PGlite keeps its database inside DATA_DIR. */
export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, "pglite");
}

/** PGlite has not made its database in DATA_DIR yet: a first start. */
export function isNewPgliteDirectory(dataDir: string): boolean {
  return !existsSync(path.join(pgliteDirectory(dataDir), "PG_VERSION"));
}

/** PGlite's shared_buffers (see `openPglite`). */
const PGLITE_SHARED_BUFFERS = "32MB";

async function openPglite(dir: string | undefined, image?: Blob): Promise<DatabaseHandle> {
  // One process at a time on a directory (decision 043): a second one is refused before it opens a file.
  const lock = dir ? await lockDataDir(dir) : null;
  // Search (decision 014) uses unaccent and pg_trgm, as on PostgreSQL.
  const extensions = { unaccent, pg_trgm };
  // PostgreSQL's buffers live in PGlite's WebAssembly memory, which never shrinks: 128 MB by
  // default, more than a museum's collection needs (the kernel caches the files anyway). The
  // embedded default must fit a 1 GB server.
  const options = { extensions, postgresqlconf: [`shared_buffers = ${PGLITE_SHARED_BUFFERS}`], ...(image && !dir ? { loadDataDir: image } : {}) };
  let client: PGlite;
  try {
    client = dir ? new PGlite(dir, options) : new PGlite(options);
    await client.waitReady;
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const writeCount = countWrites(client);
  const db = drizzlePglite({ client, schema, logger: sqlLogging() }) as unknown as Database;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db,
    kind: "pglite",
    withExclusiveLock(_lockId, fn) {
      // One process owns a PGlite directory; serialising inside the process is enough.
      const run = queue.then(() => fn(db));
      queue = run.catch(() => undefined);
      return run;
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      try {
        await client.close();
      } finally {
        await lock?.release();
      }
    },
    poolStats: () => null,
    writeCount,
    pglite: client,
  };
}

/**
 * Time limits on PostgreSQL, so one held lock or a lost server cannot hang every request: a
 * bounded wait for a pooled connection (or a new one), for a lock, for a statement, and for an
 * idle transaction. A request that meets one fails fast and is answered 503.
 */
export const POSTGRES_TIMEOUTS = {
  /** Waiting for a free pooled connection, or for a new connection to open. */
  connectMs: 3_000,
  statementMs: 10_000,
  lockMs: 2_000,
  idleInTransactionMs: 15_000,
  /** Client-side limit for an answer, in case the server stops answering altogether. */
  queryMs: 12_000,
} as const;

async function openPostgres(url: string, poolSize: number, retry: RetryOptions, onConnectionError?: (error: Error) => void): Promise<DatabaseHandle> {
  const t = POSTGRES_TIMEOUTS;
  // A refused connection and a lost read are tried again within the budget, and an idle
  // connection ended by the server is swapped for another (decision 052); transactions are
  // ridden out where they are called, through `transactionRetrying`. The pool's checkout timeout
  // still answers a merely busy pool.
  const pool = new RetryingPool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: t.connectMs,
    query_timeout: t.queryMs,
    statement_timeout: t.statementMs,
    lock_timeout: t.lockMs,
    idle_in_transaction_session_timeout: t.idleInTransactionMs,
    keepAlive: true,
  }, retry);
  // Every pooled connection keeps an 'error' listener for its whole life (decision 020). pg-pool
  // listens only while a connection is idle and removes its listener while it is checked out
  // (inside a transaction, between statements, or held by withExclusiveLock), so a server that
  // ends the connection then would emit an unhandled 'error' and end the process. The failed
  // query rejects on its own (answered 503), the connection is no longer queryable, and the pool
  // drops it on release and opens a new one on the next checkout.
  pool.on("connect", (client) => {
    client.on("error", (error) => onConnectionError?.(error));
  });
  // Idle connections: reported by the listener above; the pool's own event must be listened to too.
  pool.on("error", () => undefined);
  const db = drizzlePg({ client: pool, schema, logger: sqlLogging() }) as unknown as Database;
  registerPool(db, pool, sqlLogging());
  return {
    db,
    kind: "postgres",
    async withExclusiveLock(lockId, fn) {
      // A session-level advisory lock must be taken and released on one connection.
      const client = await pool.connect();
      try {
        // Migrations and jobs may legitimately wait for another instance and run long.
        await client.query("set statement_timeout = 0; set lock_timeout = 0");
        await client.query({ text: "select pg_advisory_lock($1)", values: [lockId], query_timeout: 30 * 60_000 } as pg.QueryConfig);
        try {
          return await fn(drizzlePg({ client, schema }) as unknown as Database);
        } finally {
          await client.query("select pg_advisory_unlock($1)", [lockId]);
        }
      } finally {
        await client.query("reset statement_timeout; reset lock_timeout").catch(() => undefined);
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await pool.end();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
