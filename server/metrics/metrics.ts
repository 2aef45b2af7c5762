/**
 * The site's Prometheus metrics (prom-client, decision 021): one registry per process with the
 * request-duration histogram, the outbox backlog read from the database at scrape time, the
 * database pool, the change feed's LISTEN connection, worker restarts, page-cache hits and
 * misses, and prom-client's default process metrics. In a cluster each gauge says how the
 * primary adds the workers' values up (`aggregator`), see cluster-metrics.ts.
 */
import cluster from "node:cluster";
import { sql } from "drizzle-orm";
import type { RequestHandler, Response } from "express";
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram } from "prom-client";
import type { DatabaseHandle } from "../db/client";
import { queryRows } from "../db/client";
import { latestBackups } from "../backup/backup-service";

// The registry and the restarts counter live in registry.ts: a cluster's primary needs only them.
import { registry } from "./registry";
export { registry } from "./registry";

/** What the scrape-time gauges read: the process's database and change feed. */
export interface MetricsSources {
  database: Pick<DatabaseHandle, "db" | "poolStats">;
  changeFeed: { readonly listening: boolean };
}
let sources: MetricsSources | null = null;

/** Route labels without a React Router route id: a fixed set, so labels stay bounded (never the raw path). */
function routeLabel(path: string, res: Response): string {
  const id = res.locals.routeId;
  if (typeof id === "string" && id.length > 0 && id.length <= 100) return id;
  if (path.startsWith("/api/") || path === "/api") return "api";
  if (path.startsWith("/images/")) return "images";
  if (path.startsWith("/assets/")) return "assets";
  return "other";
}

const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer, by route id and status class.",
  labelNames: ["route", "status_class"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * Times an answer sent before Express (a stored page, server/app.ts `serveStoredPage`), so that
 * the histogram counts every answer the process gives.
 */
export function observeAnswer(route: string, statusCode: number, startedAt: bigint): void {
  httpDuration.observe({ route, status_class: `${Math.floor(statusCode / 100)}xx` }, Number(process.hrtime.bigint() - startedAt) / 1e9);
}

/** Times every answer the Express app sends (stored pages answered before Express: `observeAnswer`). */
export const recordRequestDurations: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  // Taken now: a mounted router shortens req.path while it runs.
  const path = req.path;
  res.once("finish", () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    httpDuration.observe({ route: routeLabel(path, res), status_class: `${Math.floor(res.statusCode / 100)}xx` }, seconds);
  });
  next();
};

const pageCacheRequests = new Counter({
  name: "museum_page_cache_requests_total",
  help: "Visitor pages answered from the page cache (hit) or rendered for it (miss).",
  labelNames: ["result"] as const,
  registers: [registry],
});
/** Counts one page-cache lookup: HIT, or MISS/BYPASS (rendered). */
export function countPageCache(cache: "HIT" | "MISS" | "BYPASS"): void {
  pageCacheRequests.inc({ result: cache === "HIT" ? "hit" : "miss" });
}

const pageCacheRefreshes = new Counter({
  name: "museum_page_cache_refreshes_total",
  help: "Stored pages rendered again in the background, after a collection change or past PAGE_CACHE_SECONDS.",
  labelNames: ["reason"] as const,
  registers: [registry],
});
/** Counts one background render of a stored page (decision 038). */
export function countPageRefresh(reason: "change" | "expired"): void {
  pageCacheRefreshes.inc({ reason });
}

export const outboxLeaseLost = new Counter({
  name: "museum_outbox_done_after_lease_lost_total",
  help: "Outbox jobs finished by a worker after another had taken them over (each may have run twice).",
  labelNames: ["kind"] as const,
  registers: [registry],
});

interface OutboxSnapshot {
  pending: number;
  oldestSeconds: number;
  dead: number;
  retried: number;
}
let snapshot: { at: number; value: Promise<OutboxSnapshot | null> } | null = null;

