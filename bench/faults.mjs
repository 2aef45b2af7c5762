// `npm run bench:faults` ("How it will be checked"): the operator's fault run, from
// outside. On a fresh PostgreSQL database: two instances of the compiled host with two workers
// each (WEB_CONCURRENCY=2), nginx in front configured from the deployment guide (docs/deployment.md) (its
// ```nginx block, with local addresses and without TLS), SMTP to a sink in this script, and
// METRICS_TOKEN set. 20 clients drive mixed writes (sign-up + login, contact posts and
// subscriptions with an Idempotency-Key, retried with the same key on a network error or 5xx,
// member page reads), one staff client uploads a photo on instance A and reads it back from
// instance B directly, and one signs a curator in again and again from a new browser (password,
// then the code emailed to the SMTP sink, then a console page: decision 055's second step). Faults, one after another with quiet gaps:
//   1. pg_terminate_backend of every connection of the site's database, three times;
//   2. SIGTERM of instance A, then a restart;
//   3. kill -9 of instance B's primary and workers, then a restart;
//   4. a PostgreSQL restart, simulated without root: ALTER DATABASE ... ALLOW_CONNECTIONS false,
//      terminate every connection, wait 6 s, allow connections again;
//   5. only with FAULTS_RESTART_COMMAND (e.g. "pg_ctlcluster 15 main restart", as root): a real
//      restart of the cluster, skipped while other databases have connections.
// Then it counts worker exits, 5xx answers per fault window, acknowledged writes missing from the
// database, writes stored twice, emails delivered twice, photos B cannot read, and what /readyz
// and /metrics said during each window (sampled every 500 ms), and nginx's error.log lines within
// 2 s of each 5xx (refused connections and "temporarily disabled" left out), and prints a table
// (also written to bench/faults-last-run.json).
//
// Needs nginx (Debian's; installed when missing and root) and PostgreSQL (TEST_POSTGRES_URL,
// default postgres://postgres@127.0.0.1:5432/test). Variables: FAULTS_CLIENTS (20),
// FAULTS_GAP_SECONDS (quiet gap after each fault, 25), FAULTS_WARMUP_SECONDS (15).
// The test helpers (tests/helpers/instances.ts, databases.ts) are loaded through tsx.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import sharp from "sharp";
import { SMTPServer } from "smtp-server";
import { register } from "tsx/esm/api";

register();
const { call, findNginx, freePort, startInstance } = await import("../tests/helpers/instances.ts");
const { createPostgresDatabase } = await import("../tests/helpers/databases.ts");
const { readmeNginxConfig } = await import("./readme-nginx.mjs");

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const CLIENTS = Number(process.env.FAULTS_CLIENTS ?? 20);
const GAP = Number(process.env.FAULTS_GAP_SECONDS ?? 25) * 1000;
const WARMUP = Number(process.env.FAULTS_WARMUP_SECONDS ?? 15) * 1000;
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const METRICS_TOKEN = "faults-metrics-token-0123456789";
const SECRET = "faults-bench-secret-faults-bench-secret";
const PASSWORD = "Steel3rs!1979";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const started = performance.now();
const now = () => performance.now() - started;
const log = (msg) => console.log(`[${(now() / 1000).toFixed(1).padStart(6)} s] ${msg}`);

// --- tools -------------------------------------------------------------------------------------

if (!findNginx()) {
  if (process.getuid?.() !== 0) throw new Error("the fault run needs nginx: apt-get install -y nginx");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "nginx"], { stdio: "inherit", env });
}
process.chdir(root);
const build = spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

// --- SMTP sink ---------------------------------------------------------------------------------

