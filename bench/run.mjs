// `npm run bench`: starts the production build as `npm start` would (with
// `MALLOC_ARENA_MAX=2` unless set), on a fresh PostgreSQL database when one is reachable (one
// worker per core) or else on a fresh PGlite (one process), and measures with wrk (2 threads, 50
// connections, brotli accepted):
// - visitors' pages through the README's own nginx block with its cache (decision 054), the
//   site's port as both upstreams;
// - visitors' pages from the site alone, beside a bare Node server (bench/bare-node.mjs) with as
//   many processes as the site, writing the home page's bytes and headers as the site sends them;
// - a member's pages (a session made by signing up and paying with the test card through the
//   API) and the JSON API, from the site alone.
// The ceiling is nginx (Debian's, one worker per core, access log off) serving the home page's own
// bytes from disk in the same run, measured before the first target and after each one (a page
// through the cache in front: nginx sending that page's answer, bytes and headers, as a file,
// just before and after it); every
// figure is printed as a share of the mean of the two nginx runs beside it (the site's visitor
// pages also as a share of the bare server: four runs in turn with it, the median of each run's
// share of the bare runs just before and after it), next to the previous run's
// (bench/last-run.json) and to the aims of docs/benchmarks.md. The resident memory of the
// site's processes (VmRSS of the started process and its descendants) is read one minute after
// the site answers /readyz, before any load, and every 500 ms during the load.
//
// Installs nginx and wrk from Debian when missing. Variables: BENCH_SECONDS (10),
// BENCH_WARMUP_SECONDS (3), BENCH_DATABASE (postgres | pglite; default: PostgreSQL when
// reachable), BENCH_CPU_PROF=1 (write V8 CPU profiles of the site's processes to
// bench/profiles/), BENCH_KEEP_LAST=1 (do not overwrite last-run.json); any other variable
// (e.g. PAGE_CACHE_SECONDS=0, WEB_CONCURRENCY=1, MALLOC_ARENA_MAX) reaches the site.
import { execFile, execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import pg from "pg";
import { nginxConf } from "./nginx-conf.mjs";
import { rawGet } from "./raw-get.mjs";
import { readmeNginxConfig } from "./readme-nginx.mjs";

const rawGetFrom = (p, headers) => rawGet(base + p, headers);

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// Each target is first driven unmeasured for this long, so the figures are those of a warm
// process (JIT-compiled code, pages in the page cache), as in production.
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
// A visitor's page from the site alone is measured in ROUNDS runs of ROUND seconds, each between
// two runs of the bare Node server (BENCH_SECONDS 10: 4 rounds of 5 s).
const ROUNDS = 4;
const ROUND = Math.max(2, Math.round(DURATION / 2));
const CONNECTIONS = 50;
const THREADS = 2;
// BENCH_PORT (4400): the site's port; nginx's ceiling listens on the next one, the deployment guide's nginx
// (the cache in front) on the one after, the bare Node server on the one after that.
const PORT = Number(process.env.BENCH_PORT ?? 4400);
const NGINX_PORT = PORT + 1;
const PROXY_PORT = PORT + 2;
const BARE_PORT = PORT + 3;
// The resident memory "after start" is read this long after the site first answers /readyz.
const SETTLE_MS = 60_000;
const MB = 1024 * 1024;
const ACCEPT_ENCODING = "gzip, deflate, br";
const here = path.dirname(fileURLToPath(import.meta.url));
/** The previous run on the same database: PostgreSQL's in last-run.json, PGlite's in last-run-pglite.json. */
const lastRunFile = (onPostgres) => path.join(here, onPostgres ? "last-run.json" : "last-run-pglite.json");
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * The aims (docs/benchmarks.md), per database: a share of a reference measured beside the
 * target (`of`: the nginx ceiling, or the bare Node server) and a p99 limit in ms.
 */
const aimsFor = (onPostgres) => ({
  proxy: { of: "nginx", share: 0.9, p99: 10, label: ">= 90% of nginx, p99 < 10 ms" },
  visitor: { of: "bare", share: 0.6, p99: Infinity, label: ">= 60% of bare Node" },
  member: onPostgres
    ? { of: "nginx", share: 0.1, p99: 30, label: ">= 10% of nginx, p99 < 30 ms" }
    : { of: "nginx", share: 0.025, p99: 50, label: ">= 2.5% of nginx, p99 < 50 ms" },
  api: null,
});

/** The memory aims, in MB (MiB, as `ps -o rss` / 1024). */
const memoryAimsFor = (onPostgres) => (onPostgres ? { primary: 60, worker: 200 } : { total: 350, totalUnderLoad: 500 });

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

/** The median (of an even count, the mean of the middle two). */
function medianOf(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
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

/**
 * nginx serving `home.br` (the home page's brotli bytes, the ceiling of every row) and, for each
 * page in `pages`, that page's answer as a static file: its bytes and the headers the site sent
 * with them (`add_header`), the ceiling of the same page through the cache in front.
 */
function startNginx(dir, file, type, pages = []) {
  const www = path.join(dir, "www");
  mkdirSync(www, { recursive: true });
  const files = [{ name: "home.br", body: file, headers: [["Content-Encoding", "br"], ["Vary", "Accept-Encoding"]] }, ...pages];
  const locations = [];
  for (const f of files) {
    writeFileSync(path.join(www, f.name), f.body);
    // nginx's workers run as nobody when the bench runs as root: let them read the files.
    chmodSync(path.join(www, f.name), 0o644);
    const addHeaders = f.headers.map(([n, v]) => `add_header ${n} ${JSON.stringify(v)};`).join(" ");
    locations.push(`location = /${f.name} { ${addHeaders} }`);
    // The same file with the open-file cache the deployment guide's block gives its cache's hits.
    if (f.name !== "home.br") locations.push(`location = /open-${f.name} { ${OPEN_FILE_CACHE} alias ${path.join(www, f.name)}; ${addHeaders} }`);
  }
  for (const p of [dir, www]) chmodSync(p, 0o755);
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, nginxConf({ dir, port: NGINX_PORT, root: www, type, location: locations.join("\n    ") }));
  const child = spawn(nginxBinary(), ["-c", conf, "-p", dir], { stdio: ["ignore", "ignore", "inherit"] });
  return child;
}

/** The deployment guide's `open_file_cache` line (its cache's hits keep their files open). */
const OPEN_FILE_CACHE = (() => {
  const line = readFileSync(path.join(here, "..", "docs", "deployment.md"), "utf8").match(/^\s*(open_file_cache [^;]*;)/m)?.[1];
  if (!line) throw new Error("docs/deployment.md's nginx block has no open_file_cache line");
  return line;
})();

/** The headers of an answer nginx's `add_header` can repeat: all but those nginx writes itself. */
const NGINX_OWN_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-type", "etag", "server", "last-modified", "accept-ranges"]);
function headersForNginx(rawHeaders) {
  const out = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (!NGINX_OWN_HEADERS.has(rawHeaders[i].toLowerCase())) out.push([rawHeaders[i], rawHeaders[i + 1]]);
  return out;
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

/** Whether nothing listens on `port` (on any address). */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** Waits for the site's first 200 on /readyz; its time (performance.now()). */
async function waitReady(site) {
  for (let i = 0; i < 1200; i++) {
    if (site.exitCode !== null) throw new Error("the site exited during start-up");
    try {
      if ((await fetch(`${base}/readyz`)).ok) {
        if (site.exitCode !== null) throw new Error("the site exited during start-up");
        return performance.now();
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
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

// --- resident memory ------------------------------------------------------------------------------

/** VmRSS of `pid` in bytes, or null when it has gone. */
function rssOf(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** `root` and its descendants, from /proc/<pid>/stat's parent field: [{ pid, role, rss }]. */
function siteProcesses(root, onPostgres) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const found = [];
  const walk = (pid, depth) => {
    const rss = rssOf(pid);
    if (rss !== null) found.push({ pid, role: depth === 0 ? (onPostgres ? "primary" : "the site (one process)") : depth === 1 && onPostgres ? "worker" : "child", rss });
    for (const child of (children.get(pid) ?? []).sort((a, b) => a - b)) walk(child, depth + 1);
  };
  walk(root, 0);
  let worker = 0;
  for (const p of found) if (p.role === "worker") p.role = `worker ${++worker}`;
  return found;
}

/** Samples the site's processes every 500 ms until stopped: the largest total and each process's largest. */
function memorySampler(root, onPostgres) {
  const peak = { total: 0, byPid: new Map(), samples: 0, phase: "the start of the load", during: "" };
  const sample = () => {
    const now = siteProcesses(root, onPostgres);
    peak.samples++;
    const sum = now.reduce((a, p) => a + p.rss, 0);
    if (sum > peak.total) [peak.total, peak.during] = [sum, peak.phase];
    for (const p of now) {
      const before = peak.byPid.get(p.pid);
      if (!before || before.rss < p.rss) peak.byPid.set(p.pid, p);
    }
  };
  sample();
  const timer = setInterval(sample, 500);
  return {
    /** What the load is doing now, to say during what the largest sum was seen. */
    set phase(name) {
      peak.phase = name;
    },
    stop() {
      clearInterval(timer);
      sample();
      const last = siteProcesses(root, onPostgres);
      return { total: peak.total, during: peak.during, processes: [...peak.byPid.values()], samples: peak.samples, last };
    },
  };
}

const mb = (bytes) => Math.round(bytes / MB);
const perProcess = (processes) => processes.map((p) => `${p.role} ${mb(p.rss)}`).join(", ");

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
// Another site (or bench) on these ports would be measured instead of ours: refuse to start.
for (const port of [PORT, NGINX_PORT, PROXY_PORT, BARE_PORT]) {
  if (!(await portFree(port))) throw new Error(`port ${port} is in use: set BENCH_PORT (the site's port; the bench uses it and the next three)`);
}
const dir = mkdtempSync(path.join(tmpdir(), "museum-bench-"));
const database = await postgresDatabase();
const onPostgres = Boolean(database);
const profileDir = path.join(here, "profiles");
if (process.env.BENCH_CPU_PROF) mkdirSync(profileDir, { recursive: true });
const siteEnv = {
  ...process.env,
  // As `npm start` (package.json) runs it.
  MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
  MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
  MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ ?? "131072",
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
// The V8 heap's limit as `npm start` sets it (package.json: --max-old-space-size=${HEAP_MB:-N}).
const heapMb = process.env.HEAP_MB ?? /--max-old-space-size=\$\{HEAP_MB:-(\d+)\}/.exec(JSON.parse(readFileSync("package.json", "utf8")).scripts.start)?.[1];
if (!heapMb) throw new Error("package.json's start script sets no --max-old-space-size=${HEAP_MB:-N}");
const nodeArgs = [`--max-old-space-size=${heapMb}`, ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])];
const site = spawn(process.execPath, [...nodeArgs, "build/host/index.js"], { env: siteEnv, stdio: ["ignore", "ignore", "inherit"] });
let nginx;
let proxy;
let bare;
const stopped = (child) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once("exit", r)));

try {
  const readyAt = await waitReady(site);
  const wanted = Number(process.env.WEB_CONCURRENCY || availableParallelism());
  // On PGlite the site is one process whatever WEB_CONCURRENCY says (decision 054).
  const workers = onPostgres ? wanted : 1;
  const member = await memberCookie();
  const cookie = { Cookie: member };

  const teams = await (await fetch(`${base}/api/teams/`)).json();
  const team = teams[0];
  const exhibits = await (await fetch(`${base}/api/exhibits/?team=${team._id}&active=true`)).json();
  const ex = exhibits[0];
  const exhibitPage = await linkOn(`/teams/${team._id}/${ex.category._id}`, new RegExp(`href="(/teams/${team._id}/[^/"]+/${ex._id})"`));
  const storyPage = await linkOn("/favoritestories", /href="(\/favoritestories\/exhibit\/[^"]+)"/);
  const apiByTeam = `/api/exhibits/?team=${team._id}&active=true`;
  const proxyBase = `http://127.0.0.1:${PROXY_PORT}`;

  const targets = [
    { name: "home page (visitor, through the deployment guide's nginx cache)", kind: "proxy", path: "/", url: `${proxyBase}/` },
    { name: "exhibit page (visitor, through the deployment guide's nginx cache)", kind: "proxy", path: exhibitPage, url: proxyBase + exhibitPage },
    { name: "home page (visitor)", kind: "visitor", path: "/" },
    { name: "category page (visitor)", kind: "visitor", path: `/teams/${team._id}/${ex.category._id}` },
    { name: "exhibit page (visitor)", kind: "visitor", path: exhibitPage },
    { name: "favorite-story exhibit (visitor)", kind: "visitor", path: storyPage },
    { name: "home page (member)", kind: "member", path: "/", headers: cookie },
    { name: "exhibit page (member)", kind: "member", path: exhibitPage, headers: cookie },
    { name: "API exhibits by team (visitor)", kind: "api", path: apiByTeam },
    { name: "API exhibits by team (member)", kind: "api", path: apiByTeam, headers: cookie },
  ].map((t) => ({ ...t, url: t.url ?? base + t.path }));

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
  // Each page through the cache in front is compared with nginx sending that page's own answer
  // (bytes and headers, as the site sent them) as a static file: the same bytes on the wire.
  const pageCeilings = [];
  for (const t of targets.filter((x) => x.kind === "proxy")) {
    const answer = await rawGetFrom(t.path, { "accept-encoding": ACCEPT_ENCODING });
    if (answer.status !== 200 || answer.headers["content-encoding"] !== "br") throw new Error(`the site answered ${t.path} with ${answer.status} ${answer.headers["content-encoding"]}`);
    t.ceilingUrl = `http://127.0.0.1:${NGINX_PORT}/page-${pageCeilings.length}.br`;
    t.openCeilingUrl = `http://127.0.0.1:${NGINX_PORT}/open-page-${pageCeilings.length}.br`;
    pageCeilings.push({ name: `page-${pageCeilings.length}.br`, body: answer.body, headers: headersForNginx(answer.rawHeaders) });
  }
  nginx = startNginx(dir, homeBr, home.headers["content-type"] ?? "text/html", pageCeilings);

  // The cache in front: the deployment guide's nginx block, both upstreams the site, one worker per core
  // and Debian's sendfile, as the ceiling's nginx.
  const proxyDir = path.join(dir, "proxy");
  mkdirSync(proxyDir);
  const proxyConf = path.join(proxyDir, "nginx.conf");
  writeFileSync(proxyConf, readmeNginxConfig(proxyDir, PROXY_PORT, [PORT, PORT], { workers: availableParallelism(), debianHttp: true }));
  proxy = spawn(nginxBinary(), ["-c", proxyConf, "-p", proxyDir], { stdio: ["ignore", "ignore", "inherit"] });

  // The bare Node server: the home page's bytes and the site's headers for them (Node writes
  // Date, Connection and Keep-Alive itself), with as many processes as the site.
  const bareFile = path.join(dir, "bare-home.br");
  writeFileSync(bareFile, homeBr);
  const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
  const bareHeaders = [];
  for (let i = 0; i < home.rawHeaders.length; i += 2) if (!skip.has(home.rawHeaders[i].toLowerCase())) bareHeaders.push(home.rawHeaders[i], home.rawHeaders[i + 1]);
  bareHeaders.push("Content-Length", String(homeBr.length));
  writeFileSync(`${bareFile}.headers.json`, JSON.stringify(bareHeaders));
  bare = spawn(process.execPath, [path.join(here, "bare-node.mjs"), String(BARE_PORT), bareFile, String(workers)], { stdio: ["ignore", "ignore", "inherit"] });

  await new Promise((r) => setTimeout(r, 500));
  const ceilingUrl = `http://127.0.0.1:${NGINX_PORT}/home.br`;
  const check = await fetch(ceilingUrl);
  if (!check.ok || (await check.text()) !== homeBytes.toString("utf8")) throw new Error("nginx does not serve the home page's bytes");
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/`;
  for (let i = 0; ; i++) {
    const answer = await rawGet(bareUrl, { "accept-encoding": ACCEPT_ENCODING }).catch(() => null);
    if (answer) {
      if (!answer.body.equals(homeBr) || answer.headers["content-encoding"] !== "br") throw new Error("the bare Node server does not send the home page's bytes");
      break;
    }
    if (i === 40) throw new Error("the bare Node server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  // Through the cache: the site's bytes, and the second answer from the cache.
  const statuses = [];
  for (const t of targets.filter((x) => x.kind === "proxy")) {
    for (let i = 0; i < 2; i++) {
      const answer = await rawGet(t.url, { "accept-encoding": ACCEPT_ENCODING });
      if (answer.status !== 200 || answer.headers["content-encoding"] !== "br") throw new Error(`the deployment guide's nginx answered ${t.url} with ${answer.status} ${answer.headers["content-encoding"]}`);
      statuses.push(answer.headers["x-cache-status"]);
    }
  }
  if (statuses[1] !== "HIT" || statuses[3] !== "HIT") throw new Error(`the deployment guide's nginx does not keep visitors' pages: X-Cache-Status ${statuses.join(", ")}`);

  // First-load JavaScript of the home page: every module script and modulepreload, gzipped.
  const html = homeBytes.toString("utf8");
  const scripts = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]))];
  let jsGzip = 0;
  for (const s of scripts) jsGzip += gzipSync(Buffer.from(await (await fetch(base + s)).arrayBuffer())).length;

  // Resident memory one minute after /readyz, before any load (the requests above are a few dozen).
  const settle = readyAt + SETTLE_MS - performance.now();
  if (settle > 0) await new Promise((r) => setTimeout(r, settle));
  const settled = siteProcesses(site.pid, onPostgres);
  const settledAfter = Math.round((performance.now() - readyAt) / 1000);
  process.stderr.write(`  resident memory ${settledAfter} s after /readyz: ${mb(settled.reduce((a, p) => a + p.rss, 0))} MB (${perProcess(settled)})\n`);

  const load = loadavg()[0];
  const sampler = memorySampler(site.pid, onPostgres);
  sampler.phase = "nginx (the ceiling)";
  // nginx is measured before the first target and after each one, and each target is compared
  // with the mean of the two runs beside it: on a shared VM the ceiling drifts by a fifth within
  // a run, and one mean over the whole run would move every share with it. The bare Node server
  // is measured the same way around the site's visitor pages.
  if (WARMUP > 0) await wrk(ceilingUrl, WARMUP);
  const ceilings = [await wrk(ceilingUrl, DURATION)];
  const bareRuns = [];
  const rows = [];
  for (const t of targets) {
    sampler.phase = t.name;
    if (t.kind === "visitor" && bareRuns.length === 0) {
      if (WARMUP > 0) await wrk(bareUrl, WARMUP);
      bareRuns.push(await wrk(bareUrl, ROUND));
    }
    // A page through the cache: nginx sending that page's answer as a file, just before and after it.
    if (t.ceilingUrl && WARMUP > 0) await wrk(t.ceilingUrl, WARMUP);
    const pageBefore = t.ceilingUrl ? await wrk(t.ceilingUrl, DURATION) : null;
    const openBefore = t.openCeilingUrl ? await wrk(t.openCeilingUrl, DURATION) : null;
    if (WARMUP > 0) await wrk(t.url, WARMUP, t.headers);
    let r;
    let bareBeside = null;
    let bareShares = null;
    if (t.kind === "visitor") {
      // The site and the bare server in turn, ROUNDS times, each site run beside the bare runs
      // just before and after it: this VM's speed moves by a third within seconds at times, and
      // the median of these close pairs holds still where one pair ten seconds apart did not.
      const runs = [];
      bareShares = [];
      for (let i = 0; i < ROUNDS; i++) {
        const run = await wrk(t.url, ROUND, t.headers);
        const bareAfter = await wrk(bareUrl, ROUND);
        bareShares.push(run.rps / ((bareRuns[bareRuns.length - 1].rps + bareAfter.rps) / 2));
        bareRuns.push(bareAfter);
        runs.push(run);
      }
      r = { rps: runs.reduce((a, x) => a + x.rps, 0) / runs.length, p99: Math.max(...runs.map((x) => x.p99)), errors: runs.reduce((a, x) => a + x.errors, 0) };
      const arounds = bareRuns.slice(-ROUNDS - 1);
      bareBeside = arounds.reduce((a, x) => a + x.rps, 0) / arounds.length;
    } else {
      r = await wrk(t.url, DURATION, t.headers);
    }
    const openAfter = t.openCeilingUrl ? await wrk(t.openCeilingUrl, DURATION) : null;
    const pageAfter = t.ceilingUrl ? await wrk(t.ceilingUrl, DURATION) : null;
    const after = await wrk(ceilingUrl, DURATION);
    const beside = pageBefore ? (pageBefore.rps + pageAfter.rps) / 2 : (ceilings[ceilings.length - 1].rps + after.rps) / 2;
    ceilings.push(after);
    const openBeside = openBefore ? (openBefore.rps + openAfter.rps) / 2 : null;
    rows.push({ ...t, ...r, beside, bareBeside, bareShares, openBeside });
    process.stderr.write(
      `  ${t.name}: ${Math.round(r.rps)} req/s, p99 ${ms(r.p99)} ms; nginx beside it ${Math.round(beside)} req/s` +
        (bareBeside ? `, bare Node ${Math.round(bareBeside)} req/s; share of bare in each round ${bareShares.map(pct).join(", ")}` : "") +
        "\n",
    );
  }
  const ceilingRps = ceilings.map((c) => c.rps);
  const ceiling = { rps: ceilingRps.reduce((a, b) => a + b, 0) / ceilings.length, p99: Math.max(...ceilings.map((c) => c.p99)), min: Math.min(...ceilingRps), max: Math.max(...ceilingRps) };
  const bareRps = bareRuns.map((c) => c.rps);
  const bareSummary = { rps: bareRps.reduce((a, b) => a + b, 0) / bareRps.length, p99: Math.max(...bareRuns.map((c) => c.p99)), min: Math.min(...bareRps), max: Math.max(...bareRps) };

  // Sign-up and login one at a time, as a person does: median and p90 in ms (argon2id hashing).
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
  const signUps = [];
  const logins = [];
  sampler.phase = "sign-ups and logins";
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
  const peak = sampler.stop();

  const previous = previousRun(onPostgres);
  const AIMS = aimsFor(onPostgres);
  const prevRow = (name) => previous?.rows?.find((r) => r.name === name);
  const where = onPostgres ? `PostgreSQL, ${workers} worker${workers > 1 ? "s" : ""}` : "PGlite, one process";
  const bareWhat = workers > 1 ? `node:cluster, ${workers} workers` : "one process";
  console.log(
    `\nwrk -t${THREADS} -c${CONNECTIONS} -d${DURATION}s (after ${WARMUP} s of warm-up), Accept-Encoding: ${ACCEPT_ENCODING}; ` +
      `Node ${process.version}, ${where}, MALLOC_ARENA_MAX=${siteEnv.MALLOC_ARENA_MAX}, MALLOC_MMAP_THRESHOLD_=${siteEnv.MALLOC_MMAP_THRESHOLD_}, MALLOC_TRIM_THRESHOLD_=${siteEnv.MALLOC_TRIM_THRESHOLD_}, --max-old-space-size=${heapMb}; ${availableParallelism()} cores shared by wrk, nginx and the site; load average ${load.toFixed(1)} at the start\n`,
  );
  console.log(
    `Ceiling: nginx ${nginxVersion()} (${availableParallelism()} workers, access log off) sending the home page's ${homeBr.length} brotli bytes from disk: ` +
      `${ceilings.length} runs, one before the first target and one after each, ${Math.round(ceiling.min)}-${Math.round(ceiling.max)} req/s (mean ${Math.round(ceiling.rps)}), p99 up to ${ms(ceiling.p99)} ms; ` +
      "each target's share is of the mean of the two runs beside it" +
      (previous ? `; previous run ${previous.ceiling.rps} req/s` : "") +
      "\n",
  );
  console.log(
    `Bare Node (bench/bare-node.mjs, ${bareWhat}) writing the same bytes and headers: ${bareRuns.length} runs around the site's visitor pages, ` +
      `${Math.round(bareSummary.min)}-${Math.round(bareSummary.max)} req/s (mean ${Math.round(bareSummary.rps)}, ${pct(bareSummary.rps / ceiling.rps)} of nginx), p99 up to ${ms(bareSummary.p99)} ms\n`,
  );
  console.log(
    `The cache in front: the deployment guide's nginx block (bench/readme-nginx.mjs), ${availableParallelism()} workers, sendfile, both upstreams 127.0.0.1:${PORT}\n`,
  );
  console.log("| target | req/s | nginx beside it, req/s | share of nginx | bare Node beside it, req/s | share of bare Node | p99 ms | aim | met | previous run: share, p99 ms | errors |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  const results = [];
  for (const r of rows) {
    const share = r.rps / r.beside;
    // The median of the rounds' shares (each of the bare runs just before and after it).
    const shareOfBare = r.bareShares ? medianOf(r.bareShares) : null;
    const aim = AIMS[r.kind];
    const measured = aim?.of === "bare" ? shareOfBare : share;
    const met = aim ? (measured >= aim.share && r.p99 < aim.p99 && r.errors === 0 ? "yes" : "NO") : "-";
    const prev = prevRow(r.name);
    const prevShare = prev ? (aim?.of === "bare" ? prev.shareOfBare : prev.share) : undefined;
    const before = prevShare !== undefined && prevShare !== null ? `${pct(prevShare)}, ${ms(prev.p99)}` : "-";
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${Math.round(r.beside)} | ${pct(share)} | ${r.bareBeside ? Math.round(r.bareBeside) : "-"} | ${shareOfBare === null ? "-" : pct(shareOfBare)} | ${ms(r.p99)} | ${aim ? aim.label : "none"} | ${met} | ${before} | ${r.errors} |`,
    );
    results.push({
      name: r.name,
      kind: r.kind,
      rps: Math.round(r.rps),
      nginxBeside: Math.round(r.beside),
      share: Number(share.toFixed(4)),
      ...(r.bareBeside ? { bareBeside: Math.round(r.bareBeside), shareOfBare: Number(shareOfBare.toFixed(4)), shareOfBareByRound: r.bareShares.map((x) => Number(x.toFixed(4))) } : {}),
      ...(r.openBeside ? { openFileCacheBeside: Math.round(r.openBeside), shareOfOpenFileCache: Number((r.rps / r.openBeside).toFixed(4)) } : {}),
      p99: Number(r.p99.toFixed(2)),
      errors: r.errors,
      met,
    });
  }

  const tuned = rows.filter((r) => r.openBeside);
  if (tuned.length)
    console.log(
      `\nThrough the cache beside nginx sending the same file with the block's own \`${OPEN_FILE_CACHE}\` (no aim; the aim's ceiling is nginx's defaults, as Debian ships them): ` +
        tuned.map((r) => `${r.name.replace(/ \(.*/, "")} ${pct(r.rps / r.openBeside)} (${Math.round(r.openBeside)} req/s)`).join(", "),
    );

  // Memory: each process one minute after /readyz and at its largest under load, against the aims.
  const MEM = memoryAimsFor(onPostgres);
  const total = (ps) => ps.reduce((a, p) => a + p.rss, 0);
  const memoryRows = [];
  const memoryRow = (what, bytes, limit) => memoryRows.push({ what, mb: mb(bytes), aim: limit ?? null, met: limit ? (bytes <= limit * MB ? "yes" : "NO") : "-" });
  const byRole = (ps) => [...ps].sort((a, b) => a.role.localeCompare(b.role, "en", { numeric: true }));
  if (onPostgres) {
    for (const p of byRole(settled)) memoryRow(`${p.role}, ${settledAfter} s after /readyz`, p.rss, p.role === "primary" ? MEM.primary : p.role.startsWith("worker") ? MEM.worker : null);
    memoryRow(`all ${settled.length} processes, ${settledAfter} s after /readyz`, total(settled), null);
    for (const p of byRole(peak.processes)) memoryRow(`${p.role}, largest under load`, p.rss, p.role === "primary" ? MEM.primary : p.role.startsWith("worker") ? MEM.worker : null);
    memoryRow(`all processes, largest sum under load (during ${peak.during})`, peak.total, null);
    memoryRow(`all processes, at the end of the load (${perProcess(byRole(peak.last))})`, total(peak.last), null);
  } else {
    memoryRow(`all ${settled.length} process${settled.length > 1 ? "es" : ""}, ${settledAfter} s after /readyz`, total(settled), MEM.total);
    for (const p of settled.length > 1 ? byRole(settled) : []) memoryRow(`${p.role}, ${settledAfter} s after /readyz`, p.rss, null);
    memoryRow(`all processes, largest sum under load (during ${peak.during})`, peak.total, MEM.totalUnderLoad);
    for (const p of peak.processes.length > 1 ? byRole(peak.processes) : []) memoryRow(`${p.role}, largest under load`, p.rss, null);
    memoryRow("all processes, at the end of the load", total(peak.last), null);
  }
  console.log(`\nResident memory (VmRSS, MB = MiB) of the site's processes; under load: ${peak.samples} samples, one every 500 ms, during the wrk runs and the sign-ups\n`);
  console.log("| memory | MB | aim | met |");
  console.log("|---|---|---|---|");
  for (const m of memoryRows) console.log(`| ${m.what} | ${m.mb} | ${m.aim ? `<= ${m.aim} MB` : "none"} | ${m.met} |`);

  const allMet = results.every((r) => r.met !== "NO") && memoryRows.every((m) => m.met !== "NO");
  console.log(`\nAims ${allMet ? "met" : "NOT met"} in this run.`);
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
      mallocArenaMax: siteEnv.MALLOC_ARENA_MAX,
      mallocMmapThreshold: siteEnv.MALLOC_MMAP_THRESHOLD_,
      mallocTrimThreshold: siteEnv.MALLOC_TRIM_THRESHOLD_,
      maxOldSpaceMb: Number(heapMb),
      ceiling: { rps: Math.round(ceiling.rps), p99: Number(ceiling.p99.toFixed(2)), runs: ceilingRps.map(Math.round) },
      bareNode: { processes: bareWhat, rps: Math.round(bareSummary.rps), p99: Number(bareSummary.p99.toFixed(2)), runs: bareRps.map(Math.round) },
      rows: results,
      memory: {
        settledAfterSeconds: settledAfter,
        settled: settled.map((p) => ({ role: p.role, mb: mb(p.rss) })),
        settledTotalMb: mb(total(settled)),
        underLoad: { samples: peak.samples, largestTotalMb: mb(peak.total), largestDuring: peak.during, largest: byRole(peak.processes).map((p) => ({ role: p.role, mb: mb(p.rss) })) },
        atTheEnd: byRole(peak.last).map((p) => ({ role: p.role, mb: mb(p.rss) })),
        aims: memoryRows,
      },
    };
    writeFileSync(lastRunFile(onPostgres), `${JSON.stringify(record, null, 2)}\n`);
  }
} finally {
  nginx?.kill("SIGQUIT");
  proxy?.kill("SIGQUIT");
  bare?.kill("SIGTERM");
  site.kill("SIGTERM");
  await stopped(site);
  for (const child of [nginx, proxy, bare]) if (child) await stopped(child);
  await database?.drop().catch((error) => console.error(`could not drop the bench database: ${error.message}`));
  rmSync(dir, { recursive: true, force: true });
}

function nginxVersion() {
  const out = spawnSync(nginxBinary(), ["-v"], { encoding: "utf8" });
  return /nginx\/([\d.]+)/.exec(`${out.stderr}${out.stdout}`)?.[1] ?? "";
}
