// `npm run bench:search` (and the end of `npm run bench`): search and suggestion
// latency at a real museum's scale. For PGlite, and for PostgreSQL when one is reachable
// (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test): a fresh database with the
// demo collection (build/host/seed-cli.js) plus a generated one of 10,000 exhibits and 2,000
// enshrinees (bench/generate-collection.mjs), then the production build serving it. One client
// over a kept-alive connection sends a fixed mix of searches, as a visitor and as a member (a
// ticket bought in test mode through the API), and of suggestions, one after another, timing
// each answer to its last byte. Prints p50/p95/p99/max per kind against the aims (search p95
// under 20 ms, suggestion p95 under 10 ms) and writes bench/search-last-run.json.
//
// The machine may be shared (other builds, browsers, benchmarks): a request's wall time then
// includes waiting for a core. So each request's service time is measured too: the CPU time
// the site's processes and the PostgreSQL backends serving it used for that request (Linux
// /proc/<pid>/task/*/schedstat, nanoseconds), which other load on the machine does not inflate.
// On an idle machine the latency is the service time plus a fraction of a millisecond.
//
// Variables: BENCH_SEARCHES (400 per viewer), BENCH_SUGGESTIONS (600), BENCH_DATABASE
// (pglite | postgres | both; default both when PostgreSQL is reachable), BENCH_EXHIBITS (10000),
// BENCH_ENSHRINEES (2000), BENCH_SEARCH_PORT (4530: the port the site listens on).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import pg from "pg";
import { cpuNs, servingPids } from "./service-time.mjs";
import { collectionFrame, compactSearchDocuments, generateCollection, insertCollection } from "./generate-collection.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.BENCH_SEARCH_PORT ?? 4530);
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 400);
const SUGGESTIONS = Number(process.env.BENCH_SUGGESTIONS ?? 600);
const SIZE = { exhibits: Number(process.env.BENCH_EXHIBITS ?? 10_000), enshrinees: Number(process.env.BENCH_ENSHRINEES ?? 2_000) };
const AIMS = { search: 20, suggest: 10 };
const SESSION_SECRET = "bench-search-secret-bench-search-secret-01";

function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const words = (text) => text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
const typo = (rand, word) => {
  const i = 1 + Math.floor(rand() * (word.length - 2));
  return word.slice(0, i) + word.slice(i + 1);
};

/**
 * The searches and suggestions a museum's visitors make, drawn from the generated collection:
 * names, title words and phrases, typos, filters, web-search syntax, a few broad words.
 */
function workload(collection, frame) {
  const rand = random(1414);
  const titles = collection.exhibits.map((e) => e.title);
  const people = collection.enshrinees;
  const teamWords = frame.teams.map((t) => t.name.split(" ").at(-1).toLowerCase());
  const searches = [];
  const add = (kind, params) => searches.push({ kind, query: new URLSearchParams(params).toString() });
  while (searches.length < SEARCHES) {
    const r = rand();
    const person = pick(rand, people);
    const title = pick(rand, titles);
    const tw = words(title);
    if (r < 0.2) add("last name", { q: person.lastName });
    else if (r < 0.32) add("full name", { q: person.fullName });
    else if (r < 0.47) add("title words", { q: tw.slice(0, 2).join(" ") });
    else if (r < 0.55) add("phrase", { q: `"${tw.slice(-3, -1).join(" ")}"` });
    else if (r < 0.65) add("typo", { q: typo(rand, person.lastName.length > 4 ? person.lastName : person.fullName) });
    else if (r < 0.73) add("name + team", { q: person.lastName, team: pick(rand, frame.teams).id });
    else if (r < 0.79) add("word + decade", { q: pick(rand, tw), decade: String(1890 + 10 * Math.floor(rand() * 13)), type: "exhibit" });
    else if (r < 0.84) add("team name", { q: pick(rand, teamWords) });
    else if (r < 0.9) add("web syntax", { q: `${pick(rand, tw)} -${pick(rand, teamWords)}` });
    else if (r < 0.95) add("word, by year, page 2", { q: pick(rand, tw), sort: "year", page: "2" });
    else add("word or word", { q: `${pick(rand, tw)} or ${pick(rand, words(pick(rand, titles)))}` });
  }
  const suggestions = [];
  while (suggestions.length < SUGGESTIONS) {
    const r = rand();
    const source = r < 0.5 ? pick(rand, people).fullName : pick(rand, titles);
    if (r > 0.9) {
      const w = pick(rand, words(source)) ?? source;
      suggestions.push({ kind: "typo", query: new URLSearchParams({ q: w.length > 5 ? typo(rand, w) : w }).toString() });
      continue;
    }
    const length = 2 + Math.floor(rand() * 9);
    suggestions.push({ kind: `${length} characters`, query: new URLSearchParams({ q: source.slice(0, length) }).toString() });
  }
  return { searches, suggestions };
}