/** Every message received: Message-ID, recipients, subject, Reply-To. */
const mails = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    let raw = "";
    stream.setEncoding("utf8");
    stream.on("data", (c) => (raw += c));
    stream.on("end", () => {
      const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
      const header = (name) => head.match(new RegExp(`^${name}:\\s*(.*)$`, "im"))?.[1].trim() ?? "";
      mails.push({ messageId: header("Message-ID"), to: session.envelope.rcptTo.map((r) => r.address).join(","), subject: header("Subject"), replyTo: header("Reply-To") });
      callback();
    });
  },
});
const smtpPort = await freePort();
// A worker killed mid-message resets its SMTP connection: that is the fault, not the sink's end.
smtp.on("error", () => undefined);
await new Promise((resolve) => smtp.listen(smtpPort, "127.0.0.1", resolve));

// --- the site ----------------------------------------------------------------------------------

const dir = mkdtempSync(path.join(tmpdir(), "museum-faults-"));
const database = await createPostgresDatabase();
const dbName = new URL(database.url).pathname.slice(1);
const [portA, portB, nginxPort] = [await freePort(), await freePort(), await freePort()];
const shared = {
  DATABASE_URL: database.url,
  PUBLIC_URL: `http://127.0.0.1:${nginxPort}`,
  TRUST_PROXY: "1",
  SESSION_SECRET: SECRET,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  METRICS_TOKEN,
  WEB_CONCURRENCY: "2",
  LOG_LEVEL: "warn",
  PAYMENTS: "test",
};
const envOf = (name) => ({ ...shared, DATA_DIR: path.join(dir, name.toLowerCase()) });
/** Each instance's incarnations (a restart adds one); the log of all of them is searched. */
const lives = { A: [], B: [] };
const current = (name) => lives[name].at(-1);
async function start(name) {
  const instance = await startInstance(name, name === "A" ? portA : portB, envOf(name));
  lives[name].push(instance);
  return instance;
}
log(`database ${dbName}; starting instance A (migrates and seeds), then B`);
await start("A");
await start("B");
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "nginx.conf"), readmeNginxConfig(dir, nginxPort, [portA, portB]));
const nginx = spawn(findNginx(), ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: ["ignore", "ignore", "inherit"] });
for (let i = 0; i < 100 && (await call(nginxPort, "/readyz", { timeoutMs: 1000 }).catch(() => ({ status: 0 }))).status !== 200; i++) await sleep(100);
log(`A on ${portA}, B on ${portB}, nginx on ${nginxPort} (deployment guide's upstream block), SMTP sink on ${smtpPort}`);

