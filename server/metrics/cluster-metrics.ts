/**
 * Metrics of a node:cluster (decision 021): a scrape may land on any worker, and each worker only
 * knows its own numbers. The worker asks the primary over IPC; the primary gathers every worker's
 * registry with prom-client's AggregatorRegistry, adds its own worker-restart counter, and
 * answers. Outside a cluster (PGlite, WEB_CONCURRENCY=1) a process answers for itself.
 */
import cluster from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { registry, workerRestarts } from "./registry";

const REQUEST = "museum:metrics-request";
const ANSWER = "museum:metrics-answer";
/** Longer than prom-client's own 5 s wait for the workers' answers. */
const ANSWER_TIMEOUT_MS = 6_000;

interface MetricsMessage {
  type?: string;
  id?: number;
  text?: string | null;
}

/** In the primary: answers the workers' requests for the cluster's metrics. Returns the call made when a worker died and was replaced. */
export function serveClusterMetrics(): { workerRestarted(): void } {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: MetricsMessage) => {
    if (message?.type !== REQUEST) return;
    void (async () => {
      let text: string | null = null;
      try {
        const workers = await aggregator.clusterMetrics();
        const own = workerRestarts ? await registry.getSingleMetricAsString("museum_worker_restarts_total") : "";
        text = `${workers}${workers.endsWith("\n") || !workers ? "" : "\n"}${own}\n`;
      } catch {
        // A worker did not answer in time: the asking worker falls back to its own numbers.
      }
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, text });
    })();
  });
  return { workerRestarted: () => workerRestarts?.inc() };
}

let nextId = 0;
const waiting = new Map<number, (text: string | null) => void>();
let listening = false;

/** The text /metrics answers: the cluster's in a cluster worker (this worker's alone if the primary does not answer), else this process's. */
export async function metricsText(): Promise<string> {
  const send = process.send?.bind(process);
  if (!cluster.isWorker || !send) return registry.metrics();
  if (!listening) {
    listening = true;
    process.on("message", (message: MetricsMessage) => {
      if (message?.type === ANSWER && typeof message.id === "number") waiting.get(message.id)?.(message.text ?? null);
    });
  }
  const id = nextId++;
  const text = await new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), ANSWER_TIMEOUT_MS);
    waiting.set(id, (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
    send({ type: REQUEST, id });
  }).finally(() => waiting.delete(id));
  return text ?? registry.metrics();
}
