/**
 * Production entry (compiled to build/host/index.js by `npm run build`): boots the services,
 * serves the built site, and shuts down cleanly on SIGTERM/SIGINT.
 *
 * On PostgreSQL it uses every core (decision 012): the primary process migrates and seeds once,
 * then forks WEB_CONCURRENCY workers (default: the core count) that share the port; a worker
 * that dies is replaced, and SIGTERM stops them all gracefully. PGlite is one process's
 * database: the site is one process (decision 043). Visitors' pages are made to be kept by the
 * HTTP cache in front (decision 054), not by a second process of ours.
 *
 * Stored visitor pages are answered by the plain Node server before Express sees the request
 * (`serveStoredPage`); everything else goes through the Express app.
 *
 * In a cluster the primary holds the listening socket and hands each connection to a worker
 * (server/http/cluster-listener.ts), so that it can stop listening before the workers stop taking
 * connections. Stopping drains first (decision 020): on SIGTERM a serving process answers /readyz
 * 503 and keeps serving for DRAIN_SECONDS; then listening stops (every connection accepted until
 * then is still answered), what comes on the open connections is answered with
 * `Connection: close` (so the proxy stops reusing them) until the proxy has closed them all, and
 * the process exits (STOP_TIMEOUT_MS at most after the drain). An uncaught error is logged as one
 * JSON line (level fatal, with its stack) before the process exits.
 */
import cluster from "node:cluster";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig, type Config } from "./config";
import { DataDirInUseError } from "./db/data-dir-lock";
import { createLogger, flushLogs, logsWritten, type Logger } from "./logger";
import { listenForWorkers, serveFromPrimary } from "./http/cluster-listener";

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

/** How long a stopping process waits for in-flight requests, after draining, before it gives up. */
const STOP_TIMEOUT_MS = 10_000;
const DRAIN_MS = config.DRAIN_SECONDS * 1000;

const logger = createLogger(config.LOG_LEVEL);

// An error nothing caught (or a rejection nothing handled) leaves the process in an unknown state:
// it is written as one JSON line, synchronously, and the process exits (a cluster's primary
// replaces the worker). `origin` says which of the two it was.
process.on("uncaughtException", (error, origin) => {
  const err = error instanceof Error ? error : new Error(`non-error thrown: ${String(error)}`);
  logger.fatal({ err, origin, pid: process.pid, worker: cluster.worker?.id }, "uncaught error; exiting");
  exitNow(1);
});
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** The variable that tells a cluster's child what it is for; `prepare`: migrate and seed, then exit. */
const ROLE = "MUSEUM_PROCESS_ROLE";
const PREPARE = "prepare";

/** WEB_CONCURRENCY, checked like the other variables: workers on PostgreSQL, one process on PGlite. */
function workerCount(): number {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  let wanted = availableParallelism();
  if (raw) {
    wanted = Number(raw);
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > 256) {
      console.error(`Invalid environment variables:\n  WEB_CONCURRENCY: a whole number of worker processes from 1 to 256 (got "${raw}")`);
      process.exit(1);
    }
  }
  if (!config.DATABASE_URL) {
    if (raw && wanted > 1) logger.warn({ WEB_CONCURRENCY: wanted }, "PGlite is one process's database: running one process (set DATABASE_URL for more workers)");
    return 1;
  }
  return wanted;
}

/** Exits once the lines logged so far are out, in their order (at most a second); `exitNow` does not wait. */
let exiting = false;
function exit(code: number): void {
  if (exiting) return;
  exiting = true;
  void logsWritten(logger).then(() => exitNow(code));
}

function exitNow(code: number): never {
  flushLogs(logger);
  process.exit(code);
}

/**
 * The primary of a cluster (PostgreSQL): migrate and seed once, in a process of its own, then keep
 * `count` workers running. The primary itself loads neither the site nor the database (issue 36:
 * it only supervises, in little memory).
 */
