/**
 * A PostgreSQL connection that ends never ends the process (decision 020).
 *
 * pg-pool listens for a connection's errors only while it is idle; before the fix, a backend
 * ended while its connection was checked out (inside a transaction, between statements, or
 * holding the advisory lock) emitted an unhandled 'error' and the process exited. Here:
 * - in-process: the backend of a checked-out connection is terminated (pg_terminate_backend);
 *   the operation fails as "database unavailable", the request is answered 503 with
 *   Retry-After, and the next one succeeds on a new connection;
 * - the built production server with two workers, under mixed load, has all its backends
 *   terminated several times: no worker exits, no 5xx but 503, and it answers 200 afterwards;
 * - a worker that meets an uncaught error logs it as one JSON line (fatal, with the stack) and
 *   the primary logs its death with code and signal.
 *
 * And the faults are ridden out where that is safe (decisions 037 and 052, through the public
 * wrappers of server/db/retrying.ts): a read, or a `transactionRetrying` cut before its COMMIT,
 * runs again; a database closed to connections for a few seconds is waited for
 * (DB_RETRY_SECONDS); a COMMIT cut in flight is looked up (txid_status) and answered with its
 * result when it committed or run again when it was rolled back; a `transactionOnce` callback is
 * never run twice; and when the budget runs out the answer is still 503 with Retry-After.
 *
 * PostgreSQL only (PGlite has no connections to lose): skipped without it, a failure in CI.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "../../server/db/client";
import { transactionOnce, transactionRetrying } from "../../server/db/retrying";
import { isDatabaseUnavailable } from "../../server/db/errors";
import { availableDrivers, createPostgresDatabase, openTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from "../helpers/databases";
import { call, freePort, startInstance, type Instance } from "../helpers/instances";
import { createSignedInAccount } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const onPostgres = (await availableDrivers()).includes("postgres");
if (!onPostgres) console.warn("[tests] skipping the connection-fault tests: they need PostgreSQL");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The admin connections' application_name: a simulated outage spares them. */
const ADMIN_APP = "fault-test-admin";

/** A connection of its own to `url`, to terminate others' backends. */
async function adminClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: ADMIN_APP });
  await client.connect();
  return client;
}

/**
 * A database restart as bench:faults simulates it: the database refuses connections (as
 * PostgreSQL does while it starts up) and every connection of the site's is ended, for `ms`.
 * Resolves once it has closed; `reopened` once connections are allowed again (always, even on a
 * failure).
 */
async function refuseConnections(url: string, ms: number): Promise<{ reopened: Promise<void> }> {
  const name = new URL(url).pathname.slice(1);
  // From another database: PostgreSQL does not let a connection close its own database.
  const maintenance = await adminClient(POSTGRES_ADMIN_URL);
  const reopen = async () => {
    await maintenance.query(`alter database ${name} allow_connections true`);
    await maintenance.end();
  };
  try {
    await maintenance.query(`alter database ${name} allow_connections false`);
    await maintenance.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name <> $2", [name, ADMIN_APP]);
  } catch (error) {
    await reopen();
    throw error;
  }
  return { reopened: sleep(ms).then(reopen) };
}