// ---- databases ------------------------------------------------------------------------------------

async function postgresReachable() {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database of `kind` holding the demo and the generated collection; returns the site's environment. */
async function prepare(kind, dataDir) {
  const env = { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", WARM_RENDITIONS: "false", DATA_DIR: dataDir, SESSION_SECRET };
  let drop = async () => undefined;
  if (kind === "postgres") {
    const name = `museum_bench_search_${process.pid}`;
    await adminQuery(`drop database if exists ${name}`);
    await adminQuery(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    drop = () => adminQuery(`drop database if exists ${name} with (force)`);
  } else {
    delete env.DATABASE_URL;
  }
  const seeded = spawnSync(process.execPath, ["build/host/seed-cli.js"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "inherit"] });
  if (seeded.status !== 0) throw new Error("seeding the demo collection failed");

  let query;
  let close;
  if (kind === "postgres") {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    query = (text, params) => client.query(text, params);
    close = () => client.end();
  } else {
    const db = new PGlite(path.join(dataDir, "pglite"), { extensions: { unaccent, pg_trgm } });
    await db.waitReady;
    query = (text, params) => db.query(text, params);
    close = () => db.close();
  }
  const started = performance.now();
  const frame = await collectionFrame(query);
  const collection = generateCollection({ ...frame, ...SIZE });
  await query("begin", []);
  await insertCollection(query, collection);
  await query("commit", []);
  await compactSearchDocuments(query);
  const [{ documents }] = (await query("select count(*)::int as documents from search_documents", [])).rows;
  await close();
  const generatedIn = (performance.now() - started) / 1000;
  return { env, drop, frame, collection, documents, generatedIn };
}

// ---- the site and its client ----------------------------------------------------------------------

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** A GET timed to its last byte; asked again once if the server had closed the kept-alive socket meanwhile. */
function get(pathAndQuery, cookie, retried = false) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: "127.0.0.1", port: PORT, path: pathAndQuery, agent, headers: cookie ? { cookie } : {} }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - started, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", (error) => {
      if (!retried && req.reusedSocket && error.code === "ECONNRESET") resolve(get(pathAndQuery, cookie, true));
      else reject(error);
    });
    req.end();
  });
}

