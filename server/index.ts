/**
 * Production entry (compiled to build/host/index.js by `npm run build`). On PostgreSQL with more
 * than one worker (WEB_CONCURRENCY, default the core count; decision 012) the process started is
 * the cluster's primary, which only supervises (server/cluster-primary.ts); every other process
 * (a worker, the cluster's prepare child, the only process on PGlite, decision 043) serves the
 * site (server/serving-process.ts). Each role loads only its own modules: the primary stays small.
 * Visitors' pages are made to be kept by the HTTP cache in front (decision 054).
 */
import cluster from "node:cluster";
import { availableParallelism } from "node:os";

/** WEB_CONCURRENCY, checked like the other variables (the serving process checks the rest). */
function workerCount(): number {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return availableParallelism();
  const wanted = Number(raw);
  if (!Number.isInteger(wanted) || wanted < 1 || wanted > 256) {
    console.error(`Invalid environment variables:\n  WEB_CONCURRENCY: a whole number of worker processes from 1 to 256 (got "${raw}")`);
    process.exit(1);
  }
  return wanted;
}

const count = workerCount();
if (cluster.isPrimary && process.env.DATABASE_URL?.trim() && count > 1) await (await import("./cluster-primary")).runPrimary(count);
else await import("./serving-process");