const admin = new pg.Pool({ connectionString: ADMIN_URL, max: 2 });
admin.on("error", () => {});
const siteQuery = async (text, values) => {
  const client = new pg.Client({ connectionString: database.url });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
};
const terminateAll = () => admin.query("select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [dbName]).then((r) => r.rows[0].n);

// --- windows, answers, samples -----------------------------------------------------------------

const windows = [{ name: "before the faults", from: 0, wall: Date.now() }];
const windowAt = (t) => windows.findLast((w) => w.from <= t) ?? windows[0];
function beginWindow(name) {
  windows.push({ name, from: now(), wall: Date.now() });
  log(`--- fault: ${name}`);
}
/** Every answer a client got: window, kind, status (0 = network error or timeout). */
const answers = [];
const record = (kind, status) => answers.push({ window: windowAt(now()).name, kind, status, wall: Date.now() });
/** While an instance is stopped on purpose, a refused direct call to it is the fault itself, not an answer. */
const stopped = { A: false, B: false };
const recordDirect = (instance, kind, status) => record(status === 0 && stopped[instance] ? `${kind}, refused while stopped` : kind, status);

let n = 0;
/** A loopback address of its own per operation, so the per-address limits never answer (nginx passes it on). */
const nextFrom = () => {
  const i = n++;
  return `127.${1 + (Math.floor(i / 62_500) % 250)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
};

/** A write with an Idempotency-Key through nginx, retried with the same key on a network error, 5xx or 409 (the first still running). */
async function keyedWrite(kind, pathName, body, from) {
  const key = randomUUID();
  for (let attempt = 1; attempt <= 30; attempt++) {
    const answer = await call(nginxPort, pathName, { body, from, timeoutMs: 20_000, headers: { "idempotency-key": key } }).catch(() => ({ status: 0, headers: {}, text: "" }));
    record(kind, answer.status);
    if (answer.status !== 0 && answer.status < 500 && answer.status !== 409) return { key, answer };
    await sleep(Math.min(2_000, 200 * attempt));
  }
  return { key, answer: { status: 0, headers: {}, text: "" } };
}

const acked = { signups: [], contacts: [], subscribes: [], photos: [] };
const tried = { contacts: [] };
const unreadNow = [];
let stop = false;

async function client(id) {
  let cookie = "";
  for (let round = 0; !stop; round++) {
    const pick = (id + round) % 4;
    const from = nextFrom();
    const uniq = `${id}.${round}.${Date.now()}`;
    if (pick === 0 || !cookie) {
      const email = `fan.${uniq}@example.com`;
      const person = { firstName: "Terry", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true };
      const { answer } = await keyedWrite("sign-up", "/api/users/", person, from);
      if (answer.status === 201) {
        acked.signups.push(email);
        for (let attempt = 1; attempt <= 10 && !stop; attempt++) {
          const login = await call(nginxPort, "/api/users/login", { body: { emailAddress: email, password: PASSWORD }, from, timeoutMs: 20_000 }).catch(() => ({ status: 0, headers: {} }));
          record("login", login.status);
          if (login.status === 200) {
            cookie = String(login.headers["set-cookie"]?.[0] ?? "").split(";")[0];
            break;
          }
          if (login.status !== 0 && login.status < 500) break;
          await sleep(300 * attempt);
        }
      }
    } else if (pick === 1) {
      const marker = `faults ${uniq}`;
      const message = { firstName: "Ada", lastName: "Fan", email: `ada.${uniq}@example.com`, subject: "Question", message: marker, subscribe: false };
      const { key, answer } = await keyedWrite("contact", "/api/email/contact", message, from);
      tried.contacts.push({ key, marker });
      if (answer.status === 200) acked.contacts.push(marker);
    } else if (pick === 2) {
      const email = `sue.${uniq}@example.com`;
      const { answer } = await keyedWrite("subscribe", "/api/subscribes", { firstName: "Sue", lastName: "Fan", emailAddress: email, subscribe: true }, from);
      if (answer.status === 200) acked.subscribes.push(email);
    } else {
      const page = await call(nginxPort, "/account", { cookie, from, timeoutMs: 20_000 }).catch(() => ({ status: 0 }));
      record("member page", page.status);
    }
    await sleep(150);
  }
}

/** The staff client: a photo uploaded on instance A every few seconds, read back from instance B directly. */
async function staffClient(cookie, exhibitIds, jpeg) {
  for (let i = 0; !stop; i++) {
    const exhibitId = exhibitIds[i % exhibitIds.length];
    const before = new Set((await siteQuery("select file from exhibit_photos where exhibit_id = $1", [exhibitId]).catch(() => [])).map((r) => r.file));
    const form = new FormData();
    form.append("alt", `Fault run photo ${i}`);
    form.append("photos", new Blob([jpeg], { type: "image/jpeg" }), `fault-${i}.jpg`);
    const answer = await fetch(`http://127.0.0.1:${portA}/admin/exhibits/${exhibitId}/photos/upload`, { method: "POST", body: form, redirect: "manual", headers: { cookie }, signal: AbortSignal.timeout(20_000) }).catch(() => null);
    const status = answer?.status ?? 0;
    recordDirect("A", "photo upload (A)", status);
    if (status === 303 && answer.headers.get("location")?.endsWith("upload=done")) {
      const rows = await siteQuery("select file from exhibit_photos where exhibit_id = $1", [exhibitId]).catch(() => []);
      const added = rows.map((r) => r.file).filter((f) => !before.has(f));
      for (const file of added) {
        acked.photos.push(file);
        const read = await fetch(`http://127.0.0.1:${portB}/images/view/${file}`, { headers: { cookie }, signal: AbortSignal.timeout(20_000) }).catch(() => null);
        recordDirect("B", "photo read (B)", read?.status ?? 0);
        if (read?.status !== 200 && !stopped.B) unreadNow.push({ file, status: read?.status ?? 0, window: windowAt(now()).name });
        await read?.arrayBuffer().catch(() => {});
      }
    }
    await sleep(4_000);
  }
}

