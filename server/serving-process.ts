/**
 * A serving process (server/index.ts chooses it): the whole site, as a cluster worker on
 * PostgreSQL or as the only process on PGlite; or a cluster's `prepare` child, which migrates and
 * seeds before the workers start. Boots the services, serves the built site, and shuts down cleanly
 * on SIGTERM/SIGINT.
 *
 * Stored visitor pages are answered by the plain Node server before Express sees the request
 * (`serveStoredPage`); everything else goes through the Express app.
 *
 * Stopping drains first (decision 020): on SIGTERM a serving process answers /readyz 503 and keeps
 * serving for DRAIN_SECONDS; then listening stops (every connection accepted until then is still
 * answered), what comes on the open connections is answered with `Connection: close` (so the
 * proxy stops reusing them) until the proxy has closed them all, and the process exits
 * (STOP_TIMEOUT_MS at most after the drain). In a cluster the primary
 * (server/cluster-primary.ts) times the drain and stops listening. An uncaught error is logged as
 * one JSON line (level fatal, with its stack) before the process exits.
 */
import cluster from "node:cluster";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig, type Config } from "./config";
import { isNewPgliteDirectory } from "./db/client";
import { DataDirInUseError } from "./db/data-dir-lock";
import { createLogger, flushLogs, logsWritten, type Logger } from "./logger";
import { serveFromPrimary, STOP_TIMEOUT_MS } from "./http/cluster-listener";
import { PREPARE, PROCESS_ROLE, SETTINGS, preparedInChild, type PrimarySettings } from "./cluster-primary";

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
  services.visits.start();
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
    // The views counted since the last flush (decision 060): a graceful stop loses none.
    await services.visits.stop();
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

/**
 * A cluster's first child: migrates and seeds (`boot`), tells the primary the settings it needs
 * (read and checked here, so the primary never loads the configuration's schema), then exits 0.
 */
async function prepare(log: Logger) {
  const { boot } = await import("./boot");
  const services = await boot({ config, logger: log, migrationsFolder: here("../../drizzle") });
  await services.database.close();
  const settings: PrimarySettings = { PORT: config.PORT, HOST: config.HOST, DRAIN_SECONDS: config.DRAIN_SECONDS, LOG_LEVEL: config.LOG_LEVEL, metrics: Boolean(config.METRICS_TOKEN) };
  process.send?.({ type: SETTINGS, settings }, undefined, () => exit(0));
}

/**
 * A first start on PGlite creates the database, migrates and loads the demo collection in a
 * child that then exits, as a cluster's `prepare` child does: PGlite's WebAssembly memory never
 * shrinks, and what creating the database and the seed's image work took would otherwise stay
 * resident in the serving process for its whole life (decision 066). False when it failed (the
 * child said why).
 */
async function preparedNewDataDirectory(): Promise<boolean> {
  if (config.DATABASE_URL || !isNewPgliteDirectory(config.DATA_DIR)) return true;
  return (await preparedInChild()) !== null;
}

try {
  if (cluster.isPrimary) {
    if (process.env.WEB_CONCURRENCY && Number(process.env.WEB_CONCURRENCY) > 1 && !config.DATABASE_URL) logger.warn({ WEB_CONCURRENCY: Number(process.env.WEB_CONCURRENCY) }, "PGlite is one process's database: running one process (set DATABASE_URL for more workers)");
    if (await preparedNewDataDirectory()) await runServer(logger);
    else {
      console.error("Not starting: the database could not be prepared (see above).");
      exit(1);
    }
  } else if (process.env[PROCESS_ROLE] === PREPARE) await prepare(logger.child({ role: PREPARE }));
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
