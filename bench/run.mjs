// `npm run bench` (issue 12): starts the production build as `npm start` would, on a fresh
// PostgreSQL database when one is reachable (one worker per core) or else on a fresh PGlite
// (one process), and measures with wrk (2 threads, 50 connections, brotli accepted) visitors'
// pages, a member's pages (a session made by signing up and paying with the test card through
// the API) and the JSON API. The ceiling is nginx (Debian's, 2 workers, access log off) serving
// the home page's own bytes from disk in the same run, measured before the first target and after
// each one; every figure is printed as a share of the mean of the two nginx runs beside it,
// next to the previous run's (bench/last-run.json) and to the aims of issue 12.
//
// Installs nginx and wrk from Debian when missing. Variables: BENCH_SECONDS (10),
// BENCH_WARMUP_SECONDS (3), BENCH_DATABASE (postgres | pglite; default: PostgreSQL when
// reachable), BENCH_CPU_PROF=1 (write V8 CPU profiles of the site's processes to
// bench/profiles/), BENCH_KEEP_LAST=1 (do not overwrite last-run.json); any other variable
// (e.g. PAGE_CACHE_SECONDS=0, WEB_CONCURRENCY=1) reaches the site.
import { execFile, execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import pg from "pg";
import { nginxConf } from "./nginx-conf.mjs";
import { rawGet } from "./raw-get.mjs";

const rawGetFrom = (p, headers) => rawGet(base + p, headers);

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// Each target is first driven unmeasured for this long, so the figures are those of a warm
// process (JIT-compiled code, pages in the page cache), as in production.
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = 50;
const THREADS = 2;
// BENCH_PORT (4400): the site's port; nginx listens on the next one.
const PORT = Number(process.env.BENCH_PORT ?? 4400);
const NGINX_PORT = PORT + 1;
const ACCEPT_ENCODING = "gzip, deflate, br";
const here = path.dirname(fileURLToPath(import.meta.url));
/** The previous run on the same database: PostgreSQL's in last-run.json, PGlite's in last-run-pglite.json. */
const lastRunFile = (onPostgres) => path.join(here, onPostgres ? "last-run.json" : "last-run-pglite.json");
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The aims of issues 12 and 25, as shares of the nginx ceiling and p99 limits, per database. */
const aimsFor = (onPostgres) => ({
  visitor: { share: 1 / 4, p99: 20, label: ">= 1/4, p99 < 20 ms" },
  member: onPostgres ? { share: 0.1, p99: 30, label: ">= 10%, p99 < 30 ms" } : { share: 0.025, p99: 50, label: ">= 2.5%, p99 < 50 ms" },
  api: null,
});

// --- tools -------------------------------------------------------------------------------------

function have(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** nginx and wrk from Debian, installed when missing (as .ci/run installs Chromium). */
function ensureTools() {
  const missing = ["nginx", "wrk"].filter((c) => !have(c) && !existsSync(`/usr/sbin/${c}`));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`the bench needs ${missing.join(" and ")}: apt-get install -y nginx wrk`);
  console.log(`--- installing ${missing.join(" and ")} from Debian`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "nginx", "wrk"], { stdio: "inherit", env });
}

const nginxBinary = () => (have("nginx") ? "nginx" : "/usr/sbin/nginx");

// --- load generator ----------------------------------------------------------------------------

