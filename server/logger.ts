/**
 * Structured JSON logs (pino). One logger per process; requests get a child with their id.
 *
 * Lines go to stdout through pino's own asynchronous destination (`pino.destination`, sonic-boom),
 * with its own buffering (decision 053): a request never waits for a write(2); lines gather until
 * 4 KB, or for at most `FLUSH_MS` when the site is quiet, and leave in one write, in the order
 * they were logged. Before a planned exit `logsWritten` waits for them to be out and `flushLogs`
 * writes what is left synchronously; an exit on an uncaught error calls `flushLogs` alone. A
 * `kill -9` can lose the last lines, never a request. Only pino's and sonic-boom's documented
 * API is used.
 */
import pino from "pino";

export type Logger = pino.Logger;

/** Bytes a destination gathers before it writes (sonic-boom's `minLength`). */
const GATHER_BYTES = 4096;
/** Longest a line waits in a quiet process before it is written (sonic-boom's `periodicFlush`). */
export const FLUSH_MS = 250;

/** What `createLogger` writes to: its own destination, or the one a test gave it. */
const destinations = new WeakMap<Logger, pino.DestinationStream>();

/**
 * The destination the process's logger writes to (`fd` 1, stdout, unless a test gives another
 * descriptor): pino's asynchronous destination, gathering lines as described above.
 */
export function logDestination(fd = 1) {
  return pino.destination({ dest: fd, sync: false, minLength: GATHER_BYTES, periodicFlush: FLUSH_MS });
}

/** The process's logger, writing to stdout (or to `destination`, for tests). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  // No `redact` paths: they cost a clone of every line's object, and no line carries headers
  // (the request log writes id, method, redacted URL and status only; server/http/request-log.ts).
  const options: pino.LoggerOptions = { level, base: { service: "museum" } };
  // A silent logger writes nothing: no destination (tests create many).
  if (level === "silent") return pino(options);
  const stream = destination ?? logDestination();
  const logger = pino(options, stream);
  destinations.set(logger, stream);
  return logger;
}

/**
 * Resolves once every line logged so far has left the process (or after `limitMs`, so that a
 * stdout nobody reads cannot hold a stop). Before a planned exit: a synchronous flush alone,
 * while an asynchronous write is still in flight, could land before that write ("stopped" before
 * "worker stopped") or let the exit cut it off. pino's `flush(cb)` calls back once sonic-boom's
 * write in flight and what it gathered are out.
 */
export function logsWritten(logger: Logger, limitMs = 1_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    try {
      logger.flush(() => {
        // An error here (stdout closed, or a pipe that cannot fsync) leaves nothing to wait for.
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

/**
 * Writes out what the logger's destination still holds, synchronously (sonic-boom's public
 * `flushSync`); call before an exit that cannot wait. For the loggers `createLogger` made.
 */
export function flushLogs(logger: Logger): void {
  const destination = destinations.get(logger) as { flushSync?: () => void } | undefined;
  try {
    destination?.flushSync?.();
  } catch {
    // Nothing to write to (stdout already closed): nothing to save.
  }
}
