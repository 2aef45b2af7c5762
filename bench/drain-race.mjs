// `node bench/drain-race.mjs` ("Graceful drain"): the instant a stopping instance stops
// listening, without nginx. One compiled instance with two workers (WEB_CONCURRENCY=2) on a fresh
// PostgreSQL database; clients post contact messages straight to it, each on a new connection (as
// nginx does when its keep-alive connections are all busy or the instance answers
// `Connection: close`), while it is sent SIGTERM, until it has exited; then it is started again,
// DRAIN_RACE_CYCLES times. Each post ends one of three ways:
//   - answered (any status);
//   - refused (ECONNREFUSED): nothing was sent, a proxy tries the next instance, POST included;
//   - cut: the connection was accepted, the post sent, and the connection reset or closed without
//     an answer. nginx answers that 502 and does not send a POST again: the count to bring to 0.
// Needs `npm run build` first. Variables: DRAIN_RACE_CYCLES (20), DRAIN_RACE_CLIENTS (40),
// DRAIN_RACE_DRAIN_SECONDS (the instance's DRAIN_SECONDS, 1), TEST_POSTGRES_URL (a database of its
// own is created there and dropped at the end).
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const { freePort, startInstance } = await import("../tests/helpers/instances.ts");
const { createPostgresDatabase } = await import("../tests/helpers/databases.ts");

const CYCLES = Number(process.env.DRAIN_RACE_CYCLES ?? 20);
const CLIENTS = Number(process.env.DRAIN_RACE_CLIENTS ?? 40);
const DRAIN_SECONDS = process.env.DRAIN_RACE_DRAIN_SECONDS ?? "1";
const started = performance.now();
const now = () => performance.now() - started;
const log = (msg) => console.log(`[${(now() / 1000).toFixed(1).padStart(6)} s] ${msg}`);

const dir = mkdtempSync(path.join(tmpdir(), "museum-drain-race-"));
const database = await createPostgresDatabase();
const port = await freePort();
const env = { LOG_LEVEL: process.env.DRAIN_RACE_LOG_LEVEL ?? "warn", DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}`, SESSION_SECRET: "drain-race-secret-drain-race-secret-0123", WEB_CONCURRENCY: "2", DRAIN_SECONDS, DATA_DIR: dir };

/** One post on a new connection: "answered", "refused" or "cut" (sent, then no answer). */
function post(i) {
  const body = JSON.stringify({ firstName: "Drain", lastName: "Race", email: `race${i}@example.com`, subject: "Question", message: `drain race ${i}` });
  const from = `127.${1 + (Math.floor(i / 62_500) % 250)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
  return new Promise((resolve) => {
    let sent = false;
    const req = request(
      { host: "127.0.0.1", port, path: "/api/contact", method: "POST", agent: false, localAddress: from, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ outcome: "answered", status: res.statusCode }));
        res.on("error", () => resolve({ outcome: "cut", code: "response aborted" }));
      },
    );
    req.on("socket", (socket) => socket.on("connect", () => (sent = true)));
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (error) => resolve(error.code === "ECONNREFUSED" && !sent ? { outcome: "refused" } : { outcome: "cut", code: error.code ?? error.message }));
    req.end(body);
  });
}

let n = 0;
const totals = { answered: 0, refused: 0, cut: 0, "answered 5xx": 0 };
const cutsPerCycle = [];
for (let c = 0; c < CYCLES; c++) {
  const instance = await startInstance("A", port, env);
  let running = true;
  const outcomes = [];
  const client = async () => {
    while (running) {
      const at = now();
      const result = await post(n++);
      outcomes.push({ ...result, at, end: now() });
      if (result.outcome === "refused") await new Promise((r) => setTimeout(r, 5));
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  await new Promise((r) => setTimeout(r, Number(process.env.DRAIN_RACE_WARM_MS ?? 3000)));
  const termAt = now();
  instance.child.kill("SIGTERM");
  const code = await instance.exited;
  running = false;
  await Promise.all(clients);
  const count = (o) => outcomes.filter((x) => x.outcome === o).length;
  const cuts = outcomes.filter((x) => x.outcome === "cut");
  const fivexx = outcomes.filter((x) => x.outcome === "answered" && x.status >= 500).length;
  totals.answered += count("answered");
  totals.refused += count("refused");
  totals.cut += cuts.length;
  totals["answered 5xx"] += fivexx;
  cutsPerCycle.push(cuts.length);
  const odd = cuts.length || fivexx || code !== 0;
  log(`cycle ${c + 1}: exit ${code} ${((now() - termAt) / 1000).toFixed(1)} s after SIGTERM; ${count("answered")} answered (${fivexx} 5xx), ${count("refused")} refused, ${cuts.length} cut${cuts.length ? `: ${cuts.map((x) => `${x.code} (sent +${Math.round(x.at - termAt)} ms, cut +${Math.round(x.end - termAt)} ms)`).join(", ")}` : ""}`);
  // What the instance said (warnings and errors) when a cycle went wrong.
  if (odd) for (const line of instance.output().trim().split("\n").filter((l) => !l.includes("\"msg\":\"request completed\"")).slice(-25)) console.log(`    instance: ${line.slice(0, 400)}`);
}
log(`done: ${CYCLES} SIGTERMs, ${CLIENTS} clients: ${JSON.stringify(totals)}; cycles with a cut post: ${cutsPerCycle.filter((x) => x).length}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
await database.drop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
