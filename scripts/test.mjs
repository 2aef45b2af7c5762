// `npm test`: every check once, each phase timed. Typecheck, lint and build; the unit tests and the
// integration tests (on PGlite and, when reachable, on the local PostgreSQL: tests/helpers/databases.ts);
// the browser tests on PGlite (two shards) and those that write through the site on a fresh PostgreSQL
// database, side by side.
// Outside CI an unreachable PostgreSQL skips its phase with a printed reason; in CI (CI=true) it fails.
// `npm test -- --from=NAME` starts at a phase (checks, build, vitest, e2e); other arguments go to Playwright.
import { spawn, spawnSync } from "node:child_process";
import readline from "node:readline";
import pg from "pg";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const from = process.argv.find((a) => a.startsWith("--from="))?.slice("--from=".length);
/** Anything else on the command line goes to Playwright (a spec file, `--grep ...`). */
const playwrightArgs = process.argv.slice(2).filter((a) => !a.startsWith("--from="));

const times = [];
function run(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`--- ${name} (started ${new Date().toISOString().slice(11, 19)} UTC)`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = Math.round((Date.now() - started) / 1000);
  times.push([name, seconds]);
  console.log(`=== ${name}: ${seconds} s`);
  if (result.status !== 0) throw Object.assign(new Error(`${name} failed`), { exitCode: result.status ?? 1 });
}

/**
 * Runs commands side by side (each its own site, port and database), each output line prefixed
 * with its label; one timed phase, failed when any of them failed.
 */
async function runTogether(name, jobs) {
  const started = Date.now();
  console.log(`--- ${name} (started ${new Date().toISOString().slice(11, 19)} UTC): ${jobs.map((j) => j.label).join(", ")}`);
  const codes = await Promise.all(
    jobs.map(
      (job) =>
        new Promise((resolve) => {
          const child = spawn(job.command, job.args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...job.env } });
          for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream }).on("line", (line) => console.log(`[${job.label}] ${line}`));
          child.on("close", (code) => {
            console.log(`=== ${job.label}: ${Math.round((Date.now() - started) / 1000)} s, ${code === 0 ? "passed" : `failed (exit ${code})`}`);
            resolve(code ?? 1);
          });
        }),
    ),
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  times.push([name, seconds]);
  console.log(`=== ${name}: ${seconds} s`);
  const failed = jobs.filter((_, i) => codes[i] !== 0).map((j) => j.label);
  if (failed.length) throw Object.assign(new Error(`${name} failed: ${failed.join(", ")}`), { exitCode: 1 });
}

function summary() {
  console.log("--- phases");
  for (const [name, seconds] of times) console.log(`${name.padEnd(32)} ${String(seconds).padStart(6)} s`);
}

async function admin(sql) {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The browser tests that also run on PostgreSQL: sign-up, payment, accounts, gifts, messages and the console's writes, across the cluster's processes. */
const POSTGRES_SPECS = [
  "accounts",
  "account-page",
  "account-settings",
  "account-delete",
  "account-renew",
  "gifts",
  "payment-retry",
  "messages",
  "staff-sign-in",
  "passkeys",
  "staff-and-members",
  "admin-console",
  "publication",
  "trash",
  "edit-conflicts",
  "record-versions",
].map((name) => `tests/e2e/${name}.spec.ts`);

const phases = ["checks", "build", "vitest", "e2e"];
const startAt = from ? phases.indexOf(from) : 0;
if (startAt < 0) {
  console.error(`--from must be one of ${phases.join(", ")}`);
  process.exit(2);
}
const wanted = (phase) => phases.indexOf(phase) >= startAt;

try {
  await allPhases();
} catch (error) {
  summary();
  console.error(error.message);
  process.exit(error.exitCode ?? 1);
}
summary();

async function allPhases() {
  if (wanted("checks")) {
    // The route types first (the typecheck needs them, and knip reads the routes' imports), then the
    // typecheck and the linters side by side: each is one process on one core.
    run("route types", "npx", ["react-router", "typegen"]);
    await runTogether("typecheck and lint", [
      { label: "typecheck", command: "npx", args: ["tsc", "--noEmit"] },
      { label: "lint", command: "npm", args: ["run", "lint"] },
    ]);
  }
  if (wanted("build")) run("build", "npm", ["run", "build"]);
  if (wanted("vitest")) run("unit and integration tests", "npx", ["vitest", "run"]);
  // The browser tests: all of them on PGlite, and on a fresh PostgreSQL database those that write
  // through the site's processes (POSTGRES_SPECS). The integration tests above already run every
  // service on both databases; the browser pages that only read (layout, forms' messages, timers,
  // validators) do not depend on the database. One browser run keeps the two cores about 60% busy
  // (it waits on pages, timers and the site), so the full run goes in three side by side, each with
  // its own site, port, mail capture and database: the PGlite specs in two shards, and the
  // PostgreSQL specs. Named specs (`npm test -- tests/e2e/x.spec.ts`) run once on each database,
  // one after the other.
  if (!wanted("e2e")) return;
  const jobs = [];
  const playwright = (label, args, env) => ({ label, command: "npx", args: ["playwright", "test", ...args], env });
  const shards = playwrightArgs.length ? 1 : 2;
  for (let i = 1; i <= shards; i++) {
    const shard = shards > 1 ? [`--shard=${i}/${shards}`] : [];
    jobs.push(playwright(shards > 1 ? `PGlite ${i}/${shards}` : "PGlite", [...shard, ...playwrightArgs], { E2E_PORT: String(4319 + 20 * (i - 1)), E2E_SMTP_PORT: String(4325 + 20 * (i - 1)), E2E_OUTPUT_DIR: `test-results/pglite-${i}` }));
  }
  const db = `museum_e2e_${Date.now()}_${process.pid}`;
  try {
    await admin(`create database ${db}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${db}`;
    jobs.push(
      playwright("PostgreSQL", playwrightArgs.length ? playwrightArgs : POSTGRES_SPECS, { DATABASE_URL: url.toString(), E2E_PORT: "4329", E2E_SMTP_PORT: "4335", E2E_OUTPUT_DIR: "test-results/postgres" }),
    );
  } catch (error) {
    if (process.env.CI) throw new Error(`PostgreSQL is required in CI but ${ADMIN_URL} is unreachable: ${error.message}`, { cause: error });
    console.warn(`[tests] skipping the browser tests on PostgreSQL: ${ADMIN_URL} is unreachable`);
  }
  try {
    if (playwrightArgs.length) for (const job of jobs) run(`browser tests (${job.label})`, job.command, job.args, job.env);
    else await runTogether("browser tests (PGlite in two shards, PostgreSQL)", jobs);
  } finally {
    await admin(`drop database if exists ${db} with (force)`).catch(() => undefined);
  }
}
