/**
 * GET /metrics (decision 021): a 404 unless METRICS_TOKEN is set; then 401 without the
 * token or with a wrong one, and the Prometheus text with it: request durations by route id and
 * status class (never the raw path), the outbox backlog read at scrape time, the pool, the
 * change feed's LISTEN connection, worker restarts, page-cache hits/misses, process metrics.
 * With node:cluster (the compiled host on PostgreSQL, two workers) a scrape returns the whole
 * cluster's numbers, and a killed worker counts as a restart.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordRequestDurations, registry } from "../../server/metrics/metrics";
import { enqueue } from "../../server/outbox/outbox";
import { availableDrivers, createPostgresDatabase } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const TOKEN = "metrics-token-0123456789abcdef";

/** The value of an unlabelled sample, or of the first sample whose labels contain `labels`. */
function value(text: string, name: string, labels = ""): number {
  const line = text.split("\n").find((l) => (l.startsWith(`${name} `) || l.startsWith(`${name}{`)) && l.includes(labels));
  expect(line, `${name}${labels}`).toBeDefined();
  return Number(line!.split(" ").at(-1));
}

describe("metrics turned off", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("pglite");
  });
  afterAll(() => server?.close());

  it("answers /metrics with a 404 when METRICS_TOKEN is not set, even with a token", async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("http_request_duration_seconds");
  });
});

describe.each(drivers)("metrics on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { METRICS_TOKEN: TOKEN, PAGE_CACHE_SECONDS: "0" }, { listen: true });
  });
  afterAll(() => server?.close());

  const scrape = (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
  async function metrics(): Promise<string> {
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    return res.text();
  }

  it("refuses a scrape without the token or with a wrong one (401)", async () => {
    const none = await scrape();
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.text()).toBe("Metrics need the header Authorization: Bearer <METRICS_TOKEN>.");
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await scrape(`Bearer ${TOKEN.slice(0, -1)}`)).status).toBe(401);
    expect((await scrape(`Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`)).status).toBe(401);
  });

  it("answers the Prometheus text with every metric the issue names", async () => {
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      "http_request_duration_seconds",
      "museum_outbox_pending",
      "museum_outbox_oldest_pending_age_seconds",
      "museum_outbox_emails_retried",
      "museum_outbox_dead",
      "museum_db_pool_connections",
      "museum_db_pool_idle_connections",
      "museum_db_pool_waiting_requests",
      "museum_change_feed_up",
      "museum_worker_restarts_total",
      "museum_page_cache_requests_total",
      "museum_page_cache_refreshes_total",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(value(text, "museum_change_feed_up")).toBe(1);
    expect(value(text, "museum_worker_restarts_total")).toBe(0);
    if (kind === "postgres") expect(value(text, "museum_db_pool_connections")).toBeGreaterThanOrEqual(1);
  });

  it("counts a request in the duration histogram by route and status class, never by raw path", async () => {
    expect((await fetch(`${server.url}/api/teams`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/no-such-thing-4711`)).status).toBe(404);
    // Read to the end: a page is streamed, and counted once its last byte is sent.
    const notFound = await fetch(`${server.url}/no-such-page-4711`);
    await notFound.text();
    expect(notFound.status).toBe(404);
    const text = await metrics();
    // Labels are the route that matched (decision 022): a bounded set, whatever the address said.
    expect(value(text, "http_request_duration_seconds_count", 'route="api:GET /api/teams",status_class="2xx"')).toBeGreaterThanOrEqual(1);
    expect(value(text, "http_request_duration_seconds_count", 'route="api:unmatched",status_class="4xx"')).toBeGreaterThanOrEqual(1);
    expect(value(text, "http_request_duration_seconds_count", 'route="routes/not-found",status_class="4xx"')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain("no-such");
  });

  it("moves the outbox gauges when a job is queued and when it is done", async () => {
    const before = value(await metrics(), "museum_outbox_pending");
    await enqueue(server.services.database.db, { kind: "email", payload: { to: "fan@example.com", subject: "Hi", text: "Hello", purpose: "test" } }, new Date(Date.now() - 90_000));
    // Scrapes within a second share one reading of the outbox.
    await new Promise((r) => setTimeout(r, 1_100));
    const queued = await metrics();
    expect(value(queued, "museum_outbox_pending")).toBe(before + 1);
    expect(value(queued, "museum_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(89);
    for (let i = 0; i < 20 && (await server.services.outbox.runOnce()) > 0; i++);
    await new Promise((r) => setTimeout(r, 1_100));
    const done = await metrics();
    expect(value(done, "museum_outbox_pending")).toBe(0);
    expect(value(done, "museum_outbox_oldest_pending_age_seconds")).toBe(0);
  });
});

describe("route labels", () => {
  it("labels a request with the route id the page handler left in res.locals.routeId", async () => {
    const app = express();
    app.use(recordRequestDurations);
    app.get("/exhibits/:id", (_req, res) => {
      res.locals.routeId = "routes/exhibit";
      res.send("ok");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    expect((await fetch(`http://127.0.0.1:${port}/exhibits/clemente-1971`)).status).toBe(200);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const text = await registry.metrics();
    expect(text).toMatch(/http_request_duration_seconds_count\{route="routes\/exhibit",status_class="2xx"\} 1/);
    expect(text).not.toContain("clemente");
  });
});

/** A GET on a fresh connection (so the cluster's round robin spreads the requests over the workers). */
function getFresh(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    }).on("error", reject);
  });
}

