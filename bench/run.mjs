// `npm run bench`: starts the production build on a fresh PGlite DATA_DIR, then measures with
// autocannon (50 connections) the home page, a category page, an exhibit page (visitor) and
// GET /api/exhibits/?team=..&active=true, next to a plain Node static server serving the same
// bytes from disk (the ceiling). Prints requests/s, p99 latency, the ratio to the ceiling, and
// the first-load JavaScript of the home page (gzipped).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// Each target is first driven unmeasured for this long (both servers), so the figures are those
// of a warm process (JIT-compiled code, rendered pages in the page cache), as in production.
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const CONNECTIONS = 50;
const PORT = 4400;
const STATIC_PORT = 4401;

const dataDir = mkdtempSync(path.join(tmpdir(), "museum-bench-"));
const site = spawn(process.execPath, ["build/host/index.js"], {
  env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "production", RATE_LIMIT_RELAXED: "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${PORT}`;

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

function run(url, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, headers: { "accept-encoding": "gzip, br" } }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

try {
  await waitUp();
  const teams = await (await fetch(`${base}/api/teams/`)).json();
  const team = teams[0];
  const exhibits = await (await fetch(`${base}/api/exhibits/?team=${team._id}&active=true`)).json();
  const ex = exhibits[0];
  const slug = ex.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  const targets = [
    ["home page", "/"],
    ["category page", `/teams/${team._id}/${ex.category._id}`],
    ["exhibit page (visitor)", `/teams/${team._id}/${slug}/${ex._id}`],
    ["API exhibits by team", `/api/exhibits/?team=${team._id}&active=true`],
  ];

  // The ceiling: the same bytes (as the site sends them, compressed) served from disk.
  const files = {};
  for (const [, p] of targets) {
    const res = await fetch(base + p, { headers: { "accept-encoding": "gzip" } });
    const body = Buffer.from(await res.arrayBuffer());
    const file = path.join(dataDir, `static-${Object.keys(files).length}`);
    writeFileSync(file, gzipSync(body));
    files[p] = { file, type: res.headers.get("content-type") };
  }
  const staticServer = createServer((req, res) => {
    const f = files[req.url];
    if (!f) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": f.type, "content-encoding": "gzip" });
    res.end(readFileSync(f.file));
  }).listen(STATIC_PORT, "127.0.0.1");

  // First-load JavaScript of the home page: every module script and modulepreload, gzipped.
  const html = await (await fetch(`${base}/`)).text();
  const scripts = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]))];
  let jsGzip = 0;
  for (const s of scripts) jsGzip += gzipSync(Buffer.from(await (await fetch(base + s)).arrayBuffer())).length;

  const rows = [];
  for (const [name, p] of targets) {
    if (WARMUP > 0) await run(base + p, WARMUP);
    const app = await run(base + p);
    if (WARMUP > 0) await run(`http://127.0.0.1:${STATIC_PORT}${p}`, WARMUP);
    const ceiling = await run(`http://127.0.0.1:${STATIC_PORT}${p}`);
    rows.push({
      name,
      rps: Math.round(app.requests.average),
      p99: app.latency.p99,
      ceilingRps: Math.round(ceiling.requests.average),
      ceilingP99: ceiling.latency.p99,
      ratio: app.requests.average / ceiling.requests.average,
      errors: app.errors + app.non2xx,
    });
  }
  staticServer.close();

  // Sign-up and login one at a time, as a person does: median and p90 in ms (argon2id hashing).
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
  const post = (p, body) => fetch(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const signUps = [];
  const logins = [];
  for (let i = 0; i < 20; i++) {
    const email = `bench${i}.${Date.now()}@example.com`;
    const person = { firstName: "Bench", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: "Pirates1979", passwordConfirm: "Pirates1979", termsAndConditions: true };
    let t = performance.now();
    if ((await post("/api/users/", person)).status !== 201) throw new Error("sign-up failed");
    signUps.push(performance.now() - t);
    t = performance.now();
    if ((await post("/api/users/login", { emailAddress: email, password: "Pirates1979" })).status !== 200) throw new Error("login failed");
    logins.push(performance.now() - t);
  }

  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each after ${WARMUP} s of warm-up, Node ${process.version}, PGlite\n`);
  console.log("| target | req/s | p99 ms | static ceiling req/s | ceiling p99 ms | ratio | errors |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${r.ceilingRps} | ${r.ceilingP99} | ${(r.ratio * 100).toFixed(0)}% | ${r.errors} |`);
  }
  console.log(`\nFirst-load JavaScript (home page, ${scripts.length} files): ${(jsGzip / 1024).toFixed(1)} KB gzipped`);
  console.log(`Sign-up (POST /api/users/, 20 in a row): median ${median(signUps).toFixed(1)} ms, p90 ${p90(signUps).toFixed(1)} ms`);
  console.log(`Login (POST /api/users/login, 20 in a row): median ${median(logins).toFixed(1)} ms, p90 ${p90(logins).toFixed(1)} ms`);
} finally {
  site.kill("SIGTERM");
  await new Promise((r) => site.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