async function runPrimary(count: number, log: Logger) {
  // Workers run this compiled entry itself, not whatever started the primary (scripts/start.mjs).
  cluster.setupPrimary({ exec: here("./index.js") });
  const prepared = await new Promise<number>((resolve) => cluster.fork({ [ROLE]: PREPARE }).once("exit", (code) => resolve(code ?? 1)));
  if (prepared !== 0) {
    log.fatal({ code: prepared }, "not starting: the database could not be prepared");
    return exit(1);
  }
  log.info({ workers: count }, "starting one worker per core");

  let stopping = false;
  // Workers ask here for the whole cluster's /metrics; worker restarts are counted here (decision 021).
  // Loaded only when /metrics is on (METRICS_TOKEN): prom-client is a tenth of a small primary's memory.
  const clusterMetrics = config.METRICS_TOKEN ? (await import("./metrics/cluster-metrics")).serveClusterMetrics() : null;
  const recentDeaths: number[] = [];
  // Our own count: cluster.workers may still list a worker whose 'exit' came before its 'disconnect'.
  const alive = new Set<number>();
  // The primary holds the listening socket and hands each connection to a worker (decision 020).
  const listener = listenForWorkers({ port: config.PORT, host: config.HOST, log });
  const fork = () => alive.add(cluster.fork().id);
  for (let i = 0; i < count; i++) fork();

  cluster.on("exit", (worker, code, signal) => {
    alive.delete(worker.id);
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
    clusterMetrics?.workerRestarted();
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
    log.info({ signal, drainSeconds: config.DRAIN_SECONDS }, "shutting down workers");
    if (alive.size === 0) return exit(0);
    // The workers report not ready and keep serving; after the drain the primary stops listening
    // and tells them when the last connection it accepted has been handed over.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(() => {
      log.info("no longer listening");
      void listener.close();
    }, DRAIN_MS);
    setTimeout(() => {
      log.error("workers did not stop in time");
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      exit(1);
    }, DRAIN_MS + STOP_TIMEOUT_MS + 2_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** One serving process: the whole site (a cluster worker, or the only process on PGlite). */
async function runServer(log: Logger) {
  const [{ boot }, { createApp }, { openSiteChannel }] = await Promise.all([import("./boot"), import("./app"), import("./backup/site-channel")]);
  const services = await boot({ config, logger: log, migrationsFolder: here("../../drizzle") });
  const build = (await import(new URL("../server/index.js", import.meta.url).href)) as ServerBuild;
  let draining = false;
  let listening = true;
  // Not ready once asked to stop, or once the primary has stopped listening (it may say so before
  // this worker's own SIGTERM arrives).
  const app = createApp({ services, build, clientDir: here("../client"), draining: () => draining || !listening });
  await services.catalogChanges.start();
  services.outbox.start();
  services.housekeeping.start();
  services.publisher.start();
  // Backups on the schedule; on PGlite, `npm run backup` asks this process over its local channel (decision 046).
  services.backups.start();
  const siteChannel = services.database.kind === "pglite" ? await openSiteChannel(config.DATA_DIR, { backup: () => services.backups.take("manual") }, log) : null;

  // Stored pages first, straight from Node's HTTP server (signed-in people after their session is checked); the rest through Express.
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    services.traffic.track(res);
    const served = app.serveStoredPage(req, res);
    if (served === false) app(req, res);
    else if (served !== true) served.then((done) => done || app(req, res), () => app(req, res));
  };
  const server = createServer((req, res) => {
    // Stopping: the proxy must not send another request on this connection (decision 020).
    if (!listening) res.setHeader("Connection", "close");
    answer(req, res);
  });
  const started = () => {
    // The home page and its neighbours rendered ahead, so the first visitor after a deploy does not
    // wait for a render (each worker has its own page cache).
    const primeStarted = Date.now();
    void app.pageRefresh.primeAtStart().then(() => log.info({ ms: Date.now() - primeStarted }, "pages rendered ahead"));
    // The renditions pages use, once the site answers; one worker per machine (they share the cache folder).
    if (config.WARM_RENDITIONS && (cluster.worker?.id ?? 1) === 1) services.renditionWarmer.start();
  };

  let stopped = false;
  /** After the last connection: the background work stops, then the process exits 0. */
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await services.catalogChanges.stop();
    await app.pageRefresh.stop();
    await services.renditionWarmer.stop();
    await services.outbox.stop();
    await services.cachePurge?.stop();
    await services.housekeeping.stop();
    await services.publisher.stop();
    await siteChannel?.close();
    await services.backups.stop();
    await services.database.close();
    log.info("stopped");
    exit(0);
  };

  async function shutdown(signal: string) {
    if (draining) {
      // A person pressing Ctrl-C a second time does not want to wait for the drain.
      if (signal === "SIGINT") {
        log.warn("second interrupt: stopping now");
        exit(130);
      }
      return;
    }
    draining = true;
    log.info({ signal, drainSeconds: config.DRAIN_SECONDS }, "draining: not ready, still serving");
    exitIfNotDoneIn(log, DRAIN_MS + STOP_TIMEOUT_MS);
    // A proxy that asks /readyz stops sending new connections meanwhile; nginx goes on reusing its
    // keep-alive connections. In a cluster the primary times the drain and stops listening.
    if (cluster.isWorker) return;
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
    stopListening();
  }
  /** Each connection ends after its next answer (Connection: close); exits once none is left. */
  let stopListening: () => void = () => undefined;
  // Before the worker says it is ready (or the process listens): a SIGTERM with no handler ends the
  // process at once, with the connections it was being given.
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  if (cluster.isWorker) {
    // The primary listens and hands connections over (server/http/cluster-listener.ts); it says
    // when it has stopped listening and handed over the last one.
    const fromPrimary = serveFromPrimary(server, {
      listening: (port) => log.info({ port, url: config.PUBLIC_URL }, `museum site listening on http://localhost:${port}`),
      noMore: () => {
        if (!listening) return;
        listening = false;
        whenConnectionsEnd(log, () => fromPrimary.open() === 0, () => void stop());
      },
    });
    fromPrimary.ready();
    started();
  } else {
    server.listen(config.PORT, config.HOST, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.PORT;
      log.info({ port, url: config.PUBLIC_URL }, `museum site listening on http://localhost:${port}`);
      started();
    });
    stopListening = () => {
      log.info("no longer listening; closing each connection after its answer");
      listening = false;
      // net.Server's close, not http.Server's: Node's own also closes idle keep-alive connections at
      // once, racing a proxy about to send a POST on one (nginx answers 502 and does not retry a
      // POST). Instead each connection ends after its next answer (Connection: close), and one left
      // idle is closed by the proxy first (its keepalive_timeout, 4 s, is below Node's 5 s). In the
      // check phase, right after the poll phase accepted what the kernel had queued: a connection
      // still in the kernel's queue when the socket closes is reset.
      setImmediate(() => net.Server.prototype.close.call(server, () => void stop()));
    };
  }
}

