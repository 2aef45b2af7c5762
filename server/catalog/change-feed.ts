/**
 * The collection's change feed: every instance (and every worker of one) keeps the collection
 * and the pages built from it in memory for a short time (decisions 006, 008); a staff change
 * tells all of them at once through PostgreSQL's LISTEN/NOTIFY on the `museum_catalog` channel,
 * and each one forgets what it kept.
 *
 * - `notify(tx)` inside the transaction that makes the change: PostgreSQL delivers the
 *   notification only when that transaction commits, so no instance clears its caches before
 *   the change is visible, and a rolled-back change tells nobody. Without a transaction it
 *   notifies at once and clears this process's caches without waiting for the echo.
 * - Each process listens on a dedicated connection (not a pooled one: a pooled connection goes
 *   back to the pool and its LISTEN with it). When that connection drops (a database restart, a
 *   network cut), it reconnects with backoff, and on reconnecting clears the caches once: a
 *   notification sent meanwhile was lost. Until then the caches' time limits still hold. A cut
 *   that closes nothing (a dead route, a frozen peer) is found by a query every `pingMs` that must
 *   answer within `queryTimeoutMs`.
 * - PGlite (one process) listens in-process with its own `listen`, same semantics.
 * - The same connection listens on `museum_sessions` (decision 040): triggers (migration 0024)
 *   notify there when a session ends or an account's access changes, and each worker forgets the
 *   members' sessions it remembered (`onSessionsChange`). `sessionsSettled()` sends a marker on
 *   that channel and waits for it to come back: notifications arrive in commit order, so by then
 *   this process (and, as fast, every other listener) has been told of every change committed
 *   before, and the person whose request made the change cannot outrun it to another instance.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import type { Database, DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";

export const CATALOG_CHANNEL = "museum_catalog";
/** Sessions ended and accounts' access changed (migration 0024's triggers, decision 040). */
export const SESSIONS_CHANNEL = "museum_sessions";
/** How long `sessionsSettled` waits for its marker before giving up (the connection is slow or cut). */
const SETTLE_TIMEOUT_MS = 1_000;
/** The listening connection's application_name, as pg_stat_activity shows it. */
export const LISTENER_APPLICATION_NAME = "museum-catalog-listener";

/** Sends the change notification on `db` (a transaction: delivered when it commits). */
export async function notifyCatalogChanged(db: Database, detail = ""): Promise<void> {
  await db.execute(sql`select pg_notify(${CATALOG_CHANNEL}, ${detail})`);
}

export interface CatalogChangeFeedOptions {
  database: Pick<DatabaseHandle, "db" | "kind">;
  /** PostgreSQL's URL (DATABASE_URL), for the dedicated listening connection. */
  databaseUrl?: string;
  logger: Logger;
  /** Reconnect backoff bounds (tests shorten them). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** How often the listening connection is checked with a query (a silent network cut). */
  pingMs?: number;
  /**
   * How long the listening connection's queries (LISTEN, the check) may wait for an answer: on a
   * silent network cut nothing ever answers, and TCP would take many minutes to say so.
   */
  queryTimeoutMs?: number;
}

