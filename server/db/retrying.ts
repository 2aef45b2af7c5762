/**
 * Rides out ordinary PostgreSQL faults (a restart, a failover, killed backends) through public
 * node-postgres and Drizzle APIs only (decision 052, which supersedes the run-time patching of
 * decision 037). Within one budget (DB_RETRY_SECONDS) per operation, and only where nothing can
 * happen twice:
 *
 * - `RetryingPool` (a `pg.Pool` subclass overriding its public `connect` and `query`): opening a
 *   connection the database refuses now is tried again (nothing was sent); a checked-out
 *   connection whose backend was ended while it was idle (its 'error' or 'end' event) is swapped
 *   for another before anything is written on it; a statement outside a transaction is sent again
 *   on a new connection when node-postgres never sent it, or when it only reads (`READ_ONLY`), or
 *   inside `resendable(fn)`.
 * - `transactionRetrying(db, cb)`: the explicit wrapper for a transaction that may run again. On
 *   a connection it checks out itself, its callback runs in a Drizzle transaction; when the
 *   connection ends before the callback returned, it is run again from the start (COMMIT was never
 *   sent, so the server rolled it back). When it ends while COMMIT was in flight, the outcome is
 *   looked up: `txid_current_if_assigned()` just before COMMIT, `txid_status(xid)` on another
 *   connection after the cut. Committed (or nothing written): the callback's result is returned.
 *   Aborted: run again. In progress: asked again until the budget is spent. Unknown: the error goes
 *   to the caller (the route's 503, decision 020).
 * - `transactionOnce(db, cb)`: the same for a callback that does something outside the database
 *   (a payment): never run again, but a COMMIT cut in flight that committed is still answered.
 *
 * A callback given to these wrappers must write only through its `tx`: a write of its own on the
 * pool (a statement, another transaction) commits apart, and is noticed: the transaction is then
 * not run again. On PGlite (no connection to lose) and on a database that is not a pool's (a
 * transaction's `tx`, `withExclusiveLock`'s connection) the wrappers are `db.transaction(cb)`.
 *
 * When the budget runs out, the last error goes to the caller as before (decision 020: 503).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PgTransactionConfig } from "drizzle-orm/pg-core";
import pg from "pg";
import { isConnectionLost, isConnectRefused, wasNotSent } from "./errors";
import * as schema from "./schema";

/** A statement that only reads: `select ...` without `for update/share` (anything else counts as a write). */
export const READ_ONLY = /^\s*\(?\s*select\b(?![\s\S]*\bfor\s+(update|share|no\s+key|key)\b)/i;

/** One operation (a statement, a transaction with everything inside it), shared by the calls made inside it. */
interface Operation {
  /** The time (Date.now()) after which nothing is tried again. */
  deadline?: number;
  /** Its writes do the same when sent twice (see `resendable`). */
  resendable?: boolean;
  /** A transaction's attempt, running its callback. */
  attempt?: { wroteOutside: boolean };
}

const operations = new AsyncLocalStorage<Operation>();

/**
 * Runs `fn`, whose writes outside a transaction may be sent twice with the same effect (a rate
 * limit that may count one hit more, a "last seen" time set again): after a lost connection they
 * are sent again, as reads are.
 */
export function resendable<T>(fn: () => Promise<T>): Promise<T> {
  return operations.run({ ...operations.getStore(), resendable: true }, fn);
}

export interface RetryOptions {
  /** The budget of one operation, in ms; 0 turns every retry off. */
  retryMs: number;
  /** Told about each retry (logged as a warning by the host). */
  onRetry?: (what: "connect" | "statement" | "transaction", error: unknown, attempt: number) => void;
}

/** Waits before attempt `attempt + 1` (100 ms doubling to 1 s, with jitter); false when the budget is spent. */
async function pause(deadline: number, attempt: number): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return false;
  const delay = Math.min(1_000, 100 * 2 ** attempt) * (0.5 + Math.random() / 2);
  await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
  return true;
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void;

/**
 * A `pg.Pool` that rides out faults (see the top of this file). Only public pg API: the options,
 * the 'connect' event, the clients' 'error' and 'end' events, and `connect`/`query` overridden by
 * subclassing. Drizzle calls both.
 */
export class RetryingPool extends pg.Pool {
  readonly retry: RetryOptions;
  /** Connections whose server went away ('error' or 'end'), idle or checked out. */
  readonly #ended = new WeakSet<pg.PoolClient>();

  constructor(config: pg.PoolConfig, retry: RetryOptions) {
    super(config);
    this.retry = retry;
    this.on("connect", (client) => {
      const ended = () => this.#ended.add(client);
      client.on("error", ended);
      client.on("end", ended);
    });
  }

  /** The deadline of the operation running now, or of one starting now. */
  deadline(): number {
    return operations.getStore()?.deadline ?? Date.now() + this.retry.retryMs;
  }

  /**
   * Checks out a connection, trying again while the database refuses new ones until `deadline`.
   * A busy pool's own checkout timeout is not retried: that is load, and keeps its limit.
   */
  async connectWithin(deadline: number): Promise<pg.PoolClient> {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await super.connect();
      } catch (error) {
        if (!isConnectRefused(error) || !(await pause(deadline, attempt))) throw error;
        this.retry.onRetry?.("connect", error, attempt + 1);
        continue;
      }
      // An idle connection whose backend was just ended has the server's goodbye unread in its
      // socket: an I/O poll of the event loop reads it ('error', 'end'), and the connection is
      // dropped for another before a statement is written into it (where its fate is unknown).
      // Two turns: called from the poll phase, the first runs before the next poll.
      await nextTurn();
      await nextTurn();
      if (!this.#ended.has(client)) return client;
      client.release(new Error("the connection ended while idle"));
      attempt--;
    }
  }

  connect(): Promise<pg.PoolClient>;
  connect(callback: ConnectCallback): void;
  connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const deadline = this.deadline();
    // A transaction's callback that opens a connection of its own on the pool (another
    // transaction) writes apart from it: that transaction can no longer be run again.
    const attempt = operations.getStore()?.attempt;
    if (attempt) attempt.wroteOutside = true;
    if (typeof callback !== "function") return this.connectWithin(deadline);
    this.connectWithin(deadline).then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => undefined),
    );
  }

  // pg's overloads, kept by the signature below; the promise forms with text are ridden out.
  query(...args: unknown[]): never {
    const [config, values, callback] = args;
    const text = typeof config === "string" ? config : (config as { text?: unknown } | null)?.text;
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === "function";
    const passOn = () => (super.query as (...a: unknown[]) => never)(...args);
    if (typeof values === "function" || typeof callback === "function" || typeof text !== "string" || submittable) return passOn();
    const outer = operations.getStore();
    const readOnly = READ_ONLY.test(text);
    // A write of its own inside a transaction's callback commits apart from it.
    if (outer?.attempt && !readOnly) outer.attempt.wroteOutside = true;
    const resend = readOnly || outer?.resendable === true;
    const deadline = this.deadline();
    return (async () => {
      for (let attempt = 0; ; attempt++) {
        const client = await this.connectWithin(deadline);
        try {
          const result: unknown = await client.query(config as pg.QueryConfig, values as unknown[] | undefined);
          client.release();
          return result;
        } catch (error) {
          // As pg-pool's own query does: a connection that met an error is not reused.
          client.release(error as Error);
          if (!(wasNotSent(error) || (resend && isConnectionLost(error))) || !(await pause(deadline, attempt))) throw error;
          this.retry.onRetry?.("statement", error, attempt + 1);
        }
      }
    })() as never;
  }
}

