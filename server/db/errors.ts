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
