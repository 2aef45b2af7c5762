/**
 * Rides out ordinary PostgreSQL faults (decision 037): a restart, a failover, killed backends.
 * Within one budget (DB_RETRY_SECONDS) per operation, and only where nothing can happen twice:
 *
 * - opening a pooled connection that the database refuses now is tried again (nothing was sent);
 * - a statement outside a transaction is sent again on a new connection when node-postgres never
 *   sent it (its connection was known dead), or when it only reads and its connection ended;
 * - a transaction (`db.transaction(cb)`) whose connection ended before its callback returned is
 *   run again from the start: the server rolled it back, since COMMIT was never sent;
 * - a transaction whose connection ended while its COMMIT was in flight has its outcome looked up
 *   (decision 037's addendum): a transaction that wrote reads `txid_current_if_assigned()` just
 *   before COMMIT (one round trip; none for one that only read), and after the cut a new
 *   connection asks `txid_status(xid)`. Committed, or nothing written: the callback's result is
 *   returned as if COMMIT had answered. Aborted: the server rolled it back, and it is run again
 *   as above. Still in progress: asked again until the budget is spent. Unknown: the error goes
 *   to the caller (the route's 503; idempotency keys let the client retry, decision 025).
 *   A callback marked `runsOnce` (it does something outside the database) is never re-run.
 *
 * When the budget runs out, the last error goes to the caller as before (decision 020: 503).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { isConnectionLost, isConnectRefused, wasNotSent } from "./errors";

/** A statement that only reads: `select ...` without `for update/share` (anything else counts as a write). */
export const READ_ONLY = /^\s*\(?\s*select\b(?![\s\S]*\bfor\s+(update|share|no\s+key|key)\b)/i;

/** One operation (a statement, a transaction) and what it did, shared by the calls made inside it. */
interface Operation {
  /** The time (Date.now()) after which nothing is tried again (unset: the budget from now). */
  deadline?: number;
  /** Its writes do the same when sent twice (see `resendable`). */
  resendable?: boolean;
  /** A transaction's attempt: its own connection, recorded when it is checked out. */
  transaction?: TransactionAttempt;
}

interface TransactionAttempt {
  client?: Checkout;
  /** A write of its callback's committed apart from it (see `rideOutPoolFaults`' query). */
  wroteOutside: boolean;
  /** A statement other than a read (`READ_ONLY`) or transaction control was sent on its connection. */
  wrote: boolean;
}

/** Statements that control the transaction itself, and write nothing. */
const TRANSACTION_CONTROL = /^\s*(begin|start\s+transaction|commit|end|rollback|savepoint|release|set\s+(local|transaction))\b/i;

interface Checkout {
  client: pg.PoolClient;
  released: boolean;
}

const operations = new AsyncLocalStorage<Operation>();

const RUNS_ONCE = Symbol("museum.transaction.runsOnce");

/**
 * Marks a transaction callback that does something outside the database (a payment, a mail, an
 * HTTP call, a file): it is never run a second time after a lost connection.
 */
export function runsOnce<F extends (...args: never[]) => unknown>(fn: F): F {
  Object.defineProperty(fn, RUNS_ONCE, { value: true });
  return fn;
}

/**
 * Runs `fn`, whose writes outside a transaction may be sent twice with the same effect (a rate
 * limit that may count one hit more, a "last seen" time set again): after a lost connection they
 * are sent again, as reads are.
 */
export function resendable<T>(fn: () => Promise<T>): Promise<T> {
  return operations.run({ ...operations.getStore(), resendable: true }, fn);
}

export interface RideOutOptions {
  /** The budget of one operation, in ms; 0 turns every retry off. */
  retryMs: number;
  /** Told about each retry (logged as a warning by the host). */
  onRetry?: (what: "connect" | "statement" | "transaction", error: unknown, attempt: number) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits before attempt `attempt + 1` (100 ms doubling to 1 s, with jitter); false when the budget is spent. */
async function pause(operation: { deadline: number }, attempt: number): Promise<boolean> {
  const left = operation.deadline - Date.now();
  if (left <= 0) return false;
  const delay = Math.min(1_000, 100 * 2 ** attempt) * (0.5 + Math.random() / 2);
  await sleep(Math.min(delay, left));
  return true;
}

/**
 * Makes `pool.connect` and `pool.query` ride out faults (pg-pool calls its own `connect` from
 * `query`, and Drizzle calls both, so every statement goes through them).
 */
export function rideOutPoolFaults(pool: pg.Pool, options: RideOutOptions): void {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  async function connectRetrying(promised: boolean): Promise<pg.PoolClient> {
    const store = operations.getStore();
    const operation = { deadline: store?.deadline ?? Date.now() + options.retryMs };
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await connect();
      } catch (error) {
        if (!isConnectRefused(error) || !(await pause(operation, attempt))) throw error;
        options.onRetry?.("connect", error, attempt + 1);
        continue;
      }
      // An idle connection whose backend was ended may hold the server's goodbye unread in its
      // socket: one turn of the event loop reads it, and a write is not sent into a dead
      // connection (where its fate would be unknown). Such a connection is dropped for another.
      await new Promise((resolve) => setImmediate(resolve));
      const state = client as unknown as { _queryable?: boolean; _ending?: boolean };
      if (state._queryable === false || state._ending) {
        client.release(new Error("the connection ended while idle"));
        attempt--;
        continue;
      }
      const tx = store?.transaction;
      // Drizzle's transaction asks for its connection first, with a promise (pg-pool's own
      // query passes a callback): recorded so it can go back to the pool if Drizzle drops it.
      if (promised && tx && !tx.client) {
        const checkout: Checkout = { client, released: false };
        const release = client.release;
        // While it is the transaction's, the connection notes whether anything was written on it
        // (then its COMMIT's outcome can be looked up, see `rideOutTransactionFaults`).
        const ownQuery = Object.prototype.hasOwnProperty.call(client, "query");
        const query = client.query;
        client.query = function (this: pg.PoolClient, ...args: unknown[]) {
          const config = args[0] as { text?: unknown } | string | null;
          const text = typeof config === "string" ? config : config?.text;
          if (typeof text !== "string" || !(READ_ONLY.test(text) || TRANSACTION_CONTROL.test(text))) tx.wrote = true;
          return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof client.query;
        client.release = (error?: Error | boolean) => {
          checkout.released = true;
          if (ownQuery) client.query = query;
          else delete (client as { query?: unknown }).query;
          return release(error);
        };
        tx.client = checkout;
      }
      return client;
    }
  }

  pool.connect = function (callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void) {
    if (typeof callback !== "function") return connectRetrying(true);
    connectRetrying(false).then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => undefined),
    );
    return undefined;
  } as typeof pool.connect;

  pool.query = function (...args: unknown[]) {
    const [config, values, callback] = args;
    const text = typeof config === "string" ? config : (config as { text?: unknown } | null)?.text;
    const submittable = typeof (config as { submit?: unknown } | null)?.submit === "function";
    if (typeof values === "function" || typeof callback === "function" || typeof text !== "string" || submittable) return query(...args);
    const outer = operations.getStore();
    const readOnly = READ_ONLY.test(text);
    // A write of its own inside a transaction's callback commits apart from it: that
    // transaction can no longer be run again.
    if (outer?.transaction && !readOnly) outer.transaction.wroteOutside = true;
    const resend = readOnly || outer?.resendable === true;
    const operation = { deadline: outer?.deadline ?? Date.now() + options.retryMs };
    return operations.run(operation, async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await query(config, values);
        } catch (error) {
          if (!(wasNotSent(error) || (resend && isConnectionLost(error))) || !(await pause(operation, attempt))) throw error;
          options.onRetry?.("statement", error, attempt + 1);
        }
      }
    });
  } as typeof pool.query;
}