/** Sums of a metric's samples in Prometheus text (all label sets). */
function metric(text, name) {
  let sum = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const m = line.match(/^(\w+)(\{[^}]*\})?\s+(\S+)/);
    if (m && m[1] === name) sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}

const samples = [];
const workerDeaths = [];
async function sampler() {
  const seen = { A: 0, B: 0 };
  while (!stop) {
    const at = now();
    for (const name of ["A", "B"]) {
      const port = name === "A" ? portA : portB;
      const [ready, metrics] = await Promise.all([
        call(port, "/readyz", { timeoutMs: 1500 }).catch(() => ({ status: 0, text: "" })),
        call(port, "/metrics", { timeoutMs: 1500, headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).catch(() => ({ status: 0, text: "" })),
      ]);
      let reason = "";
      try {
        reason = JSON.parse(ready.text).reason ?? "";
      } catch {
        // not JSON (refused)
      }
      const m = metrics.status === 200 ? metrics.text : "";
      samples.push({
        window: windowAt(at).name,
        instance: name,
        ready: ready.status,
        reason,
        metrics: metrics.status,
        outboxPending: metric(m, "museum_outbox_pending"),
        outboxOldest: metric(m, "museum_outbox_oldest_pending_age_seconds"),
        poolWaiting: metric(m, "museum_db_pool_waiting_requests"),
        changeFeedUp: metric(m, "museum_change_feed_up"),
        workerRestarts: metric(m, "museum_worker_restarts_total"),
      });
      const deaths = lives[name].map((l) => l.output().match(/worker died/g)?.length ?? 0).reduce((a, b) => a + b, 0);
      for (; seen[name] < deaths; seen[name]++) workerDeaths.push({ instance: name, window: windowAt(at).name });
    }
    await sleep(Math.max(0, 500 - (now() - at)));
  }
}

// --- staff, load, faults -------------------------------------------------------------------------

/** A curator, made from a member's sign-up. */
async function newCurator(name) {
  const email = `${name}.${Date.now()}@museum.example`;
  const signup = await call(nginxPort, "/api/users/", { body: { firstName: "Cora", lastName: "Staff", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true }, from: nextFrom() });
  if (signup.status !== 201) throw new Error(`staff sign-up answered ${signup.status}: ${signup.text}`);
  await siteQuery("update users set role = 'curator' where lower(email) = $1", [email.toLowerCase()]);
  return email;
}
const cookieOf = (answer, name) => (answer.headers?.["set-cookie"] ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith(`${name}=`)) ?? "";
/** The six-digit code of the newest sign-in code mail to `email` after `seen` of them, within 30 s. */
async function emailedCode(email, seen) {
  for (let i = 0; i < 300; i++) {
    const codes = mails.filter((m) => m.to === email && m.subject.includes("sign-in code"));
    if (codes.length > seen) return /^(\d{6}) /.exec(codes.at(-1).subject)?.[1] ?? null;
    await sleep(100);
  }
  return null;
}
/**
 * A staff sign-in from a new browser through nginx: the password (a step), the emailed code, then
 * the console with the new session. Each call is sent again on a network error or 5xx, up to 10
 * times; answers the session's cookie, or null when it gave up.
 */
async function staffSignIn(email, kind) {
  const from = nextFrom();
  const again = async (label, send) => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const answer = await send().catch(() => ({ status: 0, headers: {}, text: "" }));
      record(`${kind}: ${label}`, answer.status);
      if (answer.status !== 0 && answer.status < 500) return answer;
      await sleep(300 * attempt);
    }
    return null;
  };
  const seen = mails.filter((m) => m.to === email && m.subject.includes("sign-in code")).length;
  const password = await again("password", () => call(nginxPort, "/login", { form: { emailAddress: email, password: PASSWORD }, from, timeoutMs: 20_000 }));
  const step = password && cookieOf(password, "museum_signin");
  if (!step || password.headers.location !== "/login/verify") return null;
  const code = await emailedCode(email, seen);
  if (!code) return null;
  const verified = await again("code", () => call(nginxPort, "/login/verify", { form: { code }, cookie: step, from, timeoutMs: 20_000 }));
  const session = verified && cookieOf(verified, "museum_session");
  if (!session) return null;
  const page = await again("console page", () => call(nginxPort, "/admin", { cookie: session, from, timeoutMs: 20_000 }));
  return page?.status === 200 ? session : null;
}