/** The Drizzle database over one checked-out connection (built once per connection). */
const overConnection = new WeakMap<pg.PoolClient, NodePgDatabase<typeof schema>>();

/** The pools behind the databases `openDatabase` made on PostgreSQL. */
const pools = new WeakMap<object, { pool: RetryingPool; logger: boolean }>();

/** Notes that `db` is the Drizzle database over `pool` (the wrappers then ride out its faults). */
export function registerPool(db: object, pool: RetryingPool, logger = false): void {
  pools.set(db, { pool, logger });
}

/** What became of a transaction whose connection ended while its COMMIT was in flight. */
type CommitOutcome = "committed" | "aborted" | "unknown";

/**
 * Asks a new connection what became of transaction `xid` (`txid_status`), again while it is still
 * in progress (its backend has not finished committing or rolling back), until `deadline`.
 */
async function commitOutcome(pool: RetryingPool, xid: string, deadline: number): Promise<CommitOutcome> {
  for (let attempt = 0; ; attempt++) {
    let status: unknown;
    try {
      // A read: sent again on a new connection if this one is lost too.
      const { rows } = await operations.run({ deadline }, () => pool.query("select txid_status($1::bigint) as status", [xid]) as Promise<pg.QueryResult<{ status: string | null }>>);
      status = rows[0]?.status;
    } catch {
      return "unknown";
    }
    if (status === "committed" || status === "aborted") return status;
    // "in progress": its backend has not finished yet. null (too old to know, not within seconds): unknown.
    if (status !== "in progress" || !(await pause(deadline, attempt))) return "unknown";
  }
}

