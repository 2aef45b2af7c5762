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
 *   members' sessions it remembered (`onSessionsChange`). `sessionsSettled()` is a barrier: it
 *   sends a marker on that channel, and every listener answers it on `museum_sessions_heard`
 *   once it has handled everything before it (notifications arrive in commit order, and a
 *   process handles each one as it reads it). When as many answers have come as there are
 *   listening connections (pg_stat_activity), every worker of every instance has been told of
 *   every change committed before, and the person whose request made the change cannot outrun
 *   it to another instance.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { queryRows, type Database, type DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";

export const CATALOG_CHANNEL = "museum_catalog";
/** Sessions ended and accounts' access changed (migration 0024's triggers, decision 040). */
export const SESSIONS_CHANNEL = "museum_sessions";
/** Each listener's answer to a `sessionsSettled` marker: the marker, once it has handled everything before it. */
export const SESSIONS_HEARD_CHANNEL = "museum_sessions_heard";
const MARKER_PREFIX = "settled:";
/** How long `sessionsSettled` waits for every listener's answer before giving up (one is slow or cut). */
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
  /** Told when this process has committed a change (`notify()` without a transaction, after the commit). */
  const committedHandlers = new Set<() => void>();
  const sessionHandlers = new Set<() => void>();
  /** Markers sent by `sessionsSettled`, each counting the listeners' answers. */
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
  /** The listening connection's own queries, one at a time (pg runs one query per client). */
  let queries: Promise<unknown> = Promise.resolve();
  function listenerQuery(on: pg.Client, text: string, values?: string[]): Promise<unknown> {
    const result = queries.then(() => on.query(text, values));
    queries = result.catch(() => undefined);
    return result;
  }
  /** A session or access change: tell the session store. A marker: answer it (this process has handled all before it). */
  function sessionsChanged(from: pg.Client, payload: string | undefined): void {
    if (!payload?.startsWith(MARKER_PREFIX)) return run(sessionHandlers);
    listenerQuery(from, "select pg_notify($1, $2)", [SESSIONS_HEARD_CHANNEL, payload]).catch(() => undefined);
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
      else if (message.channel === SESSIONS_CHANNEL) sessionsChanged(next, message.payload);
      else if (message.channel === SESSIONS_HEARD_CHANNEL && message.payload) markers.get(message.payload)?.();
    });
    client = next;
    queries = Promise.resolve();
    connecting = (async () => {
      try {
        await next.connect();
        await next.query(`listen ${CATALOG_CHANNEL}; listen ${SESSIONS_CHANNEL}; listen ${SESSIONS_HEARD_CHANNEL}`);
        if (client !== next || stopped) {
          await next.end().catch(() => undefined);
          return;
        }
        listening = true;
        attempt = 0;
        ping = setInterval(() => {
          listenerQuery(next, "select 1").catch((error: unknown) => {
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
      if (!tx) {
        changed();
        run(committedHandlers);
      }
    },
    /** Runs `handler` each time this process has committed a change (the writer's own, not every instance's). */
    onCommitted(handler: () => void): () => void {
      committedHandlers.add(handler);
      return () => committedHandlers.delete(handler);
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
     * Resolves once every session and access change committed so far has reached every listening
     * process, this one's and every other worker's and instance's (at most a second; at once on
     * PGlite or while not listening): called after a logout or a ticket grant, before the answer,
     * so the next request finds it on any instance.
     */
    async sessionsSettled(): Promise<void> {
      if (database.kind !== "postgres" || !listening) return;
      const marker = `${MARKER_PREFIX}${randomUUID()}`;
      let answers = 0;
      let listeners = Number.POSITIVE_INFINITY;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let allAnswered!: () => void;
      const everyone = new Promise<void>((resolve) => {
        allAnswered = resolve;
        timer = setTimeout(() => {
          logger.warn({ answers, listeners }, "not every change listener answered within a second; going on");
          resolve();
        }, SETTLE_TIMEOUT_MS);
      });
      markers.set(marker, () => {
        if (++answers >= listeners) allAnswered();
      });
      try {
        // The listeners counted as the marker is sent: one that connects later has nothing
        // remembered (and may answer too); one that left without answering costs the time limit.
        const [row] = await queryRows<{ listeners: number }>(
          database.db,
          sql`select pg_notify(${SESSIONS_CHANNEL}, ${marker}), (select count(*)::int from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()) as listeners`,
        );
        listeners = row?.listeners ?? 0;
        if (answers >= listeners) allAnswered();
        await everyone;
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

