/**
 * The real Express app and React Router build over a test database, listening on a free port.
 * Requires `npm run build` (the test script builds before running the suites).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import type { ServerBuild } from "react-router";
import { createApp } from "../../server/app";
import { createRouteResolver, type RouteResolver } from "../../server/http/route-policy";
import { loadConfig, type Config } from "../../server/config";
import { createLogger, type Logger } from "../../server/logger";
import { createServices, type Services } from "../../server/services";
import type { PaymentProvider } from "../../server/payments/provider";
import { seedCollection } from "../../server/db/seed/seed-collection";
import { openTestDatabase, type DriverKind, type TestDatabase } from "./databases";

const SERVER_BUILD = path.resolve("build/server/index.js");

/**
 * A logger at info whose JSON lines are kept in `lines`, for a test that reads what was logged
 * (split by line: a destination may carry several lines in one write).
 */
export function capturedLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line) lines.push(`${line}\n`);
      done();
    },
  });
  return { logger: pino({ level: "info" }, sink), lines };
}

export async function loadServerBuild(): Promise<ServerBuild> {
  if (!existsSync(SERVER_BUILD)) throw new Error("build/server/index.js is missing: run `npm run build` first");
  return (await import(pathToFileURL(SERVER_BUILD).href)) as ServerBuild;
}

/** What the host resolves for a request (route id and policy, decision 022), over the built route table. */
export async function routeResolver(): Promise<RouteResolver> {
  return createRouteResolver(await loadServerBuild());
}

export interface TestServer {
  url: string;
  services: Services;
  database: TestDatabase;
  config: Config;
  /** Resolves once the stored pages a change made stale have been rendered again (decision 038). */
  pagesRefreshed(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(
  kind: DriverKind,
  env: Record<string, string> = {},
  /** `listen`: start the catalog change feed (LISTEN/NOTIFY), as the production host does. */
  /** `paymentProvider`: replaces the one chosen from config (a slow or counting stand-in). */
  options: { now?: () => Date; logger?: Logger; seed?: boolean; listen?: boolean; paymentProvider?: PaymentProvider } = {},
): Promise<TestServer> {
  const database = await openTestDatabase(kind, { retrySeconds: env.DB_RETRY_SECONDS === undefined ? undefined : Number(env.DB_RETRY_SECONDS) });
  const dataDir = mkdtempSync(path.join(tmpdir(), "museum-test-"));
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", RATE_LIMIT_RELAXED: "true", DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}), ...env });
  const services = createServices({
    config,
    database: database.handle,
    logger: options.logger ?? createLogger("silent"),
    sessionSecret: "test-secret-test-secret-test-secret-0123",
    now: options.now,
    paymentProvider: options.paymentProvider,
  });
  if (options.seed) await seedCollection({ db: database.handle.db, media: services.images });
  if (options.listen) await services.catalogChanges.start();
  const app = createApp({ services, build: await loadServerBuild(), clientDir: path.resolve("build/client") });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    database,
    config,
    pagesRefreshed: () => app.pageRefresh.settled(),
    async close() {
      await services.catalogChanges.stop();
      await app.pageRefresh.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test server for one `describe` block: started before its tests and closed after them, with a
 * clock the tests move (`suite.clock.now`) and `post`, a JSON POST to a path of the server.
 */
export function serverForSuite(kind: DriverKind, options: { listen?: boolean } = {}) {
  const suite = {
    clock: { now: new Date() },
    server: undefined as unknown as TestServer,
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${suite.server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }),
  };
  beforeAll(async () => {
    suite.server = await startTestServer(kind, {}, { now: () => suite.clock.now, ...options });
  });
  afterAll(() => suite.server?.close());
  return suite;
}

/** The request init of a form post (a browser's urlencoded POST) of `fields`. */
export const form = (fields: Record<string, string>) => ({
  method: "POST",
  body: new URLSearchParams(fields),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});