/** A Drizzle database or transaction: what `db.transaction` is called on. */
interface Transactional {
  transaction: (...args: never[]) => Promise<unknown>;
}
type TxOf<D extends Transactional> = Parameters<Parameters<D["transaction"]>[0]>[0];

async function runTransaction<D extends Transactional, T>(db: D, callback: (tx: TxOf<D>) => Promise<T>, config: PgTransactionConfig | undefined, once: boolean): Promise<T> {
  const registered = pools.get(db);
  // PGlite, a transaction (a savepoint: part of its outer one), withExclusiveLock's connection.
  if (!registered) return (db.transaction as unknown as (cb: typeof callback, config?: PgTransactionConfig) => Promise<T>)(callback, config);
  const { pool } = registered;
  const outer = operations.getStore();
  // A transaction inside another's callback commits apart from it: the outer one is not re-run.
  if (outer?.attempt) outer.attempt.wroteOutside = true;
  const deadline = pool.deadline();
  // DB_RETRY_SECONDS=0: decision 020's behaviour, and no extra round trip before COMMIT.
  const resolve = pool.retry.retryMs > 0;
  // A read-only transaction (PostgreSQL refuses its writes) has nothing to look up after a cut.
  const readOnly = config?.accessMode === "read only";
  for (let attempt = 0; ; attempt++) {
    let returned = false;
    let result: T | undefined;
    /** Its transaction id, read just before COMMIT; null: nothing was written; undefined: not known. */
    let xid: string | null | undefined;
    const current = { wroteOutside: false };
    try {
      return await operations.run({ deadline, attempt: current }, async () => {
        const client = await pool.connectWithin(deadline);
        let lost: Error | undefined;
        try {
          const over = overConnection.get(client) ?? drizzle({ client, schema, logger: registered.logger });
          overConnection.set(client, over);
          return await over.transaction(async (tx) => {
            const value = await callback(tx as TxOf<D>);
            if (readOnly) xid = null;
            else if (resolve) {
              const { rows } = await client.query<{ xid: string | null }>("select txid_current_if_assigned()::text as xid");
              xid = rows[0]?.xid ?? null;
            }
            // From here on COMMIT may reach the server: run again only if it is known to have aborted.
            returned = true;
            result = value;
            return value;
          }, config);
        } catch (error) {
          if (isConnectionLost(error)) lost = error as Error;
          throw error;
        } finally {
          // Given back here, whatever happened (Drizzle's own transaction on a pool keeps a
          // connection whose BEGIN failed); a lost one is dropped by the pool.
          client.release(lost);
        }
      });
    } catch (error) {
      const lost = isConnectionLost(error);
      let aborted = false;
      if (returned && lost && xid !== undefined) {
        // Nothing written: COMMIT had nothing to keep, and the callback's result stands.
        const outcome = xid === null ? "committed" : await commitOutcome(pool, xid, deadline);
        if (outcome === "committed") return result as T;
        aborted = outcome === "aborted";
      }
      const again = !once && (!returned || aborted) && !current.wroteOutside && lost;
      if (!again || !(await pause(deadline, attempt))) throw error;
      pool.retry.onRetry?.("transaction", error, attempt + 1);
    }
  }
}

/**
 * `db.transaction(callback, config)` that is run again from the start when its connection was
 * lost before COMMIT was sent, or when its COMMIT was cut in flight and the server rolled it
 * back, within DB_RETRY_SECONDS. For a callback that writes only through its `tx` (rows, the
 * outbox, `pg_notify`): running it twice must do what running it once does. Anything outside the
 * database (a payment, an HTTP call) belongs in `transactionOnce`.
 */
export function transactionRetrying<D extends Transactional, T>(db: D, callback: (tx: TxOf<D>) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  return runTransaction(db, callback, config, false);
}

/**
 * `db.transaction(callback, config)` for a callback that does something outside the database (a
 * payment, a mail, an HTTP call, a file): never run a second time. A COMMIT cut in flight is
 * still looked up: committed, its result is returned; otherwise the error (503).
 */
export function transactionOnce<D extends Transactional, T>(db: D, callback: (tx: TxOf<D>) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  return runTransaction(db, callback, config, true);
}
