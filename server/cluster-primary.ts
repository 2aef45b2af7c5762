/**
 * The primary of a cluster on PostgreSQL (decision 012; server/index.ts chooses it). It only
 * supervises, in little memory: a first child (`prepare`) reads and checks the
 * configuration, migrates and seeds, and hands back the few settings the primary needs; then the
 * primary forks WEB_CONCURRENCY workers, replaces one that dies, and stops them all gracefully on
 * SIGTERM. It loads neither the site, nor the database, nor the configuration's schema.
 *
 * The primary holds the listening socket and hands each connection to a worker
 * (server/http/cluster-listener.ts), so that it can stop listening before the workers stop taking
 * connections (decision 020): on SIGTERM the workers answer /readyz 503 and keep serving for
 * DRAIN_SECONDS; then the primary stops listening and tells them when the last connection it
 * accepted has been handed over.
 */
import cluster from "node:cluster";
import { fileURLToPath } from "node:url";
import { listenForWorkers, STOP_TIMEOUT_MS } from "./http/cluster-listener";
import { createLogger, flushLogs, logsWritten, type Logger } from "./logger";

/** The variable that tells a cluster's child what it is for; `prepare`: migrate and seed, then exit. */
export const PROCESS_ROLE = "MUSEUM_PROCESS_ROLE";
export const PREPARE = "prepare";
/** The prepare child's message with the settings, checked. */
export const SETTINGS = "museum:settings";

/** What the primary needs of the configuration, read and checked by its prepare child. */
export interface PrimarySettings {
  PORT: number;
  HOST: string;
  DRAIN_SECONDS: number;
  LOG_LEVEL: string;
  /** METRICS_TOKEN is set: the workers' /metrics asks the primary for the whole cluster's figures. */
  metrics: boolean;
}

/**
 * Forks the `prepare` child (compiled entry) and resolves with its settings once it has exited 0,
 * or null when it failed (it said why itself). Also used on PGlite for a new data directory
 * (server/serving-process.ts).
 */
export function preparedInChild(): Promise<PrimarySettings | null> {
  // A child runs the compiled entry itself, not whatever started this process (scripts/start.mjs).
  cluster.setupPrimary({ exec: fileURLToPath(new URL("./index.js", import.meta.url)) });
  return new Promise((resolve) => {
    let settings: PrimarySettings | null = null;
    const child = cluster.fork({ [PROCESS_ROLE]: PREPARE });
    child.on("message", (message: { type?: string; settings?: PrimarySettings }) => {
      if (message?.type === SETTINGS && message.settings) settings = message.settings;
    });
    child.once("exit", (code) => resolve(code === 0 ? settings : null));
  });
}

export async function runPrimary(count: number): Promise<void> {
  const settings = await preparedInChild();
  if (!settings) {
    console.error("Not starting: the database could not be prepared (see above).");
    process.exit(1);
  }
  const log = createLogger(settings.LOG_LEVEL);
  const drainMs = settings.DRAIN_SECONDS * 1000;
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    void logsWritten(log).then(() => {
      flushLogs(log);
      process.exit(code);
    });
  };
  process.on("uncaughtException", (error, origin) => {
    log.fatal({ err: error, origin, pid: process.pid }, "uncaught error; exiting");
    flushLogs(log);
    process.exit(1);
  });
  log.info({ workers: count }, "starting one worker per core");
  supervise(count, settings, drainMs, log, exit);
}

function supervise(count: number, settings: PrimarySettings, drainMs: number, log: Logger, exit: (code: number) => void) {
  let stopping = false;
  // Workers ask here for the whole cluster's /metrics; worker restarts are counted here (decision 021).
  // Loaded only when /metrics is on: prom-client is a tenth of a small primary's memory.
  const clusterMetrics = settings.metrics ? import("./metrics/cluster-metrics").then((m) => m.serveClusterMetrics()) : null;
  const recentDeaths: number[] = [];
  // Our own count: cluster.workers may still list a worker whose 'exit' came before its 'disconnect'.
  const alive = new Set<number>();
  // The primary holds the listening socket and hands each connection to a worker (decision 020).
  const listener = listenForWorkers({ port: settings.PORT, host: settings.HOST, log });
  const fork = () => alive.add(cluster.fork().id);
  for (let i = 0; i < count; i++) fork();

  cluster.on("exit", (worker, code, signal) => {
    if (!alive.delete(worker.id)) return;
    if (stopping) {
      log.info({ pid: worker.process.pid, workerId: worker.id, code, signal: signal ?? null }, "worker stopped");
      if (alive.size === 0) {
        log.info("stopped");
        exit(0);
      }
      return;
    }
    // code: the exit code (null when killed by a signal); signal: the signal's name (or null).
    log.error({ pid: worker.process.pid, workerId: worker.id, code, signal: signal ?? null }, "worker died; starting another");
    void clusterMetrics?.then((m) => m.workerRestarted());
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length && recentDeaths[0] < now - 60_000) recentDeaths.shift();
    // A worker that cannot stay up (a broken database URL, a bad build) must not fork forever.
    if (recentDeaths.length > count * 5) {
      log.fatal({ deaths: recentDeaths.length }, "workers keep dying; giving up");
      exit(1);
      return;
    }
    // Not unref'd: with every worker dead, this timer is what keeps the primary alive.
    setTimeout(() => {
      if (!stopping) fork();
    }, Math.min(5_000, 200 * recentDeaths.length));
  });

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, drainSeconds: settings.DRAIN_SECONDS }, "shutting down workers");
    if (alive.size === 0) return exit(0);
    // The workers report not ready and keep serving; after the drain the primary stops listening
    // and tells them when the last connection it accepted has been handed over.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => {
      log.info("no longer listening");
      void listener.close();
    }, drainMs);
    setTimeout(() => {
      log.error("workers did not stop in time");
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      exit(1);
    }, drainMs + STOP_TIMEOUT_MS + 2_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
