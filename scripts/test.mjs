// `npm test`: every check once, each phase timed. Typecheck, lint and build; the unit tests and the
// integration tests (on PGlite and, when reachable, on the local PostgreSQL: tests/helpers/databases.ts);
// the browser tests on PGlite; then the browser tests again on a fresh PostgreSQL database.
// Outside CI an unreachable PostgreSQL skips its phase with a printed reason; in CI (CI=true) it fails.
// `npm test -- --from=NAME` starts at a phase (build, vitest, e2e-pglite, e2e-postgres).
import { spawnSync } from "node:child_process";
import pg from "pg";

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const from = process.argv.find((a) => a.startsWith("--from="))?.slice("--from=".length);

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

const phases = ["checks", "build", "vitest", "e2e-pglite", "e2e-postgres"];
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
    run("typecheck", "npm", ["run", "typecheck"]);
    run("lint", "npm", ["run", "lint"]);
  }
  if (wanted("build")) run("build", "npm", ["run", "build"]);
  if (wanted("vitest")) run("unit and integration tests", "npx", ["vitest", "run"]);
  if (wanted("e2e-pglite")) run("browser tests (PGlite)", "npx", ["playwright", "test"]);

  if (wanted("e2e-postgres")) {
    const db = `museum_e2e_${Date.now()}_${process.pid}`;
    let reachable = true;
    try {
      await admin(`create database ${db}`);
    } catch (error) {
      reachable = false;
      if (process.env.CI) {
        throw new Error(`PostgreSQL is required in CI but ${ADMIN_URL} is unreachable: ${error.message}`, { cause: error });
      }
      console.warn(`[tests] skipping the browser tests on PostgreSQL: ${ADMIN_URL} is unreachable`);
    }
    if (reachable) {
      const url = new URL(ADMIN_URL);
      url.pathname = `/${db}`;
      try {
        run("browser tests (PostgreSQL)", "npx", ["playwright", "test"], { DATABASE_URL: url.toString() });
      } finally {
        await admin(`drop database if exists ${db} with (force)`).catch(() => undefined);
      }
    }
  }
}
