/** Recognises PostgreSQL errors through Drizzle's wrapper, on both drivers. */

/** The error and its causes (Drizzle wraps the driver's error), outermost first. */
function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    yield e as { code?: unknown; message?: unknown };
    e = (e as { cause?: unknown }).cause;
  }
}

/** Whether the error, or one it wraps, carries the SQLSTATE `code`. */
export function hasSqlState(error: unknown, code: string): boolean {
  for (const e of causes(error)) if (e.code === code) return true;
  return false;
}

export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, "23505");
}

/** SQLSTATEs and socket errors that mean the database cannot answer now, not that the request is wrong. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN",
  "08000", "08001", "08003", "08004", "08006", // connection exceptions
  "53300", // too many connections
  "57014", // statement timeout / query canceled
  "55P03", // lock timeout
  "25P03", // idle-in-transaction timeout
  "57P01", "57P02", "57P03", // shutdown, crash, cannot connect now
]);
// "is not currently accepting connections" (SQLSTATE 55000, too broad to list): a database
// closed to connections (ALTER DATABASE ... ALLOW_CONNECTIONS false, as during a maintenance).
const UNAVAILABLE_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|database is unavailable|is not currently accepting connections/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.code === "string" && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** SQLSTATEs of text the database cannot store (a NUL byte, an invalid code point): the client's fault. */
export function isUntranslatableText(error: unknown): boolean {
  for (const e of causes(error)) if (e.code === "22021" || e.code === "22P05") return true;
  return false;
}

/** The message of pg-pool's checkout timeout: every pooled connection is busy (not a fault). */
const POOL_BUSY = /timeout exceeded when trying to connect/i;
/** A pool that is closing refuses new checkouts for good. */
const POOL_ENDED = /Cannot use a pool after calling end on the pool/i;

/**
 * Opening a new connection failed because the database cannot answer now (refused, starting up
 * or shutting down, closed to connections, reset or timed out while connecting): nothing was
 * sent, so trying again is always safe. A busy pool's checkout timeout is not one of them.
 */
export function isConnectRefused(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.message === "string" && (POOL_BUSY.test(e.message) || POOL_ENDED.test(e.message))) return false;
  }
  return isDatabaseUnavailable(error);
}

/** The statement was never sent: node-postgres refused it on a connection it already knew was dead. */
export function wasNotSent(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.message === "string" && /Client has encountered a connection error and is not queryable/.test(e.message)) return true;
  }
  return false;
}

/** SQLSTATEs and socket errors of a connection that ended under a statement (what ran is rolled back, unless it had committed). */
const LOST_CODES = new Set(["ECONNRESET", "EPIPE", "08000", "08003", "08006", "57P01", "57P02", "57P03"]);
const LOST_MESSAGES = /Connection terminated|Client has encountered a connection error and is not queryable/i;

/**
 * The statement's connection ended (a killed backend, a restart, a failover, a reset socket). Not
 * a timeout: a statement that timed out on the client may still be running on the server.
 */
export function isConnectionLost(error: unknown): boolean {
  for (const e of causes(error)) {
    if (typeof e.code === "string" && LOST_CODES.has(e.code)) return true;
    if (typeof e.message === "string" && LOST_MESSAGES.test(e.message)) return true;
  }
  return false;
}