function toMs(value, unit) {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

/** wrk against `url`; requests/s, p99 in ms, and every answer that was not 2xx/3xx or failed. */
// Run asynchronously, so this process's own HTTP connections see the server's closes meanwhile.
async function wrk(url, seconds, headers = {}) {
  const args = [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-H", `Accept-Encoding: ${ACCEPT_ENCODING}`];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  const { stdout: out } = await promisify(execFile)("wrk", [...args, url], { encoding: "utf8" });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = non2xx + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  if (!Number.isFinite(rps) || !p99) throw new Error(`could not read wrk's output:\n${out}`);
  return { rps, p99: toMs(p99[1], p99[2]), errors };
}

// --- nginx, the ceiling --------------------------------------------------------------------------

function startNginx(dir, file, type) {
  const www = path.join(dir, "www");
  mkdirSync(www, { recursive: true });
  writeFileSync(path.join(www, "home.br"), file);
  // nginx's workers run as nobody when the bench runs as root: let them read the files.
  for (const p of [dir, www, path.join(www, "home.br")]) chmodSync(p, p.endsWith(".br") ? 0o644 : 0o755);
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, nginxConf({ dir, port: NGINX_PORT, root: www, type, location: "location = /home.br { add_header Content-Encoding br; add_header Vary Accept-Encoding; }" }));
  const child = spawn(nginxBinary(), ["-c", conf, "-p", dir], { stdio: ["ignore", "ignore", "inherit"] });
  return child;
}

// --- the site ---------------------------------------------------------------------------------

async function postgresDatabase() {
  const wanted = process.env.BENCH_DATABASE;
  if (wanted === "pglite") return null;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch (error) {
    if (wanted === "postgres") throw error;
    console.log(`(PostgreSQL at ${ADMIN_URL} unreachable: benchmarking on PGlite, one process)`);
    return null;
  }
  const name = `museum_bench_${Date.now()}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const base = `http://127.0.0.1:${PORT}`;

async function waitUp(site) {
  for (let i = 0; i < 240; i++) {
    if (site.exitCode !== null) throw new Error("the site exited during start-up");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("site did not start");
}

const post = (p, body, headers = {}) =>
  fetch(base + p, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

/** A member's session cookie: sign up, then pay with the test card, through the JSON API. */
async function memberCookie() {
  const email = `bench.member.${Date.now()}@example.com`;
  const person = { firstName: "Bench", lastName: "Member", emailAddress: email, emailAddressConfirm: email, password: "Pirates1979", passwordConfirm: "Pirates1979", termsAndConditions: true };
  const signUp = await post("/api/users/", person);
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const cookie = (signUp.headers.get("set-cookie") ?? "").split(";")[0];
  const paid = await post("/api/stripe/payment", { id: "pm_card_visa", receipt_email: email }, { cookie });
  if (paid.status !== 200) throw new Error(`payment failed: ${paid.status} ${await paid.text()}`);
  return cookie;
}


/** The first href on page `p` matching `re`. */
async function linkOn(p, re, headers = {}) {
  const html = await (await fetch(base + p, { headers })).text();
  const m = re.exec(html);
  if (!m) throw new Error(`no link matching ${re} on ${p}`);
  return m[1].replace(/&amp;/g, "&");
}

// --- printing -----------------------------------------------------------------------------------

const pct = (x) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;
const ms = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

function previousRun(onPostgres) {
  try {
    return JSON.parse(readFileSync(lastRunFile(onPostgres), "utf8"));
  } catch {
    return null;
  }
}

// --- main ---------------------------------------------------------------------------------------

ensureTools();
const dir = mkdtempSync(path.join(tmpdir(), "museum-bench-"));
const database = await postgresDatabase();
const profileDir = path.join(here, "profiles");
if (process.env.BENCH_CPU_PROF) mkdirSync(profileDir, { recursive: true });
const siteEnv = {
  ...process.env,
  PORT: String(PORT),
  HOST: "127.0.0.1",
  DATA_DIR: path.join(dir, "data"),
  NODE_ENV: "production",
  // Lines are written as in production (info level, one per request), to /dev/null.
  LOG_LEVEL: process.env.LOG_LEVEL ?? "info",
  RATE_LIMIT_RELAXED: "true",
  // The pages' throughput, not the start-up warming of renditions (one core for minutes on the demo collection).
  WARM_RENDITIONS: process.env.WARM_RENDITIONS ?? "false",
  ...(database ? { DATABASE_URL: database.url, SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0123" } : {}),
};
const nodeArgs = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
const site = spawn(process.execPath, [...nodeArgs, "build/host/index.js"], { env: siteEnv, stdio: ["ignore", "ignore", "inherit"] });
let nginx;

try {
  await waitUp(site);
  const wanted = Number(process.env.WEB_CONCURRENCY || availableParallelism());
  const workers = database ? wanted : 1;
  // On PGlite, with 2 or more: the owner of the database and a stored-page front (decision 045).
  const withFront = !database && wanted >= 2;
  const member = await memberCookie();
  const cookie = { Cookie: member };

  const teams = await (await fetch(`${base}/api/teams/`)).json();
  const team = teams[0];
  const exhibits = await (await fetch(`${base}/api/exhibits/?team=${team._id}&active=true`)).json();
  const ex = exhibits[0];
  const exhibitPage = await linkOn(`/teams/${team._id}/${ex.category._id}`, new RegExp(`href="(/teams/${team._id}/[^/"]+/${ex._id})"`));
  const storyPage = await linkOn("/favoritestories", /href="(\/favoritestories\/exhibit\/[^"]+)"/);
  const apiByTeam = `/api/exhibits/?team=${team._id}&active=true`;

  const targets = [
    { name: "home page (visitor)", kind: "visitor", path: "/" },
    { name: "category page (visitor)", kind: "visitor", path: `/teams/${team._id}/${ex.category._id}` },
    { name: "exhibit page (visitor)", kind: "visitor", path: exhibitPage },
    { name: "favorite-story exhibit (visitor)", kind: "visitor", path: storyPage },
    { name: "home page (member)", kind: "member", path: "/", headers: cookie },
    { name: "exhibit page (member)", kind: "member", path: exhibitPage, headers: cookie },
    { name: "API exhibits by team (visitor)", kind: "api", path: apiByTeam },
    { name: "API exhibits by team (member)", kind: "api", path: apiByTeam, headers: cookie },
  ];

  // The member really is one: the member's exhibit page holds more than the visitor's.
  const visitorExhibit = await (await fetch(base + exhibitPage)).text();
  const memberExhibit = await (await fetch(base + exhibitPage, { headers: cookie })).text();
  if (memberExhibit.length <= visitorExhibit.length) throw new Error("the member's session does not unlock the exhibit page");

  // The ceiling's bytes: the home page exactly as the site sends it to a client asking for brotli.
  await rawGetFrom("/", { "accept-encoding": ACCEPT_ENCODING }); // stored by now: later answers are the stored page's
  const home = await rawGetFrom("/", { "accept-encoding": ACCEPT_ENCODING });
  if (home.headers["content-encoding"] !== "br") throw new Error(`the site answered the home page with content-encoding ${home.headers["content-encoding"]}`);
  const homeBr = home.body;
  const homeBytes = brotliDecompressSync(homeBr);
  nginx = startNginx(dir, homeBr, home.headers["content-type"] ?? "text/html");
  await new Promise((r) => setTimeout(r, 500));
  const ceilingUrl = `http://127.0.0.1:${NGINX_PORT}/home.br`;
  const check = await fetch(ceilingUrl);
  if (!check.ok || (await check.text()) !== homeBytes.toString("utf8")) throw new Error("nginx does not serve the home page's bytes");

  // First-load JavaScript of the home page: every module script and modulepreload, gzipped.
  const html = homeBytes.toString("utf8");
  const scripts = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]))];
  let jsGzip = 0;
  for (const s of scripts) jsGzip += gzipSync(Buffer.from(await (await fetch(base + s)).arrayBuffer())).length;

  const load = loadavg()[0];
  // nginx is measured before the first target and after each one, and each target is compared
  // with the mean of the two runs beside it: on a shared VM the ceiling drifts by a fifth within
  // a run, and one mean over the whole run would move every share with it.
  if (WARMUP > 0) await wrk(ceilingUrl, WARMUP);
  const ceilings = [await wrk(ceilingUrl, DURATION)];
  const rows = [];
  for (const t of targets) {
    if (WARMUP > 0) await wrk(base + t.path, WARMUP, t.headers);
    const r = await wrk(base + t.path, DURATION, t.headers);
    const after = await wrk(ceilingUrl, DURATION);
    const beside = (ceilings[ceilings.length - 1].rps + after.rps) / 2;
    ceilings.push(after);
    rows.push({ ...t, ...r, beside });
    process.stderr.write(`  ${t.name}: ${Math.round(r.rps)} req/s, p99 ${ms(r.p99)} ms; nginx beside it ${Math.round(beside)} req/s\n`);
  }
  const ceilingRps = ceilings.map((c) => c.rps);
  const ceiling = { rps: ceilingRps.reduce((a, b) => a + b, 0) / ceilings.length, p99: Math.max(...ceilings.map((c) => c.p99)), min: Math.min(...ceilingRps), max: Math.max(...ceilingRps) };

  // Sign-up and login one at a time, as a person does: median and p90 in ms (argon2id hashing).
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
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

  const previous = previousRun(Boolean(database));
  const AIMS = aimsFor(Boolean(database));
  const prevRow = (name) => previous?.rows?.find((r) => r.name === name);
  const where = database ? `PostgreSQL, ${workers} worker${workers > 1 ? "s" : ""}` : withFront ? "PGlite, the owner and a stored-page front" : "PGlite, one process";
  console.log(
    `\nwrk -t${THREADS} -c${CONNECTIONS} -d${DURATION}s (after ${WARMUP} s of warm-up), Accept-Encoding: ${ACCEPT_ENCODING}; ` +
      `Node ${process.version}, ${where}; ${availableParallelism()} cores shared by wrk, nginx and the site; load average ${load.toFixed(1)} at the start\n`,
  );
  console.log(
    `Ceiling: nginx ${nginxVersion()} (${availableParallelism()} workers, access log off) sending the home page's ${homeBr.length} brotli bytes from disk: ` +
      `${ceilings.length} runs, one before the first target and one after each, ${Math.round(ceiling.min)}-${Math.round(ceiling.max)} req/s (mean ${Math.round(ceiling.rps)}), p99 up to ${ms(ceiling.p99)} ms; ` +
      "each target's share is of the mean of the two runs beside it" +
      (previous ? `; previous run ${previous.ceiling.rps} req/s` : "") +
      "\n",
  );
  console.log("| target | req/s | nginx beside it, req/s | share of nginx | p99 ms | aim | met | previous run: share, p99 ms | errors |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  const results = [];
  for (const r of rows) {
    const share = r.rps / r.beside;
    const aim = AIMS[r.kind];
    const met = aim ? (share >= aim.share && r.p99 < aim.p99 && r.errors === 0 ? "yes" : "NO") : "-";
    const prev = prevRow(r.name);
    const before = prev ? `${pct(prev.share)}, ${ms(prev.p99)}` : "-";
    console.log(`| ${r.name} | ${Math.round(r.rps)} | ${Math.round(r.beside)} | ${pct(share)} | ${ms(r.p99)} | ${aim ? aim.label : "none"} | ${met} | ${before} | ${r.errors} |`);
    results.push({ name: r.name, kind: r.kind, rps: Math.round(r.rps), nginxBeside: Math.round(r.beside), share: Number(share.toFixed(4)), p99: Number(r.p99.toFixed(2)), errors: r.errors, met });
  }
  const allMet = results.every((r) => r.met !== "NO");
  console.log(`\nAims of issues 12 and 25 ${allMet ? "met" : "NOT met"} in this run.`);
  console.log(`First-load JavaScript (home page, ${scripts.length} files): ${(jsGzip / 1024).toFixed(1)} KB gzipped`);
  console.log(`Sign-up (POST /api/users/, 20 in a row): median ${median(signUps).toFixed(1)} ms, p90 ${p90(signUps).toFixed(1)} ms`);
  console.log(`Login (POST /api/users/login, 20 in a row): median ${median(logins).toFixed(1)} ms, p90 ${p90(logins).toFixed(1)} ms`);

  if (!process.env.BENCH_KEEP_LAST) {
    const record = {
      date: new Date().toISOString(),
      node: process.version,
      database: where,
      cores: availableParallelism(),
      loadAverage: Number(load.toFixed(2)),
      seconds: DURATION,
      ceiling: { rps: Math.round(ceiling.rps), p99: Number(ceiling.p99.toFixed(2)), runs: ceilingRps.map(Math.round) },
      rows: results,
    };
    writeFileSync(lastRunFile(Boolean(database)), `${JSON.stringify(record, null, 2)}\n`);
  }
} finally {
  nginx?.kill("SIGQUIT");
  site.kill("SIGTERM");
  await new Promise((r) => (site.exitCode !== null ? r() : site.once("exit", r)));
  if (nginx && nginx.exitCode === null) await new Promise((r) => nginx.once("exit", r));
  await database?.drop().catch((error) => console.error(`could not drop the bench database: ${error.message}`));
  rmSync(dir, { recursive: true, force: true });
}

function nginxVersion() {
  const out = spawnSync(nginxBinary(), ["-v"], { encoding: "utf8" });
  return /nginx\/([\d.]+)/.exec(`${out.stderr}${out.stdout}`)?.[1] ?? "";
}
