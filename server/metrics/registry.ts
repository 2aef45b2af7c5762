/**
 * The process's Prometheus registry and the worker-restarts counter (decision 021), apart from
 * the rest of the metrics: a cluster's primary imports only this, not the site.
 */
import cluster from "node:cluster";
import { Counter, Registry } from "prom-client";

export const registry = new Registry();

/** The worker restarts counter lives in the process that forks workers (this one unless it is a cluster worker). */
export const workerRestarts = cluster.isWorker
  ? null
  : new Counter({ name: "museum_worker_restarts_total", help: "Cluster workers that died and were replaced.", registers: [registry] });