const staffEmail = await newCurator("curator");
const staffCookie = await staffSignIn(staffEmail, "staff sign-in (setup)");
if (!staffCookie) throw new Error("the curator could not sign in (password, emailed code, console)");
const signInEmail = await newCurator("signs-in");
/** Sign-ins the sign-in client finished (console page shown) and gave up on. */
const signIns = { finished: 0, gaveUp: 0 };
async function signInClient() {
  while (!stop) {
    if (await staffSignIn(signInEmail, "staff sign-in")) signIns.finished++;
    else if (!stop) signIns.gaveUp++;
    await sleep(500);
  }
}
const exhibitIds = (await siteQuery("select id from exhibits order by id limit 12")).map((r) => r.id);
const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#ffb612", noise: { type: "gaussian", mean: 128, sigma: 40 } } }).jpeg({ quality: 80 }).toBuffer();

log(`${CLIENTS} clients, the staff client and the sign-in client start; ${WARMUP / 1000} s before the first fault`);
const running = [...Array.from({ length: CLIENTS }, (_, i) => client(i)), staffClient(staffCookie, exhibitIds, jpeg), signInClient(), sampler()];
await sleep(WARMUP);

const events = [];
beginWindow("1 terminate all x3");
for (let i = 0; i < 3; i++) {
  const killed = await terminateAll();
  events.push(`terminate all #${i + 1}: ${killed} connections`);
  log(events.at(-1));
  await sleep(i < 2 ? 5_000 : GAP);
}

beginWindow("2 SIGTERM A + restart");
const a = current("A");
const termAt = now();
stopped.A = true;
a.child.kill("SIGTERM");
const aCode = await a.exited;
events.push(`A exited ${aCode} ${((now() - termAt) / 1000).toFixed(1)} s after SIGTERM`);
log(events.at(-1));
await start("A");
stopped.A = false;
events.push(`A ready again ${((now() - termAt) / 1000).toFixed(1)} s after SIGTERM`);
log(events.at(-1));
await sleep(GAP);

beginWindow("3 kill -9 B + restart");
const b = current("B");
const workers = spawnSync("ps", ["-o", "pid=", "--ppid", String(b.child.pid)], { encoding: "utf8" }).stdout.trim().split(/\s+/).filter(Boolean).map(Number);
const killAt = now();
stopped.B = true;
for (const pid of [b.child.pid, ...workers]) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
await b.exited;
events.push(`B killed (-9): primary ${b.child.pid} and workers ${workers.join(", ")}`);
log(events.at(-1));
await start("B");
stopped.B = false;
events.push(`B ready again ${((now() - killAt) / 1000).toFixed(1)} s after kill -9`);
log(events.at(-1));
await sleep(GAP);

