// `node bench/drain-loop.mjs` ("Graceful drain"): a deploy, many times over, to count the
// 5xx answers a SIGTERM costs. Two instances of the compiled host with two workers each
// (WEB_CONCURRENCY=2) on a fresh PostgreSQL database, nginx in front configured from the README's
// deployment guide (bench/readme-nginx.mjs), clients posting contact messages through nginx
// without pause. Each cycle SIGTERMs one instance (A and B in turn), waits for it to exit, starts
// it again and waits until nginx sends it traffic again. For every 5xx it prints when it came
// (relative to the SIGTERM) and nginx's error.log lines of that cycle (refused connections and
// "temporarily disabled" left out: those are the drain working). Needs `npm run build` first.
//
// Variables: DRAIN_LOOP_CYCLES (10), DRAIN_LOOP_CLIENTS (20), DRAIN_LOOP_DRAIN_SECONDS (the
// instances' DRAIN_SECONDS, 2), DRAIN_LOOP_PAUSE_MS (a client's pause between posts, 0),
// TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test; a database of its own is
// created there and dropped at the end).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const { call, findNginx, freePort, startInstance } = await import("../tests/helpers/instances.ts");
const { createPostgresDatabase } = await import("../tests/helpers/databases.ts");
const { readmeNginxConfig } = await import("./readme-nginx.mjs");

const CYCLES = Number(process.env.DRAIN_LOOP_CYCLES ?? 10);
const CLIENTS = Number(process.env.DRAIN_LOOP_CLIENTS ?? 20);
const DRAIN_SECONDS = process.env.DRAIN_LOOP_DRAIN_SECONDS ?? "2";
const PAUSE = Number(process.env.DRAIN_LOOP_PAUSE_MS ?? 0);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const started = performance.now();
const now = () => performance.now() - started;
const log = (msg) => console.log(`[${(now() / 1000).toFixed(1).padStart(6)} s] ${msg}`);

const nginxBinary = findNginx();
if (!nginxBinary) throw new Error("needs nginx: apt-get install -y nginx");
const dir = mkdtempSync(path.join(tmpdir(), "museum-drain-loop-"));
const database = await createPostgresDatabase();
const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
const env = {
  DATABASE_URL: database.url,
  PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
  TRUST_PROXY: "1",
  SESSION_SECRET: "drain-loop-secret-drain-loop-secret-0123",
  WEB_CONCURRENCY: "2",
  DRAIN_SECONDS,
};
const ports = { A: portA, B: portB };
const instances = {};
const start = async (name) => (instances[name] = await startInstance(name, ports[name], { ...env, DATA_DIR: path.join(dir, name) }));
await start("A");
await start("B");
writeFileSync(path.join(dir, "nginx.conf"), readmeNginxConfig(dir, nginxPort, [portA, portB]));
const nginx = spawn(nginxBinary, ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: ["ignore", "ignore", "inherit"] });
for (let i = 0; i < 100 && (await call(nginxPort, "/readyz", { timeoutMs: 1000 }).catch(() => ({ status: 0 }))).status !== 200; i++) await sleep(100);
const errorLog = () => readFileSync(path.join(dir, "error.log"), "utf8");
log(`A on ${portA}, B on ${portB}, nginx on ${nginxPort}, ${CLIENTS} clients, DRAIN_SECONDS=${DRAIN_SECONDS}, ${CYCLES} cycles`);

/** Every answer: when, status (0: no answer). */
const answers = [];
let stop = false;
let n = 0;
async function client() {
  while (!stop) {
    const i = n++;
    // A loopback address of its own per post, so the per-address form limit never answers.
    const from = `127.${1 + (Math.floor(i / 62_500) % 250)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
    const body = { firstName: "Drain", lastName: "Loop", email: `loop${i}@example.com`, subject: "Question", message: `drain loop ${i}` };
    const status = await call(nginxPort, "/api/contact", { body, from, timeoutMs: 30_000 }).then((r) => r.status, () => 0);
    answers.push({ at: now(), status });
    if (PAUSE) await sleep(PAUSE);
  }
}
const load = Array.from({ length: CLIENTS }, client);
await sleep(3_000);

const cycles = [];
for (let c = 0; c < CYCLES; c++) {
  const name = c % 2 === 0 ? "A" : "B";
  const instance = instances[name];
  const logFrom = errorLog().length;
  const fromAnswer = answers.length;
  const termAt = now();
  instance.child.kill("SIGTERM");
  const code = await instance.exited;
  const exitAt = now();
  await start(name);
  // nginx took the instance out for fail_timeout (10 s) at its first refused connection.
  await sleep(12_000);
  const mine = answers.slice(fromAnswer);
  const bad = mine.filter((a) => a.status === 0 || a.status >= 500);
  const lines = errorLog()
    .slice(logFrom)
    .split("\n")
    .filter((l) => l && !l.includes("(111: Connection refused)") && !l.includes("temporarily disabled"));
  cycles.push({ name, code, answers: mine.length, bad: bad.length, exitAfter: Math.round(exitAt - termAt) });
  log(`cycle ${c + 1}: SIGTERM ${name}, exit ${code} after ${((exitAt - termAt) / 1000).toFixed(1)} s, ${mine.length} answers, ${bad.length} 5xx or none${bad.length ? ` at ${bad.map((b) => `${b.status}@+${Math.round(b.at - termAt)}ms`).join(", ")}` : ""}`);
  // The same message for many requests is printed three times, with its count.
  const kinds = new Map();
  for (const line of lines) {
    const kind = line.replace(/^\S+ \S+ /, "").replace(/\d+#\d+: \*\d+ /, "").replace(/client: [^,]+, /, "");
    kinds.set(kind, [...(kinds.get(kind) ?? []), line]);
  }
  for (const [, same] of kinds) {
    for (const line of same.slice(0, 3)) console.log(`    nginx: ${line}`);
    if (same.length > 3) console.log(`    nginx: ... ${same.length - 3} more like it`);
  }
}

stop = true;
await Promise.all(load);
const total = cycles.reduce((s, c) => s + c.bad, 0);
log(`done: ${total} answers 5xx or none in ${cycles.length} SIGTERMs (${cycles.filter((c) => c.bad).length} cycles with any), ${answers.length} answers in all; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
nginx.kill("SIGQUIT");
for (const instance of Object.values(instances)) instance.child.kill("SIGKILL");
await Promise.all([new Promise((r) => nginx.once("exit", r)), ...Object.values(instances).map((i) => i.exited)]);
await database.drop();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