type TransactionFn = (callback: (tx: never) => Promise<unknown>, config?: unknown) => Promise<unknown>;

/** What became of a transaction whose connection ended while its COMMIT was in flight. */
type CommitOutcome = "committed" | "aborted" | "unknown";

/**
 * Asks a new connection what became of transaction `xid` (`txid_status`), again while it is still
 * in progress (its backend has not finished committing or rolling back), until `deadline`.
 */
async function commitOutcome(pool: pg.Pool, xid: string, deadline: number): Promise<CommitOutcome> {
  const operation = { deadline };
  for (let attempt = 0; ; attempt++) {
    let status: unknown;
    try {
      // A read: sent again on a new connection if this one is lost too (see `rideOutPoolFaults`).
      const { rows } = await operations.run(operation, () => pool.query<{ status: string | null }>("select txid_status($1::bigint) as status", [xid]));
      status = rows[0]?.status;
    } catch {
      return "unknown";
    }
    if (status === "committed" || status === "aborted") return status;
    // "in progress": its backend has not finished yet. null (too old to know, not within seconds): unknown.
    if (status !== "in progress" || !(await pause(operation, attempt))) return "unknown";
  }
}

/**
 * Makes `db.transaction` (the pool's, not a transaction's nested one) run its callback again when
 * the connection ended before the callback returned, and resolve a COMMIT cut in flight.
 */