beginWindow("4 PostgreSQL restart (simulated)");
await admin.query(`alter database ${dbName} allow_connections false`);
const cut = await terminateAll();
events.push(`PostgreSQL "restart" simulated: ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false, ${cut} connections terminated, 6 s, then ALLOW_CONNECTIONS true`);
log(events.at(-1));
await sleep(6_000);
await admin.query(`alter database ${dbName} allow_connections true`);
await sleep(GAP);

// 5. A real restart of the cluster, when asked for (root: FAULTS_RESTART_COMMAND="pg_ctlcluster 15
// main restart"). It ends every other database's connections too: skipped while any is in use.
if (process.env.FAULTS_RESTART_COMMAND) {
  beginWindow("5 PostgreSQL restart (real)");
  const [{ n: others }] = (await admin.query("select count(*)::int as n from pg_stat_activity where datname is not null and datname <> $1 and pid <> pg_backend_pid()", [dbName])).rows;
  if (others > 0) events.push(`PostgreSQL restart skipped: ${others} connections to other databases`);
  else {
    const at = now();
    const restart = spawn("sh", ["-c", process.env.FAULTS_RESTART_COMMAND], { stdio: "inherit" });
    const code = await new Promise((resolve) => restart.on("exit", resolve));
    events.push(`PostgreSQL restarted for real (${process.env.FAULTS_RESTART_COMMAND}, exit ${code}) in ${((now() - at) / 1000).toFixed(1)} s`);
  }
  log(events.at(-1));
  await sleep(GAP);
}

stop = true;
log("load stops; waiting for the clients and the outbox");
await Promise.all(running);
windows.push({ name: "after", from: now() });

// --- the counts ------------------------------------------------------------------------------------

for (let i = 0; i < 120; i++) {
  const [{ n: left }] = await siteQuery("select count(*)::int as n from outbox where kind <> 'mailchimp' and status in ('pending', 'sending')");
  if (left === 0) break;
  await sleep(1_000);
}
await sleep(1_000);

const missing = {
  signups: (await siteQuery("select $1::text[] as want, array_agg(lower(email)) as have from users where lower(email) = any($1)", [acked.signups.map((e) => e.toLowerCase())]))[0],
  contacts: await siteQuery("select message, count(*)::int as n from contact_messages where message like 'faults %' group by message"),
  subscribes: await siteQuery("select email from subscribers where email = any($1)", [acked.subscribes.map((e) => e.toLowerCase())]),
  photos: await siteQuery("select file from exhibit_photos where file = any($1)", [acked.photos]),
};
const haveUsers = new Set(missing.signups.have ?? []);
const contactCount = new Map(missing.contacts.map((r) => [r.message, r.n]));
const haveSubs = new Set(missing.subscribes.map((r) => r.email));
const havePhotos = new Set(missing.photos.map((r) => r.file));
const lost = {
  "sign-up": acked.signups.filter((e) => !haveUsers.has(e.toLowerCase())).length,
  contact: acked.contacts.filter((m) => !contactCount.has(m)).length,
  subscribe: acked.subscribes.filter((e) => !haveSubs.has(e.toLowerCase())).length,
  photo: acked.photos.filter((f) => !havePhotos.has(f)).length,
};
const doubled = {
  "contact messages per key": tried.contacts.filter((c) => (contactCount.get(c.marker) ?? 0) > 1).length,
  "users per email": (await siteQuery("select count(*)::int as n from (select lower(email) from users group by 1 having count(*) > 1) d"))[0].n,
  "Idempotency-Key rows per key": (await siteQuery("select count(*)::int as n from (select key from idempotency_keys group by key having count(*) > 1) d"))[0].n,
};
const stored = { contacts: tried.contacts.filter((c) => contactCount.has(c.marker)).length };
const count = (rows, key) => rows.reduce((m, r) => m.set(r[key], (m.get(r[key]) ?? 0) + 1), new Map());
const twiceById = [...count(mails, "messageId").entries()].filter(([id, c]) => id && c > 1).length;
const twiceByRecipient = [...count(mails.map((m) => ({ k: `${m.to}\n${m.subject}\n${m.replyTo}` })), "k").values()].filter((c) => c > 1).length;
const outboxRows = await siteQuery("select status, count(*)::int as n from outbox where kind <> 'mailchimp' group by status");
const doneIds = (await siteQuery("select id from outbox where kind <> 'mailchimp' and status = 'done'")).map((r) => r.id);
const receivedIds = new Set(mails.map((m) => m.messageId.match(/outbox-([0-9a-f-]{36})@/)?.[1]).filter(Boolean));
const doneNotReceived = doneIds.filter((id) => !receivedIds.has(id)).length;
const unreadAtEnd = [];
for (const file of acked.photos) {
  const read = await fetch(`http://127.0.0.1:${portB}/images/view/${file}`, { headers: { cookie: staffCookie } }).catch(() => null);
  if (read?.status !== 200) unreadAtEnd.push({ file, status: read?.status ?? 0 });
  await read?.arrayBuffer().catch(() => {});
}