describe.runIf(drivers.includes("postgres"))("metrics of a cluster (compiled host, two workers)", () => {
  it("answers the whole cluster's numbers on any worker and counts a killed worker as a restart", async () => {
    const database = await createPostgresDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), "museum-metrics-"));
    const host = spawn(process.execPath, [path.resolve("build/host/index.js")], {
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        WARM_RENDITIONS: "false",
        DATABASE_URL: database.url,
        SESSION_SECRET: "metrics-cluster-secret-metrics-cluster-secret",
        WEB_CONCURRENCY: "2",
        // Cluster workers that listen on port 0 share the one port the primary picks.
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        SEED_DEMO: "false",
        METRICS_TOKEN: TOKEN,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    host.stdout.on("data", (d) => (out += d));
    host.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => host.on("exit", (code) => resolve(code)));
    const listening = async (n: number) => {
      for (let i = 0; i < 600 && (out.match(/museum site listening/g) ?? []).length < n; i++) await new Promise((r) => setTimeout(r, 100));
      expect((out.match(/museum site listening/g) ?? []).length, out).toBeGreaterThanOrEqual(n);
    };
    const port = () => Number(/"port":(\d+)/.exec(out)?.[1]);
    const scrape = async () => {
      const res = await getFresh(`http://127.0.0.1:${port()}/metrics`, { authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(200);
      return res.text;
    };
    try {
      await listening(2);
      for (let i = 0; i < 40; i++) expect((await getFresh(`http://127.0.0.1:${port()}/api/teams`)).status).toBe(200);
      // Each worker served about half; every scrape, whichever worker answers it, counts all 40.
      for (let i = 0; i < 4; i++) expect(value(await scrape(), "http_request_duration_seconds_count", 'route="api:GET /api/teams",status_class="2xx"')).toBe(40);
      // Stored visitor pages answered before Express (the host's fast path) are counted like the rest.
      for (let i = 0; i < 20; i++) expect((await getFresh(`http://127.0.0.1:${port()}/about`)).status).toBe(200);
      expect(value(await scrape(), "http_request_duration_seconds_count", 'route="routes/about",status_class="2xx"')).toBe(20);
      const text = await scrape();
      expect(value(text, "museum_worker_restarts_total")).toBe(0);
      expect(value(text, "museum_change_feed_up")).toBe(1);
      expect(value(text, "museum_db_pool_connections")).toBeGreaterThanOrEqual(2);
      expect(text.match(/^# TYPE http_request_duration_seconds /gm)).toHaveLength(1);
      // A worker killed: the primary replaces it and counts it.
      const workers = spawnSync("ps", ["--ppid", String(host.pid), "-o", "pid="], { encoding: "utf8" }).stdout.trim().split(/\s+/).map(Number);
      expect(workers).toHaveLength(2);
      process.kill(workers[0], "SIGKILL");
      await listening(3);
      expect(value(await scrape(), "museum_worker_restarts_total")).toBe(1);
      host.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (host.exitCode === null) host.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    }
  }, 90_000);
});