/** Exits 1 if the process is still running `ms` from now (requests that do not end). */
function exitIfNotDoneIn(log: Logger, ms: number) {
  return setTimeout(() => {
    log.error("requests did not finish in time");
    exit(1);
  }, ms).unref();
}

/**
 * A worker after the primary's last connection (each connection now ends after its answer):
 * `then` once `done()` holds (no connection left, and whatever else the worker waits for), or
 * exit 1 after STOP_TIMEOUT_MS.
 */
function whenConnectionsEnd(log: Logger, done: () => boolean, then: () => void) {
  log.info("no longer listening; closing each connection after its answer");
  exitIfNotDoneIn(log, STOP_TIMEOUT_MS);
  const check = setInterval(() => {
    if (!done()) return;
    clearInterval(check);
    then();
  }, 50);
}

/** A cluster's first child: migrates and seeds (`boot`), then exits 0 (the primary then forks the workers). */
async function prepare(log: Logger) {
  const { boot } = await import("./boot");
  const services = await boot({ config, logger: log, migrationsFolder: here("../../drizzle") });
  await services.database.close();
  exit(0);
}

try {
  if (cluster.isPrimary) {
    const count = workerCount();
    if (count > 1) await runPrimary(count, logger);
    else await runServer(logger);
  } else if (process.env[ROLE] === PREPARE) await prepare(logger.child({ role: PREPARE }));
  else await runServer(logger.child({ worker: cluster.worker?.id }));
} catch (error) {
  // Another process has the embedded database open (decision 043), or a migration failed
  // (decision 046): said in words, not a stack.
  if (error instanceof Error && error.name === "MigrationFailedError") {
    logger.fatal({ err: error }, "not starting: the database could not be migrated");
    console.error(error.message);
    exit(1);
  } else {
    if (!(error instanceof DataDirInUseError)) throw error;
    logger.fatal({ dataDir: error.dir, holder: error.holder }, "the embedded database is open in another process; not starting");
    console.error(error.message);
    exit(1);
  }
}
