/**
 * Structured JSON logs (pino). One logger per process; requests get a child with their id.
 *
 * Lines go to stdout through an asynchronous destination: a request never waits for a write(2),
 * and under load many lines leave in one write. What is still buffered is written synchronously
 * when the process exits (pino registers that for asynchronous destinations; `flushLogs` does
 * it on purpose before a planned exit). A `kill -9` can lose the last lines, never a request.
 */
import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  // No `redact` paths: they cost a clone of every line's object, and no line carries headers
  // (the request log writes id, method, redacted URL and status only; server/http/request-log.ts).
  const options = { level, base: { service: "museum" } };
  // A silent logger writes nothing: no destination (tests create many).
  if (level === "silent") return pino(options);
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: 0 }));
}

/** Writes out what the logger still holds; call before a planned `process.exit`. */
export function flushLogs(logger: Logger): void {
  try {
    logger.flush();
    const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as { flushSync?: () => void } | undefined;
    stream?.flushSync?.();
  } catch {
    // Nothing buffered, or stdout already closed: nothing to save.
  }
}
