// `node bench/image-memory.mjs`: what a burst of image cache misses costs the server.
// Starts the production build on a fresh PGlite DATA_DIR (or, with BENCH_URL and BENCH_PID,
// measures a server that is already running), then fires at once:
//   A. the old attack: 30 distinct heights (1971..2000 px) of one public banner in AVIF;
//   B. 30 distinct renders at the tallest allowed heights in AVIF (every public logo and banner
//      at 1000 px, then at 800 px), the worst a client can still ask for;
// and prints the server's resident memory (VmRSS, and the peak VmHWM) before and after each
// burst, the answers' status codes, and the login median while the renders run. Linux only for
// the memory figures (read from /proc/<pid>/status).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const PORT = Number(process.env.BENCH_PORT ?? 4410);
const BURST = Number(process.env.BENCH_BURST ?? 30);
/** The tallest rendition heights, tallest first (IMAGE_HEIGHTS in app/shared/images.ts). */
const TALL_HEIGHTS = (process.env.BENCH_HEIGHTS ?? "1000,800").split(",").map(Number);
/** BENCH_LOGINS=false leaves logins out of the bursts, so the memory figures are the images' alone. */
const LOGINS = process.env.BENCH_LOGINS !== "false";

let site;
let dataDir;
let base = process.env.BENCH_URL;
let pid = process.env.BENCH_PID ? Number(process.env.BENCH_PID) : undefined;
if (!base) {
  dataDir = mkdtempSync(path.join(tmpdir(), "museum-image-bench-"));
  site = spawn(process.execPath, ["build/host/index.js"], {
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", WARM_RENDITIONS: "false", NODE_ENV: "production", RATE_LIMIT_RELAXED: "true" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  base = `http://127.0.0.1:${PORT}`;
  pid = site.pid;
}

/** Resident and peak resident memory of the server process in MB, or undefined off Linux. */
function memory() {
  if (!pid) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
  } catch {
    return undefined;
  }
}
const show = (m) => (m ? `RSS ${m.rss} MB (peak so far ${m.peak} MB)` : "RSS n/a (no /proc/<pid>/status)");

async function waitUp() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("site did not start");
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const post = (p, body) => fetch(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function login(email) {
  const t = performance.now();
  const res = await post("/api/users/login", { emailAddress: email, password: "Pirates1979" });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return performance.now() - t;
}

/** Fires every address at once (AVIF accepted); meanwhile logs in one after another. */
async function burst(name, paths, email) {
  const before = memory();
  const started = performance.now();
  let done = false;
  const statuses = {};
  const requests = Promise.all(
    paths.map(async (p) => {
      const res = await fetch(base + p, { headers: { accept: "image/avif,image/webp,*/*" } });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }),
  ).finally(() => (done = true));
  const logins = [];
  while (LOGINS && !done) logins.push(await login(email));
  await requests;
  const seconds = (performance.now() - started) / 1000;
  const after = memory();
  console.log(`\n${name}: ${paths.length} requests at once, ${seconds.toFixed(1)} s`);
  console.log(`  answers: ${Object.entries(statuses).map(([s, n]) => `${n} x ${s}`).join(", ")}`);
  console.log(`  before: ${show(before)}`);
  console.log(`  after:  ${show(after)}`);
  if (logins.length) console.log(`  login during the burst: median ${median(logins).toFixed(0)} ms over ${logins.length} logins`);
}

try {
  await waitUp();
  const email = `image-bench.${Date.now()}@example.com`;
  const person = { firstName: "Bench", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: "Pirates1979", passwordConfirm: "Pirates1979", termsAndConditions: true };
  if ((await post("/api/users/", person)).status !== 201) throw new Error("sign-up failed");

  // Public originals: the team logos (from the API) and the home banners (from the home page).
  const teams = await (await fetch(`${base}/api/teams/`)).json();
  const html = await (await fetch(`${base}/`)).text();
  const files = [
    ...new Set([
      ...teams.map((t) => new URL(t.logo, base).pathname),
      ...[...html.matchAll(/\/images\/view\/banners\/[^"?&\s]+/g)].map((m) => m[0]),
    ]),
  ];
  const idle = [];
  for (let i = 0; i < 10; i++) idle.push(await login(email));
  console.log(`Server pid ${pid ?? "unknown"} at ${base}; ${files.length} public originals; Node ${process.version}`);
  console.log(`Idle: ${show(memory())}; login median ${median(idle).toFixed(0)} ms`);

  const banner = files.find((f) => f.includes("/banners/")) ?? files[0];
  await burst(
    "A. distinct heights 1971..2000 px, AVIF",
    Array.from({ length: BURST }, (_, i) => `${banner}?height=${2000 - i}`),
    email,
  );
  const tall = TALL_HEIGHTS.flatMap((h) => files.map((f) => `${f}?height=${h}`)).slice(0, BURST);
  await burst(`B. distinct renders at ${TALL_HEIGHTS.join(" then ")} px, AVIF`, tall, email);
  await burst("C. the same again (cache hits)", tall, email);
} finally {
  if (site) {
    site.kill("SIGTERM");
    await new Promise((r) => site.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