export function createCatalogChangeFeed({
  database,
  databaseUrl,
  logger,
  minBackoffMs = 250,
  maxBackoffMs = 10_000,
  pingMs = 15_000,
  queryTimeoutMs = 5_000,
}: CatalogChangeFeedOptions) {
  const handlers = new Set<() => void>();
  const sessionHandlers = new Set<() => void>();
  /** Markers sent by `sessionsSettled`, waiting to come back. */
  const markers = new Map<string, () => void>();
  let stopped = true;
  let listening = false;
  let client: pg.Client | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  let attempt = 0;
  let connecting: Promise<void> | null = null;

  function run(set: Set<() => void>): void {
    for (const handler of set) {
      try {
        handler();
      } catch (error) {
        logger.error({ err: error }, "change handler failed");
      }
    }
  }
  const changed = () => run(handlers);
  function sessionsChanged(payload: string | undefined): void {
    run(sessionHandlers);
    if (payload) markers.get(payload)?.();
  }

  function scheduleReconnect(reason: unknown): void {
    if (stopped || retry) return;
    listening = false;
    run(sessionHandlers);
    clearInterval(ping);
    const old = client;
    client = null;
    old?.removeAllListeners("notification");
    old?.end().catch(() => undefined);
    const delay = Math.min(maxBackoffMs, minBackoffMs * 2 ** attempt) * (0.5 + Math.random() / 2);
    attempt++;
    logger.warn({ err: reason, retryInMs: Math.round(delay) }, "catalog change listener lost its connection; reconnecting");
    retry = setTimeout(() => {
      retry = undefined;
      void connectPostgres(true);
    }, delay);
    retry.unref();
  }

  function connectPostgres(reconnecting: boolean): Promise<void> {
    if (!databaseUrl) throw new Error("the catalog change feed on PostgreSQL needs DATABASE_URL");
    const next = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      query_timeout: queryTimeoutMs,
      application_name: LISTENER_APPLICATION_NAME,
    });
    // A dropped connection reports itself by 'error' or 'end' (or both): either one reconnects.
    next.on("error", (error) => {
      if (client === next) scheduleReconnect(error);
    });
    next.on("end", () => {
      if (client === next) scheduleReconnect(new Error("connection ended"));
    });
    next.on("notification", (message) => {
      if (message.channel === CATALOG_CHANNEL) changed();
      else if (message.channel === SESSIONS_CHANNEL) sessionsChanged(message.payload);
    });
    client = next;
    connecting = (async () => {
      try {
        await next.connect();
        await next.query(`listen ${CATALOG_CHANNEL}; listen ${SESSIONS_CHANNEL}`);
        if (client !== next || stopped) {
          await next.end().catch(() => undefined);
          return;
        }
        listening = true;
        attempt = 0;
        ping = setInterval(() => {
          next.query("select 1").catch((error: unknown) => {
            if (client === next) scheduleReconnect(error);
          });
        }, pingMs);
        ping.unref();
        if (reconnecting) {
          logger.info("catalog change listener reconnected; caches cleared");
          changed();
          run(sessionHandlers);
        }
      } catch (error) {
        if (client === next) scheduleReconnect(error);
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  }

  return {
    /** Tells every instance that the collection changed (inside `tx`: once it commits). */
    async notify(tx?: Database, detail = ""): Promise<void> {
      await notifyCatalogChanged(tx ?? database.db, detail);
      if (!tx) changed();
    },
    /** Runs `handler` on every change (and after a reconnection); returns the unsubscribe. */
    onChange(handler: () => void): () => void {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    /** Runs `handler` when a session ended or an account's access changed, and when listening stops or resumes. */
    onSessionsChange(handler: () => void): () => void {
      sessionHandlers.add(handler);
      return () => sessionHandlers.delete(handler);
    },
    /**
     * Resolves once every session and access change committed so far has reached this process's
     * listener (at most a second; at once on PGlite or while not listening): called after a
     * logout or a ticket grant, before the answer, so the next request finds it on any instance.
     */
    async sessionsSettled(): Promise<void> {
      if (database.kind !== "postgres" || !listening) return;
      const marker = `settled:${randomUUID()}`;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const back = new Promise<void>((resolve) => {
        markers.set(marker, resolve);
        timer = setTimeout(resolve, SETTLE_TIMEOUT_MS);
      });
      try {
        await database.db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${marker})`);
        await back;
      } finally {
        clearTimeout(timer);
        markers.delete(marker);
      }
    },
    /** Starts listening; resolves once listening (or once the first attempt failed and a retry is scheduled). */
    async start(): Promise<void> {
      if (!stopped) return;
      stopped = false;
      if (database.kind === "pglite") {
        const pglite = (database.db as unknown as { $client: PGlite }).$client;
        unlisten = await pglite.listen(CATALOG_CHANNEL, () => changed());
        listening = true;
        return;
      }
      await connectPostgres(false);
    },
    async stop(): Promise<void> {
      stopped = true;
      listening = false;
      clearTimeout(retry);
      retry = undefined;
      clearInterval(ping);
      await connecting?.catch(() => undefined);
      const old = client;
      client = null;
      await old?.end().catch(() => undefined);
      await unlisten?.().catch(() => undefined);
      unlisten = null;
    },
    /** Whether the listening connection is up (for tests and diagnostics). */
    get listening(): boolean {
      return listening;
    },
  };
}

export type CatalogChangeFeed = ReturnType<typeof createCatalogChangeFeed>;