export function rideOutTransactionFaults<D extends { transaction: unknown }>(db: D, pool: pg.Pool, options: RideOutOptions): void {
  const transaction = (db.transaction as TransactionFn).bind(db);
  // DB_RETRY_SECONDS=0: decision 020's behaviour, and no extra round trip before COMMIT.
  const resolve = options.retryMs > 0;
  db.transaction = (async (callback: (tx: never) => Promise<unknown>, config?: unknown) => {
    const outer = operations.getStore();
    // A transaction inside another's callback commits apart from it: the outer one is not re-run.
    if (outer?.transaction) outer.transaction.wroteOutside = true;
    const deadline = outer?.deadline ?? Date.now() + options.retryMs;
    const once = RUNS_ONCE in callback;
    for (let attempt = 0; ; attempt++) {
      let returned = false;
      let result: unknown;
      /** Its transaction id, read just before COMMIT; null: nothing was written; undefined: not known. */
      let xid: string | null | undefined;
      const current: TransactionAttempt = { wroteOutside: false, wrote: false };
      const operation = { deadline, transaction: current };
      try {
        return await operations.run(operation, () =>
          transaction(async (tx) => {
            const value = await callback(tx);
            if (resolve) {
              if (!current.wrote) xid = null;
              else if (current.client) {
                const { rows } = await current.client.client.query<{ xid: string | null }>("select txid_current_if_assigned()::text as xid");
                xid = rows[0]?.xid ?? null;
              }
            }
            // From here on COMMIT may reach the server: run again only if it is known to have aborted.
            returned = true;
            result = value;
            return value;
          }, config),
        );
      } catch (error) {
        // Drizzle sends BEGIN outside its try/finally: a connection that died before it would
        // never go back to the pool (it would hold a place there for good).
        const checkout = current.client;
        if (checkout && !checkout.released) checkout.client.release(error instanceof Error ? error : true);
        const lost = isConnectionLost(error);
        let aborted = false;
        if (returned && lost && xid !== undefined) {
          // Nothing written: COMMIT had nothing to keep, and the callback's result stands.
          const outcome = xid === null ? "committed" : await commitOutcome(pool, xid, deadline);
          if (outcome === "committed") return result;
          aborted = outcome === "aborted";
        }
        const again = !once && (!returned || aborted) && !current.wroteOutside && lost;
        if (!again || !(await pause(operation, attempt))) throw error;
        options.onRetry?.("transaction", error, attempt + 1);
      }
    }
  }) as D["transaction"];
}