const backendPid = async (db: Database) => (await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`))[0].pid;

/**
 * Holds `lock` (a LOCK TABLE statement) in a transaction of `admin`'s, so the request waits for
 * it inside its own transaction; ends the waiting backend, and returns the request's answer.
 */
async function endWhileWaiting(admin: pg.Client, lock: string, request: () => Promise<Response>): Promise<Response> {
  await admin.query(`begin; ${lock}`);
  const pending = request();
  let victim: number | undefined;
  // Up to half a minute for the request to reach the lock: a loaded machine takes seconds.
  for (let i = 0; i < 1500 && !victim; i++) {
    const { rows } = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    );
    victim = rows[0]?.pid;
    if (!victim) await sleep(20);
  }
  expect(victim).toBeDefined();
  await admin.query("select pg_terminate_backend($1)", [victim]);
  // The lock goes at once: a request that tries again does not wait for it.
  await admin.query("rollback");
  return pending;
}

/** The simple-protocol message of Drizzle's `commit` (a transaction's last statement). */
const COMMIT_MESSAGE = Buffer.from("Q\0\0\0\x0bcommit\0", "latin1");

/**
 * A TCP proxy in front of the test database that can cut one connection while its COMMIT is in
 * flight (a network cut, a failover): `cutNextCommit("answered")` passes the COMMIT on and drops
 * the server's answer (the server committed; the client never hears it), `"sent"` closes the
 * client's side as soon as the COMMIT was passed on (the server is still committing). It also
 * counts the statements that ask for the transaction id, to show what the lookup costs.
 */
async function commitCutter(url: string) {
  const target = new URL(url);
  let armed: "answered" | "sent" | undefined;
  const seen = { cuts: 0, xidReads: 0 };
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let cutting = false;
    client.on("data", (chunk: Buffer) => {
      if (chunk.includes("txid_current_if_assigned")) seen.xidReads++;
      if (armed && chunk.includes(COMMIT_MESSAGE)) {
        const mode = armed;
        armed = undefined;
        cutting = true;
        seen.cuts++;
        upstream.write(chunk);
        if (mode === "sent") client.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      // Once cut, the server's answer (to COMMIT) is never passed on: the server goes too.
      if (cutting) {
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on("close", () => {
      if (!cutting) upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    client.on("error", () => undefined);
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(url);
  proxied.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return {
    url: proxied.toString(),
    seen,
    cutNextCommit(mode: "answered" | "sent") {
      armed = mode;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

/** Waits (up to 30 s) for a backend of this database asleep in pg_sleep, and ends it. */
async function endSleeper(admin: pg.Client): Promise<void> {
  for (let i = 0; i < 1500; i++) {
    const { rows } = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep' and pid <> pg_backend_pid()",
    );
    if (rows[0]) {
      await admin.query("select pg_terminate_backend($1)", [rows[0].pid]);
      return;
    }
    await sleep(20);
  }
  throw new Error("no backend reached pg_sleep");
}


/** Ends the backend of `tx`'s own connection, then uses it: the transaction's connection is lost mid-callback. */
async function cutOwnConnection(admin: pg.Client, tx: Database): Promise<void> {
  await admin.query("select pg_terminate_backend($1)", [await backendPid(tx)]);
  await sleep(300);
  await tx.execute(sql`select 1`);
}

describe.runIf(onPostgres)("a terminated connection, in process", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  /** Transactions run (each run of a callback counts), from 0 in each test. */
  let runs = 0;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    admin = await adminClient(database.url!);
    await admin.query(`
      create table fault_probe (n int not null);
      create function fault_probe_slow_commit() returns trigger language plpgsql as $$ begin perform pg_sleep(2); return null; end $$;
      create constraint trigger fault_probe_slow after insert on fault_probe deferrable initially deferred
        for each row when (new.n = 999) execute function fault_probe_slow_commit();`);
  });
  beforeEach(async () => {
    runs = 0;
    await admin.query("truncate fault_probe");
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  const probe = async () => (await admin.query<{ n: number }>("select n from fault_probe order by n")).rows.map((r) => r.n);

  /** A transaction's callback that stores `n` and answers `answer`. n = 999 makes its COMMIT sleep 2 s. */
  const storing = (n: number, answer = "stored") => async (tx: unknown) => {
    runs++;
    await (tx as Database).execute(sql`insert into fault_probe values (${n})`);
    return answer;
  };
  /** Runs `fn` with a database opened through a commit cutter. */
  async function throughCutter(fn: (db: Database, cutter: Awaited<ReturnType<typeof commitCutter>>) => Promise<void>) {
    const cutter = await commitCutter(database.url!);
    const viaCutter = await openDatabase({ databaseUrl: cutter.url, poolSize: 2 });
    try {
      await fn(viaCutter.db, cutter);
    } finally {
      await viaCutter.close();
      await cutter.close();
    }
  }

  it("runs a transaction again when its connection ends before COMMIT: its writes are stored once", async () => {
    const result = await transactionRetrying(database.handle.db, async (tx) => {
      runs++;
      await tx.execute(sql`insert into fault_probe values (${runs})`);
      if (runs === 1) {
        await admin.query("select pg_terminate_backend($1)", [await backendPid(tx as unknown as Database)]);
        // The connection is checked out and idle in its transaction when the server ends it.
        await sleep(300);
        await tx.execute(sql`select 1`);
      }
      return "done";
    });
    expect(result).toBe("done");
    expect(runs).toBe(2);
    expect(await probe()).toEqual([2]);
  });

  it("answers a transaction whose COMMIT was cut in flight but committed with its result, and stores it once", async () => {
    await throughCutter(async (db, cutter) => {
      // The server committed, and its answer was lost with the connection.
      cutter.cutNextCommit("answered");
      expect(await transactionRetrying(db, storing(1))).toBe("stored");
      // n = 999 makes COMMIT sleep (a deferred trigger): the connection is cut while the server
      // is still committing, and the outcome is asked for until it is known.
      cutter.cutNextCommit("sent");
      expect(await transactionRetrying(db, storing(999, "stored slowly"))).toBe("stored slowly");
      expect(cutter.seen.cuts).toBe(2);
      expect(runs).toBe(2);
      expect(await probe()).toEqual([1, 999]);
      // A read-only transaction has nothing to look up: no extra statement, and its result stands.
      const xidReads = cutter.seen.xidReads;
      cutter.cutNextCommit("answered");
      const count = async (tx: unknown) => (await queryRows<{ n: number }>(tx as Database, sql`select count(*)::int as n from fault_probe`))[0].n;
      const read = await transactionRetrying(db, count, { accessMode: "read only" });
      expect(read).toBe(2);
      expect(cutter.seen.cuts).toBe(3);
      expect(cutter.seen.xidReads).toBe(xidReads);
    });
  });

  it("runs a transaction again when its COMMIT was cut in flight and the server rolled it back: stored once", async () => {
    // The backend is ended while its COMMIT sleeps.
    const ended = endSleeper(admin);
    const result = await transactionRetrying(database.handle.db, storing(999));
    await ended;
    expect(result).toBe("stored");
    expect(runs).toBe(2);
    expect(await probe()).toEqual([999]);
  });

  it("never runs a transactionOnce callback (it charges a card, say) a second time", async () => {
    const failed = await transactionOnce(database.handle.db, async (tx) => {
      runs++;
      await cutOwnConnection(admin, tx as unknown as Database);
    }).then(() => null, (error: unknown) => error);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(runs).toBe(1);
    // The pool gave the dead connection up: the next transaction runs.
    expect(await transactionRetrying(database.handle.db, async (tx) => (await queryRows<{ ok: number }>(tx as unknown as Database, sql`select 1 as ok`))[0].ok)).toBe(1);

    // Its COMMIT cut in flight and rolled back by the server: not run again, answered 503.
    const ended = endSleeper(admin);
    const rolledBack = await transactionOnce(database.handle.db, storing(999)).then(() => null, (error: unknown) => error);
    await ended;
    expect(isDatabaseUnavailable(rolledBack)).toBe(true);
    expect(runs).toBe(2);
    expect(await probe()).toEqual([]);

    // Its COMMIT cut in flight after the server committed: answered with its result, run once.
    await throughCutter(async (db, cutter) => {
      cutter.cutNextCommit("answered");
      expect(await transactionOnce(db, storing(3, "charged"))).toBe("charged");
      expect(cutter.seen.cuts).toBe(1);
      expect(runs).toBe(3);
      expect(await probe()).toEqual([3]);
    });
  });

  it("does not run a transaction again whose callback wrote apart from it (that write committed)", async () => {
    const failed = await transactionRetrying(database.handle.db, async (tx) => {
      runs++;
      await database.handle.db.execute(sql`insert into fault_probe values (${40 + runs})`);
      await cutOwnConnection(admin, tx as unknown as Database);
    }).then(() => null, (error: unknown) => error);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(runs).toBe(1);
    expect(await probe()).toEqual([41]);
  });

  it("sends a read again when its connection ends, but never a write outside a transaction", async () => {
    const ended = endSleeper(admin);
    const [read] = await queryRows<{ ok: number }>(database.handle.db, sql`select 1 as ok from pg_sleep(1)`);
    await ended;
    expect(read.ok).toBe(1);

    const endedWrite = endSleeper(admin);
    const failed = await database.handle.db.execute(sql`insert into fault_probe select 7 from pg_sleep(1)`).then(() => null, (error: unknown) => error);
    await endedWrite;
    expect(isDatabaseUnavailable(failed)).toBe(true);
    await sleep(1_500);
    expect(await probe()).toEqual([]);
  });

  it("never writes into an idle connection whose backend was ended while the process was busy", async () => {
    const pool = await openDatabase({ databaseUrl: database.url!, poolSize: 3 });
    try {
      // Three idle connections in the pool.
      await Promise.all([1, 2, 3].map(() => pool.db.execute(sql`select pg_sleep(0.05)`)));
      // Their backends are ended while this process is blocked (a busy event loop): the server's
      // goodbyes wait unread in the sockets when the writes below check their connections out.
      execFileSync("psql", [database.url!, "-qAt", "-c", `select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and application_name <> '${ADMIN_APP}'`, "-c", "select pg_sleep(0.3)"]);
      const written = await Promise.allSettled([21, 22, 23].map((n) => pool.db.execute(sql`insert into fault_probe values (${n})`)));
      expect(written.map((w) => (w.status === "rejected" ? String((w.reason as { cause?: unknown }).cause ?? w.reason) : w.status))).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      expect(await probe()).toEqual([21, 22, 23]);
    } finally {
      await pool.close();
    }
  });

  it("waits for a database closed to connections (a restart), then answers", async () => {
    const started = Date.now();
    const outage = await refuseConnections(database.url!, 2_500);
    try {
      const [read, written] = await Promise.all([
        queryRows<{ ok: number }>(database.handle.db, sql`select 1 as ok`),
        transactionRetrying(database.handle.db, async (tx) => {
          await tx.execute(sql`insert into fault_probe values (5)`);
          return "written";
        }),
      ]);
      expect(read[0].ok).toBe(1);
      expect(written).toBe("written");
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
      expect(await probe()).toEqual([5]);
    } finally {
      await outage.reopened;
    }
  });

  it("gives up when the database stays closed longer than DB_RETRY_SECONDS", async () => {
    const short = await openDatabase({ databaseUrl: database.url!, poolSize: 2, retrySeconds: 1 });
    try {
      const outage = await refuseConnections(database.url!, 3_500);
      try {
        const started = Date.now();
        const failed = await queryRows(short.db, sql`select 1`).then(() => null, (error: unknown) => error);
        const waited = Date.now() - started;
        expect(isDatabaseUnavailable(failed)).toBe(true);
        expect(String((failed as { cause?: unknown }).cause)).toContain("is not currently accepting connections");
        expect(waited).toBeGreaterThanOrEqual(900);
        expect(waited).toBeLessThan(3_000);
      } finally {
        await outage.reopened;
      }
      expect((await queryRows<{ ok: number }>(short.db, sql`select 1 as ok`))[0].ok).toBe(1);
    } finally {
      await short.close();
    }
  });

  it("fails a job whose advisory-lock connection ends, and the lock can be taken again", async () => {
    const failed = await database.handle
      .withExclusiveLock(4242, async (db) => {
        await admin.query("select pg_terminate_backend($1)", [await backendPid(db)]);
        await sleep(300);
      })
      .then(() => null, (error: unknown) => error);
    expect(isDatabaseUnavailable(failed)).toBe(true);
    expect(await database.handle.withExclusiveLock(4242, async () => "ran")).toBe("ran");
  });
});

const contactAt = (server: TestServer, message: string) =>
  fetch(`${server.url}/api/contact`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ firstName: "Fault", lastName: "Test", email: "fault@example.com", subject: "Question", message }),
  });

describe.runIf(onPostgres)("a fault under a request, ridden out (DB_RETRY_SECONDS 8, the default)", () => {
  let server: TestServer;
  let admin: pg.Client;
  beforeAll(async () => {
    server = await startTestServer("postgres", {}, { seed: false });
    admin = await adminClient(server.database.url!);
  });
  afterAll(async () => {
    await admin?.end();
    await server?.close();
  });
  const messages = async () => (await admin.query<{ message: string }>("select message from contact_messages order by message")).rows.map((r) => r.message);

  it("answers 201 when the request's connection ends inside its transaction, and stores the message once", async () => {
    const res = await endWhileWaiting(admin, "lock table contact_messages in share mode", () => contactAt(server, "cut before commit"));
    expect(res.status).toBe(201);
    expect(await messages()).toEqual(["cut before commit"]);
  });

  it("answers a page whose loader's read is cut with the page itself, 200", async () => {
    const member = await createSignedInAccount(server.services);
    const res = await endWhileWaiting(admin, "lock table payments in access exclusive mode", () => fetch(`${server.url}/account`, { headers: { cookie: member.cookie } }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("</html>");
  });

  it("answers 200 and 201 after the wait when the database refuses connections for 3 s (a restart)", async () => {
    const member = await createSignedInAccount(server.services);
    const outage = await refuseConnections(server.database.url!, 3_000);
    let answers: { status: number; retryAfter: string | null }[];
    const started = Date.now();
    try {
      const requests = [
        contactAt(server, "during the outage"),
        fetch(`${server.url}/search?q=pirates`),
        fetch(`${server.url}/account`, { headers: { cookie: member.cookie } }),
        fetch(`${server.url}/api/search?q=steelers`),
      ];
      answers = await Promise.all(requests.map((r) => r.then((res) => ({ status: res.status, retryAfter: res.headers.get("retry-after") }))));
    } finally {
      await outage.reopened;
    }
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
    expect(await messages()).toContain("during the outage");
  });
});

describe.runIf(onPostgres)("a fault longer than the budget (DB_RETRY_SECONDS 1)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("postgres", { DB_RETRY_SECONDS: "1" }, { seed: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("answers 503 with Retry-After, JSON and page, when the database stays closed for 3.5 s; then 200", async () => {
    const outage = await refuseConnections(server.database.url!, 3_500);
    try {
      const started = Date.now();
      const [api, page] = await Promise.all([contactAt(server, "too long an outage"), fetch(`${server.url}/search?q=pirates`)]);
      expect(Date.now() - started).toBeLessThan(3_400);
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("30");
      expect(await api.json()).toEqual({ success: false, message: expect.stringContaining("unavailable") as unknown });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("30");
      expect(await page.text()).toContain("</html>");
    } finally {
      await outage.reopened;
    }
    expect((await fetch(`${server.url}/search?q=pirates`)).status).toBe(200);
  });
});

describe.runIf(onPostgres)("a terminated connection under a request, nothing retried (DB_RETRY_SECONDS 0)", () => {
  let server: TestServer;
  let admin: pg.Client;
  beforeAll(async () => {
    server = await startTestServer("postgres", { DB_RETRY_SECONDS: "0" }, { seed: false });
    admin = await adminClient(server.database.url!);
  });
  afterAll(async () => {
    await admin?.end();
    await server?.close();
  });

  const contact = (message: string) => contactAt(server, message);

  it("answers 503 JSON with Retry-After when the request's connection ends inside its transaction, then 201", async () => {
    // A lock makes the request's insert wait, inside its transaction, while its backend is ended.
    const res = await endWhileWaiting(admin, "lock table contact_messages in share mode", () => contact("the first try"));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await res.json()).toEqual({ success: false, message: expect.stringContaining("unavailable") as unknown });
    const again = await contact("the second try");
    expect(again.status).toBe(201);
    const { rows } = await admin.query<{ message: string }>("select message from contact_messages");
    expect(rows.map((r) => r.message)).toEqual(["the second try"]);
  });

  it("answers a page whose loader's connection ends with the error page as 503 with Retry-After, then 200", async () => {
    // Found by `npm run bench:faults`: a route's loader or action that met a dead connection
    // after the host's own first query was the error page with 500.
    const member = await createSignedInAccount(server.services);
    const page = () => fetch(`${server.url}/account`, { headers: { cookie: member.cookie } });
    // The account page reads the payments after the host has read the session.
    const res = await endWhileWaiting(admin, "lock table payments in access exclusive mode", page);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(await res.text()).toContain("</html>");
    expect((await page()).status).toBe(200);
  });
});

describe.runIf(onPostgres)("the production server with two workers, its connections terminated under load", () => {
  let dir: string;
  let database: { url: string; drop(): Promise<void> };
  let site: Instance;
  let admin: pg.Client;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "museum-faults-"));
    database = await createPostgresDatabase();
    const port = await freePort();
    site = await startInstance("faults", port, {
      DATABASE_URL: database.url,
      SESSION_SECRET: "connection-faults-secret-connection-faults",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dir,
      WEB_CONCURRENCY: "2",
      // FAULTS_TEST_RETRY_SECONDS=0 shows what the retries save (decision 037): the test then fails.
      DB_RETRY_SECONDS: process.env.FAULTS_TEST_RETRY_SECONDS ?? "8",
      ENABLE_ERROR_PROBE: "true",
      LOG_LEVEL: "warn",
      // The readers search as fast as the machine answers: on a fast one that is past the search
      // limit (120 a minute per address), and a 429 is not what this test is about.
      RATE_LIMIT_RELAXED: "true",
    });
    admin = await adminClient(database.url);
  }, 180_000);

  afterAll(async () => {
    if (site && site.child.exitCode === null && site.child.signalCode === null) {
      site.child.kill("SIGTERM");
      await site.exited;
    }
    await admin?.end();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const logLines = () =>
    site
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const deaths = () => logLines().filter((l) => l.msg === "worker died; starting another");

  it("loses no worker, answers every read, answers nothing but 503 for the writes in flight, and answers 200 afterwards", async () => {
    const answers: { what: string; status: number }[] = [];
    let stop = false;
    let n = 0;
    const record = async (what: string, p: Promise<{ status: number }>) => {
      const status = await p.then((r) => r.status, () => 0);
      answers.push({ what, status });
      return status;
    };
    // Each write from its own loopback address, so the per-address limits never answer it.
    const from = (i: number) => `127.0.${2 + Math.floor(i / 250) % 200}.${1 + (i % 250)}`;
    const writer = async () => {
      while (!stop) {
        const i = n++;
        const body = { firstName: "Load", lastName: "Test", email: `load${i}@example.com`, subject: "Question", message: `fault load ${i}` };
        await record("contact", call(site.port, "/api/contact", { body, from: from(i), timeoutMs: 20_000 }));
      }
    };
    const member = async () => {
      while (!stop) {
        const i = n++;
        const email = `member${i}@example.com`;
        const signUp = { firstName: "Load", lastName: "Member", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true };
        const signedUp = await record("sign-up", call(site.port, "/api/users", { body: signUp, from: from(i), timeoutMs: 20_000 }));
        // A sign-up answered 503 made no account to log in to.
        if (signedUp === 201) await record("login", call(site.port, "/api/users/login", { body: { emailAddress: email, password: "Steel3rs!" }, from: from(i), timeoutMs: 20_000 }));
      }
    };
    // Pages: the home page (kept by the page cache) and searches (asked of the database each time).
    const reader = async () => {
      for (let i = 0; !stop; i++) await record("page", call(site.port, i % 2 ? "/" : `/search?q=pirates${i}`, { timeoutMs: 20_000 }));
    };
    const load = [...Array.from({ length: 4 }, writer), member(), ...Array.from({ length: 2 }, reader)];

    await sleep(1_000);
    let terminated = 0;
    for (let round = 0; round < 4; round++) {
      const { rows } = await admin.query<{ ended: boolean }>(
        "select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      terminated += rows.filter((r) => r.ended).length;
      await sleep(1_500);
    }
    await sleep(1_500);
    stop = true;
    await Promise.all(load);

    const byStatus = answers.reduce<Record<string, number>>((m, a) => ({ ...m, [`${a.what} ${a.status}`]: (m[`${a.what} ${a.status}`] ?? 0) + 1 }), {});
    // What the 503s met (a write or a COMMIT in flight when its connection ended), for the reader.
    const met = logLines()
      .filter((l) => l.err && (l.level as number) >= 40)
      .map((l) => String((l.err as { message?: string }).message ?? "").split("\n").pop()?.slice(0, 120));
    console.info(`[db-connection-faults] ${terminated} backends terminated in 4 rounds; ${answers.length} answers: ${JSON.stringify(byStatus)}; worker deaths: ${deaths().length}; errors: ${JSON.stringify(met.slice(0, 10))}`);
    // Reads are sent again on a new connection (decision 037): no page is answered 5xx.
    expect(answers.filter((a) => a.what === "page" && a.status !== 200)).toEqual([]);
    // A contact post is one transaction (and a rate-limit count sent again): one whose COMMIT was
    // in flight at a cut is looked up and answered (decision 037's addendum); at most 2 may still be
    // 503, when a lookup outlasts the budget on a loaded machine. Without the retries: 6 in 4 rounds.
    expect(answers.filter((a) => a.what === "contact" && a.status !== 201).length).toBeLessThanOrEqual(2);
    expect(terminated).toBeGreaterThanOrEqual(8);
    expect(deaths()).toEqual([]);
    expect(answers.filter((a) => a.status === 0 || (a.status >= 500 && a.status !== 503))).toEqual([]);
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(20);
    // Every other answer is what the request asked for: no sign-up or login was refused as invalid.
    expect(answers.filter((a) => ![200, 201, 503].includes(a.status))).toEqual([]);
    expect((await call(site.port, "/")).status).toBe(200);
    expect((await call(site.port, "/readyz")).status).toBe(200);
  }, 90_000);

  it("logs a worker's uncaught error as one fatal JSON line with its stack, and the primary its death with code and signal", async () => {
    expect((await call(site.port, "/__crash-probe")).status).toBe(202);
    for (let i = 0; i < 100 && deaths().length === 0; i++) await sleep(100);
    const crash = logLines().filter((l) => l.msg === "uncaught error; exiting");
    expect(crash).toHaveLength(1);
    expect(crash[0]).toMatchObject({ level: 60, origin: "uncaughtException", worker: expect.any(Number) as unknown });
    expect((crash[0].err as { stack: string }).stack).toMatch(/^Error: deliberate crash \(ENABLE_ERROR_PROBE\)\n\s+at /);
    expect(deaths()).toHaveLength(1);
    expect(deaths()[0]).toMatchObject({ level: 50, code: 1, signal: null, pid: crash[0].pid });
    // The replacement serves.
    for (let i = 0; i < 50; i++) {
      if ((await call(site.port, "/readyz").then((r) => r.status, () => 0)) === 200) break;
      await sleep(200);
    }
    expect((await call(site.port, "/")).status).toBe(200);
  }, 30_000);
});