async function startSite(env) {
  const site = spawn(process.execPath, ["build/host/index.js"], {
    cwd: ROOT,
    env: { ...env, PORT: String(PORT), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${PORT}`, RATE_LIMIT_RELAXED: "true", WEB_CONCURRENCY: "1", SEED_DEMO: "false" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await get("/healthz")).status === 200) return site;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  site.kill("SIGTERM");
  throw new Error("the site did not start");
}

async function stopSite(site) {
  agent.destroy();
  site.kill("SIGTERM");
  await new Promise((r) => site.once("exit", r));
}

/** A member's cookie: sign up and buy a ticket with the test card through the API. */
async function memberCookie() {
  const email = `bench.${Date.now()}@example.com`;
  const post = (p, body, cookie) =>
    fetch(`http://127.0.0.1:${PORT}${p}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  const signUp = await post("/api/users/", { firstName: "Bench", lastName: "Member", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true });
  const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const paid = await post("/api/stripe/payment", { id: "pm_card_visa" }, cookie);
  if (!signUp.ok || !paid.ok) throw new Error(`could not make a member: ${signUp.status} ${paid.status}`);
  return cookie;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(label, path, items, cookie, pids) {
  for (const item of items.slice(0, 50)) await get(`${path}?${item.query}`, cookie); // warm-up, unmeasured
  const times = [];
  const cpu = [];
  const byKind = new Map();
  let errors = 0;
  for (const item of items) {
    const before = cpuNs(pids);
    const res = await get(`${path}?${item.query}`, cookie);
    const used = (cpuNs(pids) - before) / 1e6;
    if (res.status !== 200) errors++;
    times.push(res.ms);
    cpu.push(used);
    const list = byKind.get(item.kind) ?? [];
    list.push(used);
    byKind.set(item.kind, list);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const slowest = [...byKind].map(([kind, list]) => ({ kind, p95: percentile(list.sort((a, b) => a - b), 95), n: list.length })).sort((a, b) => b.p95 - a.p95);
  const stats = (list) => ({ p50: percentile(list, 50), p95: percentile(list, 95), p99: percentile(list, 99), max: list.at(-1) });
  return { label, n: times.length, wall: stats(times), service: stats(cpu), errors, slowestService: slowest.slice(0, 3) };
}

// ---- main -----------------------------------------------------------------------------------------

if (!existsSync(path.join(ROOT, "build/host/index.js")) || !existsSync(path.join(ROOT, "build/host/seed-cli.js"))) {
  console.error("build/ is missing: run `npm run build` first (npm run bench:search does)");
  process.exit(1);
}
const wanted = process.env.BENCH_DATABASE ?? "both";
const kinds = [];
if (wanted !== "postgres") kinds.push("pglite");
if (wanted !== "pglite") {
  if (await postgresReachable()) kinds.push("postgres");
  else console.log(`(PostgreSQL at ${ADMIN_URL} unreachable: search benchmark on PGlite only)`);
}

const runs = [];
for (const kind of kinds) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "museum-bench-search-"));
  console.log(`\n${kind}: seeding the demo collection and generating ${SIZE.exhibits} exhibits and ${SIZE.enshrinees} enshrinees...`);
  const prepared = await prepare(kind, dataDir);
  console.log(`${kind}: ${prepared.documents} search documents (generated and indexed in ${prepared.generatedIn.toFixed(1)} s)`);
  const site = await startSite(prepared.env);
  try {
    const member = await memberCookie();
    const { searches, suggestions } = workload(prepared.collection, prepared.frame);
    await get("/api/search?q=warm"); // opens the pool's connection before the backends are listed
    const pids = await servingPids(site, prepared.env.DATABASE_URL);
    const rows = [
      await measure("search, visitor", "/api/search", searches, undefined, pids),
      await measure("search, member", "/api/search", searches, member, pids),
      await measure("suggestion", "/api/search/suggest", suggestions, undefined, pids),
    ];
    runs.push({ database: kind === "postgres" ? "PostgreSQL" : "PGlite", documents: prepared.documents, rows });
  } finally {
    await stopSite(site);
    await prepared.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n) => n.toFixed(1);
const lines = [
  `Search at ${SIZE.exhibits} generated exhibits and ${SIZE.enshrinees} enshrinees (plus the demo collection), one client, one request at a time, Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} at the end`,
  "",
  "Latency (wall time to the last byte, ms) and service time (CPU the site and its database used for the request, ms):",
  "",
  "| database | what | requests | latency p50 | latency p95 | latency p99 | service p50 | service p95 | service p99 | aim (p95) | latency met | service met | errors |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
];
for (const run of runs) {
  for (const r of run.rows) {
    const aim = r.label.startsWith("suggestion") ? AIMS.suggest : AIMS.search;
    lines.push(
      `| ${run.database} | ${r.label} | ${r.n} | ${fmt(r.wall.p50)} | ${fmt(r.wall.p95)} | ${fmt(r.wall.p99)} | ${fmt(r.service.p50)} | ${fmt(r.service.p95)} | ${fmt(r.service.p99)} | < ${aim} | ${r.wall.p95 < aim ? "yes" : "no"} | ${r.service.p95 < aim ? "yes" : "no"} | ${r.errors} |`,
    );
  }
}
lines.push("", "Costliest kinds of request (service time p95, ms):");
for (const run of runs) {
  for (const r of run.rows) lines.push(`- ${run.database}, ${r.label}: ${r.slowestService.map((k) => `${k.kind} ${fmt(k.p95)}`).join("; ")}`);
}
console.log(`\n${lines.join("\n")}\n`);
writeFileSync(path.join(ROOT, "bench/search-last-run.json"), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, loadAverage: loadavg()[0], size: SIZE, runs }, null, 2)}\n`);
if (runs.some((run) => run.rows.some((r) => r.errors > 0))) process.exitCode = 1;
