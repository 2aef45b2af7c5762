// `node bench/idle-goodbye.mjs` (decision 052): what a plain pg.Pool does with idle connections
// whose backends were ended while the process was busy, beside the site's RetryingPool. Each
// round: 5 idle connections in the pool, every one of their backends ended (pg_terminate_backend,
// from psql while this process is blocked, as a busy event loop would be), then 5 inserts at once.
// pg-pool drops an idle connection when its 'error' event arrives, but the server's goodbye is
// still unread in the socket when the insert checks the connection out: the insert is written into
// a dead connection, and fails with its outcome unknown (an autocommit write is not sent again).
// Counts, per pool, the inserts that failed and the rows stored. Needs PostgreSQL
// (TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test) and psql.
import { execFileSync } from "node:child_process";
import pg from "pg";
import { register } from "tsx/esm/api";

register();
const { RetryingPool } = await import("../server/db/retrying.ts");
const { createPostgresDatabase } = await import("../tests/helpers/databases.ts");

const ROUNDS = Number(process.env.IDLE_GOODBYE_ROUNDS ?? 20);
const SIZE = 5;
const database = await createPostgresDatabase();
const admin = new pg.Client({ connectionString: database.url, application_name: "idle-goodbye-admin" });
await admin.connect();
await admin.query("create table goodbye_probe (pool text not null, n int not null)");

const pools = {
  "pg.Pool (the standard way)": new pg.Pool({ connectionString: database.url, max: SIZE }),
  RetryingPool: new RetryingPool({ connectionString: database.url, max: SIZE }, { retryMs: 8_000 }),
};
const results = [];
for (const [name, pool] of Object.entries(pools)) {
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", () => undefined));
  let failed = 0;
  let sent = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(Array.from({ length: SIZE }, () => pool.query("select pg_sleep(0.02)")));
    execFileSync("psql", [database.url, "-qAt", "-c", "select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name <> 'idle-goodbye-admin'", "-c", "select pg_sleep(0.2)"]);
    const written = await Promise.allSettled(Array.from({ length: SIZE }, (_, i) => pool.query("insert into goodbye_probe values ($1, $2)", [name, round * SIZE + i])));
    sent += written.length;
    failed += written.filter((w) => w.status === "rejected").length;
  }
  const [{ stored }] = (await admin.query("select count(*)::int as stored from goodbye_probe where pool = $1", [name])).rows;
  results.push({ pool: name, rounds: ROUNDS, inserts: sent, failed, stored });
  await pool.end();
}
console.table(results);
await admin.end();
await database.drop();