// --- the table -------------------------------------------------------------------------------------

const names = windows.map((w) => w.name).filter((name, i, all) => all.indexOf(name) === i && name !== "after");
// nginx's error.log (one-second timestamps, local time), without the lines of a drain or a stop
// working as meant (a refused connection tried on the other instance, an instance taken out).
const nginxErrors = existsSync(path.join(dir, "error.log"))
  ? readFileSync(path.join(dir, "error.log"), "utf8")
      .split("\n")
      .filter((l) => /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /.test(l) && !l.includes("(111: Connection refused)") && !l.includes("temporarily disabled"))
      .map((line) => {
        const [date, time] = line.split(" ");
        return { line, wall: new Date(`${date.replaceAll("/", "-")}T${time}`).getTime() };
      })
  : [];
/** The error.log lines within 2 s of the window's 5xx answers (three of each kind, and how many more). */
function nginxLinesAround(bad) {
  const near = nginxErrors.filter((e) => bad.some((b) => Math.abs(b.wall - e.wall) <= 2_000));
  const kinds = new Map();
  for (const { line } of near) {
    const kind = line.replace(/^\S+ \S+ /, "").replace(/\d+#\d+: \*\d+ /, "").replace(/client: [^,]+, /, "");
    kinds.set(kind, [...(kinds.get(kind) ?? []), line]);
  }
  return [...kinds.values()].flatMap((same) => [...same.slice(0, 3), ...(same.length > 3 ? [`... ${same.length - 3} more like it`] : [])]);
}
const byWindow = names.map((name) => {
  const here = answers.filter((x) => x.window === name);
  const bad = here.filter((x) => (x.status >= 500 || x.status === 0) && !x.kind.endsWith("refused while stopped"));
  const statuses = Object.fromEntries([...count(bad, "status").entries()].sort());
  const kinds = Object.fromEntries([...count(bad, "kind").entries()].sort());
  const s = samples.filter((x) => x.window === name);
  const ready = (inst) => {
    const mine = s.filter((x) => x.instance === inst);
    const c = Object.fromEntries([...count(mine, "ready").entries()].sort());
    const reasons = [...new Set(mine.map((x) => x.reason).filter(Boolean))];
    return `${Object.entries(c).map(([k, v]) => `${k === "0" ? "no answer in 1.5 s" : k} x${v}`).join(" ")}${reasons.length ? ` (${reasons.join("; ")})` : ""}`;
  };
  const max = (field) => Math.max(...s.map((x) => x[field]).filter((v) => v !== null), -Infinity);
  const min = (field) => Math.min(...s.map((x) => x[field]).filter((v) => v !== null), Infinity);
  return {
    window: name,
    answers: here.length,
    "5xx or no answer": bad.length,
    "direct calls refused by a stopped instance": here.filter((x) => x.kind.endsWith("refused while stopped")).length,
    statuses,
    kinds,
    "worker exits": workerDeaths.filter((d) => d.window === name).length,
    "readyz A": ready("A"),
    "readyz B": ready("B"),
    "metrics answered": `${s.filter((x) => x.metrics === 200).length}/${s.length}`,
    "outbox pending max": max("outboxPending"),
    "outbox oldest age max (s)": max("outboxOldest"),
    "pool waiting max": max("poolWaiting"),
    "change feed up min": min("changeFeedUp"),
    "worker restarts (metric) max": max("workerRestarts"),
    "nginx error.log around the 5xx": nginxLinesAround(bad.filter((x) => x.status >= 500)),
  };
});

/** Sessions of the signing-in curator: one per finished sign-in, plus any whose answer a fault lost. */
const staffSessions = (await siteQuery("select count(*)::int as n from sessions s join users u on u.id = s.user_id where lower(u.email) = $1", [signInEmail.toLowerCase()]))[0].n;
const result = {
  at: new Date().toISOString(),
  machine: `${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end`,
  clients: CLIENTS,
  events,
  windows: byWindow,
  totals: {
    "worker exits (\"worker died\" lines)": workerDeaths.length,
    "acknowledged writes": { "sign-up": acked.signups.length, contact: acked.contacts.length, subscribe: acked.subscribes.length, photo: acked.photos.length },
    "acknowledged writes missing": lost,
    "contact posts stored though never acknowledged": stored.contacts - acked.contacts.length,
    "writes doubled": doubled,
    "emails received": mails.length,
    "outbox rows (emails)": Object.fromEntries(outboxRows.map((r) => [r.status, r.n])),
    "emails delivered twice (same Message-ID)": twiceById,
    "emails delivered twice (same recipient + subject + Reply-To)": twiceByRecipient,
    "outbox rows done but never received": doneNotReceived,
    "photos unreadable from B right after upload": unreadNow,
    "photos unreadable from B at the end": unreadAtEnd.length,
    "staff sign-ins finished (password, emailed code, console page)": signIns.finished,
    "staff sign-ins given up": signIns.gaveUp,
    "staff sessions stored": staffSessions,
  },
};

console.log("\n=== fault run (two instances x two workers, nginx, PostgreSQL) ===");
for (const e of events) console.log(`  ${e}`);
console.log("\nper window (a window runs from its fault to the next fault):");
console.table(byWindow.map((w) => ({ ...w, statuses: JSON.stringify(w.statuses), kinds: JSON.stringify(w.kinds), "nginx error.log around the 5xx": w["nginx error.log around the 5xx"].length })));
for (const w of byWindow) {
  if (!w["nginx error.log around the 5xx"].length) continue;
  console.log(`nginx error.log around the 5xx of "${w.window}":`);
  for (const line of w["nginx error.log around the 5xx"]) console.log(`  ${line}`);
}
console.log(JSON.stringify(result.totals, null, 2));
console.log(`\nmachine: ${result.machine}`);
writeFileSync(path.join(here, "faults-last-run.json"), `${JSON.stringify(result, null, 2)}\n`);

for (const name of ["A", "B"]) writeFileSync(path.join(dir, `${name}.log`), lives[name].map((l, i) => `--- life ${i + 1}\n${l.output()}`).join("\n"));

// --- clean up --------------------------------------------------------------------------------------

for (const name of ["A", "B"]) {
  const instance = current(name);
  if (instance.child.exitCode === null && instance.child.signalCode === null) {
    instance.child.kill("SIGTERM");
    await instance.exited;
  }
}
nginx.kill("SIGQUIT");
await new Promise((r) => (nginx.exitCode !== null ? r() : nginx.once("exit", r)));
await new Promise((r) => smtp.close(r));
await admin.end();
await database.drop();
if (!process.env.FAULTS_KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(`logs kept in ${dir}`);
if (!existsSync(path.join(here, "faults-last-run.json"))) process.exit(1);
