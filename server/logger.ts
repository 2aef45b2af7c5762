/**
 * Structured JSON logs (pino). One logger per process; requests get a child with their id.
 *
 * Lines go to stdout through an asynchronous destination: a request never waits for a write(2),
 * and under load many lines leave in one write. What is still buffered is written synchronously
 * when the process exits (pino registers that for asynchronous destinations; `flushLogs` does
 * it on purpose before a planned exit). A `kill -9` can lose the last lines, never a request.
 *
 * The request log's line, written for every answer, does not go through pino's serializer
 * (`lineBatch`, decision 042): it is built as a string in the logger's own format and the lines
 * of one turn of the event loop leave in one write.
 */
import pino from "pino";

export type Logger = pino.Logger;

/**
 * The process's logger, writing to stdout (or to `destination`, for tests). Its lines and its
 * children's never overtake request lines still queued in a `lineBatch`: each first writes those
 * out, so the request lines of a last turn come before "stopped".
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  // No `redact` paths: they cost a clone of every line's object, and no line carries headers
  // (the request log writes id, method, redacted URL and status only; server/http/request-log.ts).
  const options: pino.LoggerOptions = {
    level,
    base: { service: "museum" },
    hooks: {
      logMethod(args, method) {
        writeQueuedLines();
        method.apply(this, args);
      },
    },
  };
  // A silent logger writes nothing: no destination (tests create many).
  if (level === "silent") return pino(options);
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 0 }));
}

/** pino's internals that `lineBatch` writes with (exported by pino as `pino.symbols`). */
interface PinoInternals {
  /** `{"level":30` per level number. */
  lsCache: Record<number, string>;
  /** `,"time":…` */
  time: () => string;
  /** The bindings, serialized: `,"pid":…,"hostname":…,"service":"museum"…` */
  chindings: string;
  stream: { write(chunk: string): unknown };
}

function internalsOf(logger: Logger): PinoInternals {
  const held = logger as unknown as Record<symbol, unknown>;
  const { lsCacheSym, timeSym, chindingsSym, streamSym } = pino.symbols;
  return {
    lsCache: held[lsCacheSym] as PinoInternals["lsCache"],
    time: held[timeSym] as PinoInternals["time"],
    chindings: held[chindingsSym] as string,
    stream: held[streamSym] as PinoInternals["stream"],
  };
}

/** Batches not yet written, flushed by `flushLogs` before a planned exit. */
const unwritten = new Set<() => void>();
/** One batch per logger (a cluster worker's logger is a child with its own bindings). */
const batches = new WeakMap<Logger, LineBatch>();

export interface LineBatch {
  /**
   * Queues one line at `level`: `fields` are the line's own properties, serialized, each
   * starting with a comma (`,"res":{"statusCode":200}`); `msg` is the message. Skipped when the
   * logger's level is above `level`.
   */
  write(level: pino.Level, fields: string, msg: string): void;
}

/**
 * Lines in `logger`'s own format (level, time, bindings, fields, msg: what `logger[level](obj,
 * msg)` writes), without pino's serializer, and written together: the lines queued in one turn
 * of the event loop reach the destination in one write, at the next check phase. One batch per
 * logger: every call for the same logger returns it. For a line
 * written on every request (decision 042): pino's generic serializer and one destination write
 * per line cost a third of a stored page's answer.
 */
export function lineBatch(logger: Logger): LineBatch {
  let batch = batches.get(logger);
  if (!batch) batches.set(logger, (batch = newLineBatch(logger)));
  return batch;
}

function newLineBatch(logger: Logger): LineBatch {
  const { lsCache, time, chindings, stream } = internalsOf(logger);
  let queued = "";
  const flush = () => {
    if (!queued) return;
    const lines = queued;
    queued = "";
    unwritten.delete(flush);
    stream.write(lines);
  };
  return {
    write(level, fields, msg) {
      const value = logger.levels.values[level];
      if (value < logger.levelVal) return;
      if (!queued) {
        unwritten.add(flush);
        setImmediate(flush);
      }
      queued += `${lsCache[value]}${time()}${chindings}${fields},"msg":${JSON.stringify(msg)}}\n`;
    },
  };
}

/** Hands every queued batch to its destination now (in the order they were started). */
function writeQueuedLines(): void {
  if (unwritten.size) for (const flush of [...unwritten]) flush();
}

/** sonic-boom's state (pino's asynchronous destination): a write in the thread pool, bytes not yet written. */
interface AsyncDestination {
  _writing?: boolean;
  _len?: number;
  once?(event: "drain", listener: () => void): unknown;
  off?(event: "drain", listener: () => void): unknown;
}

/**
 * Resolves once every line written so far has left the process (or after `limitMs`). Before a
 * planned exit: `flushLogs` alone writes what is queued synchronously even while an earlier
 * asynchronous write is still in the thread pool, and that earlier line can then land after the
 * queued one ("stopped" before "worker stopped"), or be cut off by the exit.
 */
export function logsWritten(logger: Logger, limitMs = 1_000): Promise<void> {
  writeQueuedLines();
  const stream = internalsOf(logger).stream as AsyncDestination | undefined;
  if (!stream?.once || (!stream._writing && !stream._len)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stream.off?.("drain", done);
      resolve();
    };
    const timer = setTimeout(done, limitMs);
    stream.once!("drain", done);
  });
}

/** Writes out what the logger still holds, synchronously; call before an exit that cannot wait. */
export function flushLogs(logger: Logger): void {
  writeQueuedLines();
  try {
    logger.flush();
    (internalsOf(logger).stream as { flushSync?: () => void } | undefined)?.flushSync?.();
  } catch {
    // Nothing buffered, or stdout already closed: nothing to save.
  }
}