/** The outbox's numbers, one read per scrape (every gauge of a scrape shares it); null when the database does not answer within 2 s. */
function outboxSnapshot(): Promise<OutboxSnapshot | null> {
  if (snapshot && Date.now() - snapshot.at < 1_000) return snapshot.value;
  const db = sources?.database.db;
  if (!db) return Promise.resolve(null);
  const read = async (): Promise<OutboxSnapshot> => {
    // Both use outbox_due_idx (status first); the retried count reads the kept rows (7 days of delivered mail).
    const [backlog] = await queryRows<{ pending: number; oldest: number | null; dead: number }>(
      db,
      sql`select count(*) filter (where status <> 'dead')::int as pending,
            extract(epoch from (now() - min(created_at) filter (where status <> 'dead')))::float8 as oldest,
            count(*) filter (where status = 'dead')::int as dead
          from outbox where status in ('pending', 'sending', 'dead')`,
    );
    const [retried] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from outbox where kind in ('email', 'reminder') and attempts > 1`);
    return { pending: backlog.pending, oldestSeconds: Math.max(0, backlog.oldest ?? 0), dead: backlog.dead, retried: retried.n };
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 2_000)));
  const value = Promise.race([read(), timeout])
    .catch(() => null)
    .finally(() => clearTimeout(timer));
  snapshot = { at: Date.now(), value };
  return value;
}

/** A gauge read from the outbox at scrape time; NaN when the database did not answer. Workers agree, so the cluster takes the max. */
function outboxGauge(name: string, help: string, pick: (s: OutboxSnapshot) => number) {
  return new Gauge({
    name,
    help,
    aggregator: "max",
    registers: [registry],
    async collect() {
      const s = await outboxSnapshot();
      this.set(s ? pick(s) : Number.NaN);
    },
  });
}
outboxGauge("museum_outbox_pending", "Outbox jobs not yet done (waiting, retrying or being sent).", (s) => s.pending);
outboxGauge("museum_outbox_oldest_pending_age_seconds", "Age of the oldest outbox job not yet done (0 when none).", (s) => s.oldestSeconds);
outboxGauge("museum_outbox_dead", "Outbox jobs given up after every retry (kept 30 days).", (s) => s.dead);
outboxGauge("museum_outbox_emails_retried", "Emails in the outbox (delivered ones are kept 7 days) that took more than one attempt.", (s) => s.retried);

/** A pool gauge: each worker's own pool, summed over the cluster; 0 on PGlite (no pool). */
function poolGauge(name: string, help: string, pick: (s: { total: number; idle: number; waiting: number }) => number) {
  return new Gauge({
    name,
    help,
    aggregator: "sum",
    registers: [registry],
    collect() {
      const stats = sources?.database.poolStats();
      this.set(stats ? pick(stats) : 0);
    },
  });
}
poolGauge("museum_db_pool_connections", "Open PostgreSQL connections in the pool.", (s) => s.total);
poolGauge("museum_db_pool_idle_connections", "Pooled PostgreSQL connections not in use.", (s) => s.idle);
poolGauge("museum_db_pool_waiting_requests", "Queries waiting for a pooled connection.", (s) => s.waiting);

new Gauge({
  name: "museum_change_feed_up",
  help: "1 when the catalog change feed's LISTEN connection is up (in every worker of a cluster), else 0.",
  aggregator: "min",
  registers: [registry],
  collect() {
    this.set(sources?.changeFeed.listening ? 1 : 0);
  },
});

/** The newest good backup's age, read at scrape time (decision 046); +Inf when none ever succeeded, NaN when the database does not answer. */
let backupRead: { at: number; value: Promise<number | null> } | null = null;
function lastGoodBackupSeconds(): Promise<number | null> {
  if (backupRead && Date.now() - backupRead.at < 1_000) return backupRead.value;
  const db = sources?.database.db;
  if (!db) return Promise.resolve(null);
  const value = latestBackups(db)
    .then(({ lastGood }) => (lastGood?.finishedAt ? lastGood.finishedAt.getTime() / 1000 : 0))
    .catch(() => null);
  backupRead = { at: Date.now(), value };
  return value;
}
new Gauge({
  name: "museum_backup_last_success_timestamp_seconds",
  help: "When the newest good backup finished (Unix time; 0 when none has).",
  aggregator: "max",
  registers: [registry],
  async collect() {
    const at = await lastGoodBackupSeconds();
    this.set(at === null ? Number.NaN : at);
  },
});
new Gauge({
  name: "museum_backup_age_seconds",
  help: "Seconds since the newest good backup finished (+Inf when none has): alert when above 172800 (two days).",
  aggregator: "min",
  registers: [registry],
  async collect() {
    const at = await lastGoodBackupSeconds();
    this.set(at === null ? Number.NaN : at === 0 ? Number.POSITIVE_INFINITY : Math.max(0, Date.now() / 1000 - at));
  },
});

let defaultsOn = false;
/** Points the scrape-time gauges at this process's services and starts the default process metrics. */
export function enableMetrics(from: MetricsSources): void {
  sources = from;
  snapshot = null;
  if (!defaultsOn) {
    defaultsOn = true;
    collectDefaultMetrics({ register: registry });
    // A cluster worker answers the primary's requests for its registry (cluster-metrics.ts).
    if (cluster.isWorker) {
      AggregatorRegistry.setRegistries([registry]);
      new AggregatorRegistry();
    }
  }
}
