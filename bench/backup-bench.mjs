// Backup and restore at scale (decision 046): how long `npm run backup` and
// `npm run restore` take and how much memory the process doing the work reaches, for the demo
// collection and for a large one (5,000 extra exhibits, about 1 GB of image originals), on PGlite
// and on PostgreSQL; and what a backup taken while visitors come costs them in throughput.
// Figures, not pass/fail.
//
//   node bench/backup-bench.mjs            (after `npm run build`)
//
// 1. Backup and restore. Each command runs as `npm run backup` / `npm run restore` run it
//    (`node scripts/backup.mjs`, `node scripts/restore.mjs FILE`). Memory: /proc/<pid>/status
//    sampled every 50 ms. On PGlite the running site takes the backup in its owner process (asked
//    over DATA_DIR/run/site.sock): that process's peak RSS (VmHWM, reset with clear_refs just
//    before) and its growth over the RSS before. On PostgreSQL: the backup command's process and
//    its pg_dump child. Restores: the restore command's process. Matrix: PGlite backup (site
//    running; and with no site, the command opening DATA_DIR), PGlite -> PGlite, PGlite ->
//    PostgreSQL (which makes the PostgreSQL databases), PostgreSQL backup, PostgreSQL ->
//    PostgreSQL, PostgreSQL -> PGlite.
// 2. Visitors while a backup runs: the site on the large collection (PGlite: the owner and the
//    stored-page front; PostgreSQL: WEB_CONCURRENCY=2), `wrk -t1 -c20 -d10s --latency` on `/` and
//    `/about`, once idle and once with `npm run backup` started 1 s into the run; nginx serves the
//    home page's bytes (as the site sends them to wrk, which asks for no encoding) from disk and is
//    measured before the first target and after each one; every figure is a share of the mean of
//    the two nginx runs beside it, as in bench/run.mjs.
// 3. A table at the end; the raw figures in bench/last-run-backup.json.
//
// Everything else lives in a temporary folder removed at the end; the PostgreSQL databases it
// creates (at TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test) are dropped.
// Variables: BENCH_PORT (4520; nginx on the next port), BENCH_SECONDS (10), BENCH_WARMUP_SECONDS
// (3), BACKUP_BENCH_EXHIBITS (5000), BACKUP_BENCH_FILES (1000 originals of about 1 MB),
// BACKUP_BENCH_KEEP_LAST=1 (leave bench/last-run-backup.json alone).
import { execFile, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { nginxConf } from "./nginx-conf.mjs";
import { rawGet } from "./raw-get.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const PORT = Number(process.env.BENCH_PORT ?? 4520);
const NGINX_PORT = PORT + 1;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const EXTRA_EXHIBITS = Number(process.env.BACKUP_BENCH_EXHIBITS ?? 5000);
const FILES = Number(process.env.BACKUP_BENCH_FILES ?? 1000);
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const SESSION_SECRET = "backup-bench-secret-backup-bench-secret-0123";
const SAMPLE_MS = 50;
const LAST_RUN = path.join(here, "last-run-backup.json");
const startedAt = performance.now();

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const elapsed = () => `${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
const log = (line) => process.stderr.write(`[${elapsed()}] ${line}\n`);
const mb = (kb) => (kb == null ? null : Math.round(kb / 1024));

// --- tools ------------------------------------------------------------------------------------

const have = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
function ensureTools() {
  const missing = ["wrk", "nginx", "pg_dump"].filter((c) => !have(c) && !existsSync(`/usr/sbin/${c}`));
  if (missing.length) throw new Error(`the bench needs ${missing.join(", ")} (apt-get install -y ${missing.map((m) => (m === "pg_dump" ? "postgresql-client" : m)).join(" ")})`);
  if (!existsSync(path.join(root, "build/host/backup-cli.js")) || !existsSync(path.join(root, "build/host/restore-cli.js"))) throw new Error("no build: run npm run build first");
}
const nginxBinary = () => (have("nginx") ? "nginx" : "/usr/sbin/nginx");

// --- processes and their memory -----------------------------------------------------------------

/** VmRSS and VmHWM of `pid`, in kB; null once it has gone. */
function memoryOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0), hwm: Number(/VmHWM:\s+(\d+)/.exec(text)?.[1] ?? 0) };
  } catch {
    return null;
  }
}

/** Resets the peak RSS (VmHWM) of `pid` to its current RSS (Linux 4.0+). */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // gone, or not allowed: the peak is then the process's whole life's
  }
}

/** Every process below `pid` (children, their children...), with its command name. */
function descendants(pid) {
  const parent = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(name), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift();
    for (const [child, ppid] of parent) {
      if (ppid !== p) continue;
      let comm;
      try {
        comm = readFileSync(`/proc/${child}/comm`, "utf8").trim();
      } catch {
        continue; // gone meanwhile
      }
      found.push({ pid: child, comm });
      queue.push(child);
    }
  }
  return found;
}

/**
 * Samples every SAMPLE_MS the memory of the processes `list()` names ({label, pid}); per label:
 * the largest VmRSS seen, the largest VmHWM seen (a process's peak between samples too), and
 * the largest sum of the labels' RSS at one sample.
 */
function sampler(list) {
  const peaks = {};
  let sumPeak = 0;
  let samples = 0;
  const tick = () => {
    let sum = 0;
    for (const { label, pid } of list()) {
      const m = memoryOf(pid);
      if (!m) continue;
      const p = (peaks[label] ??= { rssMax: 0, hwm: 0 });
      p.rssMax = Math.max(p.rssMax, m.rss);
      p.hwm = Math.max(p.hwm, m.hwm);
      sum += m.rss;
    }
    sumPeak = Math.max(sumPeak, sum);
    samples++;
  };
  tick();
  const timer = setInterval(tick, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return { peaks, sumPeakKb: sumPeak, samples };
    },
  };
}

/** The site's processes: the primary and its workers, each named by its role (owner, front, worker). */
function siteProcesses(site) {
  const out = [{ label: "site primary", pid: site.pid }];
  for (const { pid } of descendants(site.pid)) {
    let role;
    try {
      role = /(?:^|\0)MUSEUM_ROLE=(\w+)/.exec(readFileSync(`/proc/${pid}/environ`, "utf8"))?.[1] ?? "worker";
    } catch {
      continue; // gone meanwhile
    }
    out.push({ label: role === "worker" ? `site worker ${pid}` : `site ${role}`, pid });
  }
  return out;
}

const children = new Set();
function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/**
 * Runs `node <args>` in the repository (as npm runs the scripts) with `env`, sampling its memory and
 * its descendants' (pg_dump) and that of `watch` (the site's processes, their peaks reset first).
 */
async function runMeasured(args, env, { watch = [] } = {}) {
  for (const w of watch) resetPeak(w.pid);
  const before = Object.fromEntries(watch.map((w) => [w.label, memoryOf(w.pid)?.rss ?? null]));
  const t0 = performance.now();
  const child = track(spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] }));
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  // Each stdout line with the time it came (the restore says each step as it starts it).
  const steps = [];
  let pendingLine = "";
  child.stdout.on("data", (d) => {
    pendingLine += d;
    let at;
    while ((at = pendingLine.indexOf("\n")) >= 0) {
      steps.push({ s: (performance.now() - t0) / 1000, line: pendingLine.slice(0, at) });
      pendingLine = pendingLine.slice(at + 1);
    }
  });
  let below = [];
  const watchSampler = sampler(() => {
    // The command's children (pg_dump), looked for at each sample.
    if (child.exitCode === null) below = descendants(child.pid).map((d) => ({ label: d.comm, pid: d.pid }));
    return [{ label: "command", pid: child.pid }, ...below, ...watch];
  });
  const code = await new Promise((resolve) => child.once("exit", (c, s) => resolve(c ?? s)));
  const ms = performance.now() - t0;
  const memory = watchSampler.stop();
  const after = Object.fromEntries(watch.map((w) => [w.label, memoryOf(w.pid)?.rss ?? null]));
  const lines = stdout.trim().split("\n");
  return { ms, code, stdout, stderr, steps, lastLine: lines.at(-1)?.trim() ?? "", memory, before, after };
}

function commandEnv(extra) {
  const env = { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", SESSION_SECRET, ...extra };
  delete env.DATABASE_URL;
  if (extra.DATABASE_URL) env.DATABASE_URL = extra.DATABASE_URL;
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

// --- the site ----------------------------------------------------------------------------------

async function startSite(dir, { dataDir, databaseUrl, backupDir, concurrency, name }) {
  const env = commandEnv({
    PORT: String(PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    BACKUP_DIR: backupDir,
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_RELAXED: "true",
    WARM_RENDITIONS: "false",
    // No scheduled backup during the bench (PGlite's default takes one a minute after start).
    BACKUP_HOURS: "0",
    DRAIN_SECONDS: "0",
    ...(concurrency ? { WEB_CONCURRENCY: String(concurrency) } : {}),
  });
  const logFile = path.join(dir, `site-${name}.log`);
  const out = await fs.open(logFile, "a");
  const t0 = performance.now();
  const site = track(spawn(process.execPath, ["build/host/index.js"], { cwd: root, env, stdio: ["ignore", out.fd, out.fd] }));
  await out.close();
  const socket = path.join(dataDir, "run", "site.sock");
  for (let i = 0; i < 600; i++) {
    if (site.exitCode !== null) throw new Error(`the site exited during start-up (${logFile}):\n${readFileSync(logFile, "utf8").slice(-3000)}`);
    try {
      const up = (await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok && (databaseUrl || existsSync(socket));
      if (up) {
        site.startSeconds = (performance.now() - t0) / 1000;
        site.logFile = logFile;
        return site;
      }
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`the site did not start within 150 s (${logFile})`);
}

async function stopSite(site) {
  if (!site || site.exitCode !== null) return;
  const gone = new Promise((r) => site.once("exit", r));
  site.kill("SIGTERM");
  const timeout = sleep(30_000).then(() => "timeout");
  if ((await Promise.race([gone, timeout])) === "timeout") {
    for (const d of descendants(site.pid)) process.kill(d.pid, "SIGKILL");
    site.kill("SIGKILL");
    await gone;
  }
  // Its workers exit with it; wait until none is left.
  for (let i = 0; i < 100 && descendants(site.pid).length; i++) await sleep(100);
}

// --- PostgreSQL --------------------------------------------------------------------------------

const databases = new Set();
async function adminQuery(text) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}
async function createDatabase(tag) {
  const name = `museum_backup_bench_${process.pid}_${tag}`;
  await adminQuery(`drop database if exists ${name} with (force)`);
  await adminQuery(`create database ${name}`);
  databases.add(name);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}
async function dropDatabase(db) {
  if (!db) return;
  await adminQuery(`drop database if exists ${db.name} with (force)`);
  databases.delete(db.name);
}
async function databaseBytes(db) {
  const r = await adminQuery(`select pg_database_size('${db.name}')::bigint as n`);
  return Number(r.rows[0].n);
}

// --- the large collection ------------------------------------------------------------------------

/** A few distinct noise JPEGs of about 1 MB (1280 x 960 at quality 90). */
async function noiseJpegs(count) {
  const sharp = (await import("sharp")).default;
  const out = [];
  for (let i = 0; i < count; i++) {
    const raw = randomBytes(1280 * 960 * 3);
    out.push(await sharp(raw, { raw: { width: 1280, height: 960, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
  }
  return out;
}

/** `jpeg` with a comment segment naming `n` after its start marker: a valid JPEG whose SHA-256 is its own. */
function distinctJpeg(jpeg, n) {
  const payload = Buffer.from(`backup-bench ${String(n).padStart(8, "0")}`);
  const segment = Buffer.alloc(4 + payload.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  payload.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/**
 * Into a seeded DATA_DIR with no site running: EXTRA_EXHIBITS copies of one exhibit (new ids,
 * slugs and titles; the search triggers fill search_documents), each with its source's photo rows,
 * and the first FILES of them with one more photo naming a new original of about 1 MB.
 */
async function growCollection(dataDir) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { unaccent } = await import("@electric-sql/pglite/contrib/unaccent");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const db = new PGlite(path.join(dataDir, "pglite"), { extensions: { unaccent, pg_trgm } });
  await db.waitReady;
  const t0 = performance.now();
  let created;
  try {
    const [source] = (
      await db.query(
        `select e.id from exhibits e join exhibit_photos p on p.exhibit_id = e.id
          where e.active and e.publish_at is not null group by e.id order by count(*) desc, e.slug limit 1`,
      )
    ).rows;
    if (!source) throw new Error("no exhibit with photos to copy: is the DATA_DIR seeded?");
    const columns = (
      await db.query(`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = 'exhibits' and is_generated = 'NEVER' order by ordinal_position`)
    ).rows.map((r) => r.c);
    const value = (c) =>
      ({
        id: "n.id",
        slug: "e.slug || '-bb-' || n.g",
        title: "e.title || ' (backup bench ' || n.g || ')'",
        short_title: "e.short_title || ' ' || n.g",
      })[c] ?? `e.${c}`;
    await db.exec("begin");
    await db.query(`create temp table bench_new as select gen_random_uuid() as id, g from generate_series(1, ${EXTRA_EXHIBITS}) g`);
    await db.query(`insert into exhibits (${columns.join(", ")}) select ${columns.map(value).join(", ")} from bench_new n cross join exhibits e where e.id = $1 order by n.g`, [source.id]);
    await db.query(`insert into exhibit_photos (exhibit_id, position, file, alt) select n.id, p.position, p.file, p.alt from bench_new n cross join exhibit_photos p where p.exhibit_id = $1`, [source.id]);
    await db.query(
      `insert into exhibit_photos (exhibit_id, position, file, alt)
       select n.id, (select coalesce(max(position), -1) + 1 from exhibit_photos where exhibit_id = $1), 'exhibits/' || n.id || '/backup-bench-' || n.g || '.jpg', 'Backup bench photo ' || n.g
         from bench_new n where n.g <= ${FILES}`,
      [source.id],
    );
    created = (await db.query(`select id, g from bench_new where g <= ${FILES} order by g`)).rows;
    await db.exec("commit");
    await db.exec("vacuum analyze");
    const counts = (await db.query(`select (select count(*)::int from exhibits) as exhibits, (select count(*)::int from exhibit_photos) as photos, (select count(*)::int from search_documents) as search`)).rows[0];
    log(`  ${EXTRA_EXHIBITS} exhibits added in ${((performance.now() - t0) / 1000).toFixed(1)} s: now ${counts.exhibits} exhibits, ${counts.photos} photo rows, ${counts.search} search documents`);
  } finally {
    await db.close();
  }
  const t1 = performance.now();
  const jpegs = await noiseJpegs(4);
  let bytes = 0;
  for (const { id, g } of created) {
    const file = path.join(dataDir, "media", "exhibits", id, `backup-bench-${g}.jpg`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const data = distinctJpeg(jpegs[g % jpegs.length], g);
    await fs.writeFile(file, data);
    bytes += data.length;
  }
  log(`  ${created.length} originals written (${(bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  return { exhibitsAdded: EXTRA_EXHIBITS, files: created.length, bytes };
}

async function folderBytes(dir) {
  let total = 0;
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (e.isFile()) total += (await fs.stat(path.join(e.parentPath ?? e.path, e.name))).size;
  }
  return total;
}

// --- load ------------------------------------------------------------------------------------------

function toMs(value, unit) {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

/** `wrk -t1 -c20 --latency`: requests/s, p99 ms, non-2xx/3xx answers and socket errors. */
async function wrk(url, seconds) {
  const { stdout: out } = await promisify(execFile)("wrk", ["-t1", "-c20", `-d${seconds}s`, "--latency", url], { encoding: "utf8" });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(out);
  // Thread Stats' Latency line: avg, stdev, max.
  const latency = /Latency\s+[\d.]+\w+\s+[\d.]+\w+\s+([\d.]+)(us|ms|s)\b/.exec(out);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  if (!Number.isFinite(rps) || !p99) throw new Error(`could not read wrk's output:\n${out}`);
  return { rps, p99: toMs(p99[1], p99[2]), maxMs: latency ? toMs(latency[1], latency[2]) : null, requests, non2xx, socketErrors };
}

/**
 * GET `url` on a new connection every `everyMs` (one at a time) until stopped: how long the site
 * took to answer while a backup ran. On PGlite /readyz asks the database, so it waits for the owner.
 */
function probe(url, everyMs = 50) {
  let stopped = false;
  const times = [];
  let notOk = 0;
  const statuses = {};
  let firstNotOk = null;
  const loop = (async () => {
    while (!stopped) {
      const t = performance.now();
      const r = await rawGet(url).catch(() => ({ status: 0 }));
      times.push(performance.now() - t);
      if (r.status !== 200) {
        notOk++;
        const key = r.status === 0 ? "no answer" : String(r.status);
        statuses[key] = (statuses[key] ?? 0) + 1;
        firstNotOk ??= `${key} after ${Math.round(performance.now() - t)} ms: ${r.body ? r.body.toString("utf8").slice(0, 200) : ""}`;
      }
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      return {
        url: new URL(url).pathname,
        answers: times.length,
        medianMs: Number((sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1)),
        maxMs: Number((sorted.at(-1) ?? 0).toFixed(1)),
        over100ms: times.filter((x) => x > 100).length,
        over1s: times.filter((x) => x > 1000).length,
        notOk,
        statuses,
        firstNotOk,
      };
    },
  };
}

/** The size of the backup's database entry (gzipped) and how many entries it has, from `tar -tvf`. */
function archiveEntries(file) {
  const out = spawnSync("tar", ["-tvf", file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (out.status !== 0) return null;
  const lines = out.stdout.trim().split("\n");
  const db = lines.find((l) => l.endsWith("/database.sql.gz"));
  return { entries: lines.length, databaseGzBytes: db ? Number(db.trim().split(/\s+/)[2]) : null };
}


function startNginx(dir, html, type) {
  const www = path.join(dir, "www");
  mkdirSync(www, { recursive: true });
  writeFileSync(path.join(www, "index.html"), html);
  // nginx's workers run as nobody when the bench runs as root: let them read the file.
  for (const p of [dir, www]) chmodSync(p, 0o755);
  chmodSync(path.join(www, "index.html"), 0o644);
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, nginxConf({ dir, port: NGINX_PORT, root: www, type }));
  return track(spawn(nginxBinary(), ["-c", conf, "-p", dir], { stdio: ["ignore", "ignore", "inherit"] }));
}

async function stopNginx(nginx) {
  if (!nginx || nginx.exitCode !== null) return;
  const gone = new Promise((r) => nginx.once("exit", r));
  nginx.kill("SIGQUIT");
  if ((await Promise.race([gone, sleep(10_000).then(() => "timeout")])) === "timeout") {
    nginx.kill("SIGKILL");
    await gone;
  }
}

/**
 * On the running site: nginx, then for each path idle and with a backup started 1 s in, nginx
 * after each; each figure against the mean of the nginx runs beside it.
 */
async function throughput(dir, { name, site, backup }) {
  const base = `http://127.0.0.1:${PORT}`;
  // As wrk asks: no Accept-Encoding (fetch would ask for gzip and decode it).
  await rawGet(`${base}/`);
  const home = await rawGet(`${base}/`);
  if (home.status !== 200) throw new Error(`GET / answered ${home.status}`);
  const html = home.body;
  if (home.headers["content-encoding"]) throw new Error(`the site encoded / as ${home.headers["content-encoding"]} for a client that asked for none`);
  const about = await rawGet(`${base}/about`);
  if (about.status !== 200) throw new Error(`GET /about answered ${about.status}`);
  const nginxDir = path.join(dir, `nginx-${name}`);
  mkdirSync(nginxDir, { recursive: true });
  const nginx = startNginx(nginxDir, html, home.headers["content-type"] ?? "text/html");
  try {
    const ceilingUrl = `http://127.0.0.1:${NGINX_PORT}/index.html`;
    for (let i = 0; i < 40; i++) {
      if (nginx.exitCode !== null) throw new Error("nginx exited at start");
      const r = await rawGet(ceilingUrl).catch(() => null);
      if (r?.status === 200) {
        if (!r.body.equals(html)) throw new Error("nginx does not serve the home page's bytes");
        break;
      }
      await sleep(250);
    }
    const load = loadavg()[0];
    if (WARMUP > 0) {
      await wrk(ceilingUrl, WARMUP);
      await wrk(`${base}/`, WARMUP);
      await wrk(`${base}/about`, WARMUP);
    }
    const ceilings = [await wrk(ceilingUrl, SECONDS)];
    const rows = [];
    for (const p of ["/", "/about"]) {
      for (const during of [false, true]) {
        let r;
        let taken = null;
        if (!during) r = await wrk(base + p, SECONDS);
        else {
          const t0 = performance.now();
          let wrkEnd = 0;
          const running = wrk(base + p, SECONDS).then((x) => ((wrkEnd = performance.now()), x));
          await sleep(1000);
          const bStart = performance.now();
          taken = await backup(siteProcesses(site));
          const bEnd = performance.now();
          r = await running;
          taken.startS = (bStart - t0) / 1000;
          taken.endS = (bEnd - t0) / 1000;
          taken.overlapS = (Math.min(bEnd, wrkEnd) - bStart) / 1000;
        }
        const after = await wrk(ceilingUrl, SECONDS);
        const beside = (ceilings.at(-1).rps + after.rps) / 2;
        ceilings.push(after);
        rows.push({ path: p, during, ...r, nginxBeside: beside, share: r.rps / beside, backup: taken });
        log(
          `  ${name} ${p} ${during ? "during a backup" : "idle"}: ${Math.round(r.rps)} req/s (${pct(r.rps / beside)} of nginx ${Math.round(beside)}), p99 ${fmtMs(r.p99)} ms, max ${r.maxMs == null ? "?" : fmtMs(r.maxMs)} ms, non-2xx ${r.non2xx}, socket errors ${r.socketErrors}` +
            (taken ? `; backup ${taken.seconds.toFixed(1)} s, from ${taken.startS.toFixed(1)} s to ${taken.endS.toFixed(1)} s of the run${taken.ok ? "" : ", FAILED"}; ${probeText(taken.readyz)}` : ""),
        );
        if (taken?.readyz?.firstNotOk) log(`    /readyz's first answer other than 200: ${taken.readyz.firstNotOk}`);
      }
    }
    return { loadAverage: load, homeBytes: html.length, nginxRuns: ceilings.map((c) => Math.round(c.rps)), rows };
  } finally {
    await stopNginx(nginx);
  }
}

// --- measured steps ------------------------------------------------------------------------------

const results = { backups: [], restores: [], throughput: {} };

function summarize(m) {
  const peaks = {};
  for (const [label, p] of Object.entries(m.memory.peaks)) peaks[label] = { peakRssMb: mb(Math.max(p.rssMax, p.hwm)), sampledRssMaxMb: mb(p.rssMax) };
  return peaks;
}

/** A PGlite backup taken by the running site (asked by `npm run backup`), the site's processes watched. */
async function backupViaSite(env, site, watch = siteProcesses(site)) {
  const prober = probe(`http://127.0.0.1:${PORT}/readyz`);
  const m = await runMeasured(["scripts/backup.mjs"], env, { watch });
  const readyz = await prober.stop();
  const ok = m.code === 0 && m.lastLine.endsWith(".tar") && existsSync(m.lastLine);
  const owner = m.memory.peaks["site owner"] ?? m.memory.peaks["site primary"];
  const ownerLabel = m.memory.peaks["site owner"] ? "site owner" : "site primary";
  return {
    ok,
    seconds: m.ms / 1000,
    file: ok ? m.lastLine : null,
    bytes: ok ? statSync(m.lastLine).size : null,
    error: ok ? null : `${m.stderr.trim()}\n${m.stdout.trim()}`.trim().slice(0, 2000),
    worker: ownerLabel,
    workerRssBeforeMb: mb(m.before[ownerLabel]),
    workerPeakMb: owner ? mb(Math.max(owner.rssMax, owner.hwm)) : null,
    workerRssAfterMb: mb(m.after[ownerLabel]),
    commandPeakMb: mb(m.memory.peaks.command?.hwm),
    readyz,
    archive: ok ? archiveEntries(m.lastLine) : null,
    peaks: summarize(m),
  };
}

/** A backup by the command itself (PostgreSQL: pg_dump; PGlite: DATA_DIR opened by the command). */
async function backupByCommand(env, { siteRunning = false } = {}) {
  const prober = siteRunning ? probe(`http://127.0.0.1:${PORT}/readyz`) : null;
  const m = await runMeasured(["scripts/backup.mjs"], env);
  const readyz = prober ? await prober.stop() : null;
  const ok = m.code === 0 && m.lastLine.endsWith(".tar") && existsSync(m.lastLine);
  const pgDump = m.memory.peaks.pg_dump;
  return {
    ok,
    seconds: m.ms / 1000,
    file: ok ? m.lastLine : null,
    bytes: ok ? statSync(m.lastLine).size : null,
    summary: m.stdout.split("\n").find((l) => l.startsWith("Backup written")) ?? null,
    error: ok ? null : `${m.stderr.trim()}\n${m.stdout.trim()}`.trim().slice(0, 2000),
    worker: "command",
    commandPeakMb: mb(m.memory.peaks.command?.hwm),
    pgDumpPeakMb: pgDump ? mb(pgDump.hwm) : null,
    sumPeakMb: mb(m.memory.sumPeakKb),
    readyz,
    archive: ok ? archiveEntries(m.lastLine) : null,
    peaks: summarize(m),
  };
}

/** Seconds of each step the restore announces: checking the file, the schema, loading, the newer migrations and the end. */
function restoreSteps(steps) {
  const at = (re) => steps.find((x) => re.test(x.line))?.s ?? null;
  const checking = at(/^Checking /);
  const whole = at(/^The file is whole/);
  const schema = at(/^Making the schema/);
  const loading = at(/^Loading the rows/);
  const newer = at(/^Applying this version/);
  const done = at(/^Restored into/);
  const span = (a, b) => (a != null && b != null ? Number((b - a).toFixed(1)) : null);
  return {
    startS: checking == null ? null : Number(checking.toFixed(1)),
    checkS: span(checking, whole),
    // PGlite: the target's lock, a look for data, and a new database made (PGlite's initdb); PostgreSQL: a look for data.
    openS: span(whole, schema),
    schemaS: span(schema, loading),
    loadS: span(loading, newer),
    newerMigrationsAndMoveS: span(newer, done),
  };
}

async function restore(file, env) {
  const m = await runMeasured(["scripts/restore.mjs", file], env);
  const ok = m.code === 0;
  return {
    ok,
    seconds: m.ms / 1000,
    commandPeakMb: mb(m.memory.peaks.command?.hwm),
    sumPeakMb: mb(m.memory.sumPeakKb),
    summary: m.stdout.split("\n").filter((l) => /rows in|images,/.test(l)).map((l) => l.trim()),
    steps: restoreSteps(m.steps),
    error: ok ? null : `${m.stderr.trim()}\n${m.stdout.trim()}`.trim().slice(0, 2000),
    peaks: summarize(m),
  };
}

/** What a probe of /readyz saw during a backup, in words. */
const probeText = (r) => (r ? `/readyz every 50 ms: ${r.answers} answers, median ${r.medianMs} ms, longest ${fmtMs(r.maxMs)} ms, ${r.over100ms} over 100 ms${r.notOk ? `, ${Object.entries(r.statuses).map(([k, n]) => `${n} answered ${k}`).join(", ")}` : ""}` : "");

/** Memory of a backup or restore, in words. */
function memoryText(e) {
  if (e.kind === "restore") return `${e.commandPeakMb} (restore command)`;
  if (e.worker === "command") return `${e.commandPeakMb} (backup command)${e.pgDumpPeakMb != null ? ` + ${e.pgDumpPeakMb} (pg_dump)` : ""}`;
  return `${e.workerPeakMb} (site owner; ${e.workerRssBeforeMb} before, ${e.workerRssAfterMb} after); command ${e.commandPeakMb}`;
}

function stepsText(e) {
  const st = e.steps;
  if (!st) return "";
  return `steps: start ${st.startS}, check ${st.checkS}, open the target ${st.openS}, schema ${st.schemaS}, load ${st.loadS}, newer migrations and the end ${st.newerMigrationsAndMoveS} s`;
}

function resultText(e) {
  if (!e.ok) return `FAILED: ${e.error.split("\n")[0].slice(0, 160)}`;
  const parts = [];
  if (e.bytes) parts.push(`${(e.bytes / 1e6).toFixed(1)} MB file${e.archive?.databaseGzBytes ? ` (rows: ${(e.archive.databaseGzBytes / 1e6).toFixed(1)} MB gzipped)` : ""}`);
  if (e.databaseBytes) parts.push(`database ${(e.databaseBytes / 1e6).toFixed(0)} MB`);
  if (e.dataBytes) parts.push(`DATA_DIR ${(e.dataBytes / 1e6).toFixed(0)} MB`);
  if (e.steps) parts.push(stepsText(e));
  if (e.readyz) parts.push(probeText(e.readyz));
  return parts.join("; ") || "ok";
}

function record(list, entry) {
  list.push(entry);
  log(`  ${entry.kind} ${entry.label}, ${entry.collection}: ${entry.ok ? "ok" : "FAILED"} in ${entry.seconds.toFixed(1)} s; peak RSS MB ${memoryText(entry)}; ${resultText(entry)}`);
  if (!entry.ok) log(`    ${entry.error.replaceAll("\n", "\n    ")}`);
  if (entry.readyz?.firstNotOk) log(`    /readyz's first answer other than 200: ${entry.readyz.firstNotOk}`);
  return entry;
}

/** The restores of one collection's backups, into fresh targets; the PostgreSQL database restored from PGlite is returned (kept). */
async function restores(dir, collection, pgliteBackup, { keepPostgres }) {
  const target = path.join(dir, `restore-${collection}-pglite`);
  mkdirSync(target, { recursive: true });
  const r1 = await restore(pgliteBackup.file, commandEnv({ DATA_DIR: target }));
  record(results.restores, { kind: "restore", label: "PGlite -> PGlite", from: "pglite", into: "pglite", collection, ...r1, dataBytes: r1.ok ? await folderBytes(target) : null });
  rmSync(target, { recursive: true, force: true });

  const db = await createDatabase(`${collection}_a`);
  const r2 = await restore(pgliteBackup.file, commandEnv({ DATA_DIR: path.join(dir, `pg-cli-${collection}`), DATABASE_URL: db.url }));
  record(results.restores, { kind: "restore", label: "PGlite -> PostgreSQL", from: "pglite", into: "postgres", collection, ...r2, databaseBytes: r2.ok ? await databaseBytes(db) : null });
  if (!r2.ok) throw new Error("the PGlite -> PostgreSQL restore failed: nothing to measure on PostgreSQL");

  const backupDir = path.join(dir, `backups-${collection}-postgres`);
  const b = await backupByCommand(commandEnv({ DATA_DIR: path.join(dir, `pg-cli-${collection}`), BACKUP_DIR: backupDir, DATABASE_URL: db.url }));
  record(results.backups, { kind: "backup", label: "PostgreSQL (pg_dump)", database: "postgres", collection, ...b });
  if (b.ok) {
    const db2 = await createDatabase(`${collection}_b`);
    const r3 = await restore(b.file, commandEnv({ DATA_DIR: path.join(dir, `pg-cli-${collection}`), DATABASE_URL: db2.url }));
    record(results.restores, { kind: "restore", label: "PostgreSQL -> PostgreSQL", from: "postgres", into: "postgres", collection, ...r3, databaseBytes: r3.ok ? await databaseBytes(db2) : null });
    await dropDatabase(db2);
    const target2 = path.join(dir, `restore-${collection}-pglite-from-pg`);
    mkdirSync(target2, { recursive: true });
    const r4 = await restore(b.file, commandEnv({ DATA_DIR: target2 }));
    record(results.restores, { kind: "restore", label: "PostgreSQL -> PGlite", from: "postgres", into: "pglite", collection, ...r4, dataBytes: r4.ok ? await folderBytes(target2) : null });
    rmSync(target2, { recursive: true, force: true });
    rmSync(backupDir, { recursive: true, force: true });
  }
  if (!keepPostgres) {
    await dropDatabase(db);
    return null;
  }
  return db;
}

// --- printing ------------------------------------------------------------------------------------

const pct = (x) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;
const fmtMs = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

function printTables(meta) {
  const L = meta.large;
  console.log(
    `\nBackup bench, ${new Date().toISOString()}: Node ${process.version}, ${availableParallelism()} cores, load average ${meta.loadAverageStart.toFixed(1)} at the start; ` +
      `large collection = demo + ${L.exhibitsAdded} exhibits, ${L.files} originals of about 1 MB (${(L.bytes / 1e9).toFixed(2)} GB; media folder ${((L.mediaBytes ?? 0) / 1e9).toFixed(2)} GB, PGlite folder ${((L.pgliteBytes ?? 0) / 1e6).toFixed(0)} MB of which WAL ${((L.pgliteWalBytes ?? 0) / 1e6).toFixed(0)} MB); the whole run took ${meta.totalSeconds.toFixed(0)} s\n`,
  );
  console.log("| step | collection | time s | peak RSS MB (process) | result |");
  console.log("|---|---|---|---|---|");
  const all = [...results.backups, ...results.restores];
  for (const collection of ["demo", "large"]) {
    for (const e of all.filter((x) => x.collection === collection)) console.log(`| ${e.kind} ${e.label} | ${collection} | ${e.seconds.toFixed(1)} | ${memoryText(e)} | ${resultText(e)} |`);
  }
  for (const [name, t] of Object.entries(results.throughput)) {
    if (!t) continue;
    console.log(
      `\n${name}, large collection: wrk -t1 -c20 -d${SECONDS}s --latency (after ${WARMUP} s of warm-up), no Accept-Encoding; nginx (${availableParallelism()} workers) sending the home page's ${t.homeBytes} bytes: ${Math.min(...t.nginxRuns)}-${Math.max(...t.nginxRuns)} req/s over ${t.nginxRuns.length} runs; load average ${t.loadAverage.toFixed(1)} at the start`,
    );
    console.log("| path | idle: req/s (share of nginx), p99 / max ms, errors | during a backup: req/s (share), p99 / max ms, errors | during / idle: req/s (share) | the backup under load |");
    console.log("|---|---|---|---|---|");
    for (const p of ["/", "/about"]) {
      const idle = t.rows.find((r) => r.path === p && !r.during);
      const busy = t.rows.find((r) => r.path === p && r.during);
      if (!idle || !busy) continue;
      const b = busy.backup;
      const mem = b.worker === "command" ? `command ${b.commandPeakMb} MB${b.pgDumpPeakMb != null ? ` + pg_dump ${b.pgDumpPeakMb} MB` : ""}` : `owner ${b.workerRssBeforeMb} -> ${b.workerPeakMb} MB`;
      const cell = (r) => `${Math.round(r.rps)} (${pct(r.share)}), ${fmtMs(r.p99)} / ${r.maxMs == null ? "?" : fmtMs(r.maxMs)}, ${r.non2xx + r.socketErrors}`;
      console.log(
        `| ${p} | ${cell(idle)} | ${cell(busy)} | ${(busy.rps / idle.rps).toFixed(2)} (${(busy.share / idle.share).toFixed(2)}) | ${b.ok ? "" : "FAILED, "}${b.seconds.toFixed(1)} s, ${b.startS.toFixed(1)}-${b.endS.toFixed(1)} s into the run; ${mem}; ${probeText(b.readyz)} |`,
      );
    }
  }
  console.log("\n(errors: wrk's non-2xx/3xx answers plus its socket errors; a share is of the mean of the nginx runs just before and just after.)");
}

// --- main --------------------------------------------------------------------------------------------

ensureTools();
const dir = mkdtempSync(path.join(tmpdir(), "museum-backup-bench-"));
const meta = { loadAverageStart: loadavg()[0], large: { exhibitsAdded: 0, files: 0, bytes: 0 } };
let site = null;
let cleaning = null;

async function cleanUp() {
  cleaning ??= (async () => {
    await stopSite(site).catch(() => undefined);
    for (const child of [...children]) {
      for (const d of descendants(child.pid)) {
        try {
          process.kill(d.pid, "SIGKILL");
        } catch {
          // gone
        }
      }
      child.kill("SIGKILL");
    }
    for (const name of [...databases]) await adminQuery(`drop database if exists ${name} with (force)`).catch((e) => console.error(`could not drop ${name}: ${e.message}`));
    rmSync(dir, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanUp().then(() => process.exit(130));
  });
}

let failure = null;
try {
  log(`temporary folder ${dir}; site on port ${PORT}, nginx on ${NGINX_PORT}; load average ${meta.loadAverageStart.toFixed(1)}`);
  const dataDir = path.join(dir, "data");
  const pgliteBackups = path.join(dir, "backups-pglite");
  const siteEnv = commandEnv({ DATA_DIR: dataDir, BACKUP_DIR: pgliteBackups });

  // (a) The demo collection.
  log("demo collection: first start (migrate, seed)");
  site = await startSite(dir, { dataDir, backupDir: pgliteBackups, name: "pglite-demo" });
  meta.demoFirstStartSeconds = site.startSeconds;
  log(`  site up in ${site.startSeconds.toFixed(1)} s; media ${(await folderBytes(path.join(dataDir, "media")) / 1e6).toFixed(1)} MB`);
  await sleep(2000);
  const demoBackup = record(results.backups, { kind: "backup", label: "PGlite (the running site)", database: "pglite", collection: "demo", ...(await backupViaSite(siteEnv, site)) });
  await stopSite(site);
  site = null;
  if (!demoBackup.ok) throw new Error("the PGlite backup of the demo collection failed");
  record(results.backups, { kind: "backup", label: "PGlite (no site: the command opens DATA_DIR)", database: "pglite", collection: "demo", ...(await backupByCommand(siteEnv)) });
  await restores(dir, "demo", demoBackup, { keepPostgres: false });

  // (b) The large collection: the same DATA_DIR, grown while no site runs.
  log(`large collection: ${EXTRA_EXHIBITS} exhibits and ${FILES} originals`);
  meta.large = await growCollection(dataDir);
  meta.large.pgliteBytes = await folderBytes(path.join(dataDir, "pglite"));
  meta.large.pgliteWalBytes = await folderBytes(path.join(dataDir, "pglite", "pg_wal"));
  meta.large.mediaBytes = await folderBytes(path.join(dataDir, "media"));
  rmSync(pgliteBackups, { recursive: true, force: true });
  record(results.backups, { kind: "backup", label: "PGlite (no site: the command opens DATA_DIR)", database: "pglite", collection: "large", ...(await backupByCommand(siteEnv)) });
  rmSync(pgliteBackups, { recursive: true, force: true });

  site = await startSite(dir, { dataDir, backupDir: pgliteBackups, name: "pglite-large" });
  log(`  site up on the large collection in ${site.startSeconds.toFixed(1)} s`);
  meta.largePgliteStartSeconds = site.startSeconds;
  await sleep(2000);
  const largeBackup = record(results.backups, { kind: "backup", label: "PGlite (the running site)", database: "pglite", collection: "large", ...(await backupViaSite(siteEnv, site)) });
  if (!largeBackup.ok) throw new Error("the PGlite backup of the large collection failed");
  // Kept outside BACKUP_DIR: the backups taken under load are removed as they come.
  const largeFile = path.join(dir, "large-pglite.tar");
  await fs.rename(largeBackup.file, largeFile);
  largeBackup.file = largeFile;

  log("visitors during a backup, PGlite");
  results.throughput.PGlite = await throughput(dir, {
    name: "PGlite",
    site,
    backup: async (watch) => {
      const b = await backupViaSite(siteEnv, site, watch);
      if (b.file) rmSync(b.file, { force: true });
      return b;
    },
  });
  await stopSite(site);
  site = null;
  rmSync(dataDir, { recursive: true, force: true });

  log("restores of the large collection");
  const largePostgres = await restores(dir, "large", largeBackup, { keepPostgres: true });
  rmSync(largeFile, { force: true });

  log("visitors during a backup, PostgreSQL (WEB_CONCURRENCY=2)");
  const pgDataDir = path.join(dir, "pg-site");
  const pgBackups = path.join(dir, "backups-pg-under-load");
  site = await startSite(dir, { dataDir: pgDataDir, databaseUrl: largePostgres.url, backupDir: pgBackups, concurrency: 2, name: "postgres-large" });
  log(`  site up in ${site.startSeconds.toFixed(1)} s`);
  const pgEnv = commandEnv({ DATA_DIR: pgDataDir, BACKUP_DIR: pgBackups, DATABASE_URL: largePostgres.url });
  results.throughput.PostgreSQL = await throughput(dir, {
    name: "PostgreSQL",
    site,
    backup: async () => {
      const b = await backupByCommand(pgEnv, { siteRunning: true });
      if (b.file) rmSync(b.file, { force: true });
      return b;
    },
  });
  await stopSite(site);
  site = null;
} catch (error) {
  failure = error;
  console.error(`\nThe bench stopped: ${error.stack ?? error.message}`);
  if (site?.logFile && existsSync(site.logFile)) console.error(`site log (last lines):\n${readFileSync(site.logFile, "utf8").slice(-2000)}`);
} finally {
  await cleanUp();
}

meta.totalSeconds = (performance.now() - startedAt) / 1000;
printTables(meta);
if (meta.totalSeconds > 15 * 60) console.log(`\nNote: the run took ${(meta.totalSeconds / 60).toFixed(1)} minutes, more than the 15 aimed at.`);
if (!process.env.BACKUP_BENCH_KEEP_LAST) {
  const strip = (e) => ({ ...e, file: e.file ? path.basename(e.file) : e.file });
  const record = {
    date: new Date().toISOString(),
    node: process.version,
    cores: availableParallelism(),
    ...meta,
    wrk: { threads: 1, connections: 20, seconds: SECONDS, warmupSeconds: WARMUP },
    failure: failure ? String(failure.message ?? failure) : null,
    backups: results.backups.map(strip),
    restores: results.restores,
    throughput: Object.fromEntries(
      Object.entries(results.throughput).map(([k, t]) => [k, t && { ...t, rows: t.rows.map((r) => ({ ...r, rps: Math.round(r.rps), nginxBeside: Math.round(r.nginxBeside), share: Number(r.share.toFixed(4)), p99: Number(r.p99.toFixed(2)), backup: r.backup && strip(r.backup) })) }]),
    ),
  };
  writeFileSync(LAST_RUN, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`\nRaw figures in ${path.relative(root, LAST_RUN)}`);
}
process.exit(failure ? 1 : 0);
