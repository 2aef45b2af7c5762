/**
 * Each email once (decision 021): the database goes away between "SMTP accepted" and
 * "marked done" (on PostgreSQL every connection of the site's database is terminated and new
 * ones refused for a while, as in a restart; on PGlite the worker's writer fails for a while),
 * the lease runs out meanwhile, and a second instance's worker runs over the same outbox.
 * Exactly one delivery reaches the SMTP server, with the Message-ID of the outbox row.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { openDatabase, queryRows, type Database, type DatabaseHandle } from "../../server/db/client";
import { createLogger } from "../../server/logger";
import { enqueue, LEASE_MS, UNKNOWN_OUTCOME_WAIT_MS } from "../../server/outbox/outbox";
import { createServices } from "../../server/services";
import { availableDrivers, openTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from "../helpers/databases";
import { startSmtpSink } from "../mocks/smtp-sink";

const drivers = await availableDrivers();
const HOST = "museum.example";

/** A writer that fails every statement while `down()` is true, as a database going away would. */
function failingWhile(db: Database, down: () => boolean): Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (down() && (prop === "execute" || prop === "transaction")) return Promise.reject(new Error("Connection terminated unexpectedly"));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function admin(query: string) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(query)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

describe.each(drivers)("each email once on %s", (kind) => {
  let database: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let dataDir: string;
  let now = new Date("2026-11-26T12:00:00Z");
  let down = false;
  const extraHandles: DatabaseHandle[] = [];
  let instanceA: ReturnType<typeof createServices>;
  let instanceB: ReturnType<typeof createServices>;
  const dbName = () => new URL(database.url!).pathname.slice(1);

  /**
   * The database goes away for `ms`: terminated connections and refused new ones (PostgreSQL), a
   * failing writer (PGlite). Resolves once it is gone, with a promise of its return.
   */
  async function outage(ms: number): Promise<{ back: Promise<void> }> {
    down = true;
    if (kind === "postgres") {
      await admin(`alter database ${dbName()} allow_connections false`);
      const killed = await admin(`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = '${dbName()}' and pid <> pg_backend_pid()`);
      expect(killed.length).toBeGreaterThan(0);
    }
    const back = new Promise<void>((resolve) => setTimeout(resolve, ms))
      .then(() => (kind === "postgres" ? admin(`alter database ${dbName()} allow_connections true`) : undefined))
      .then(() => void (down = false));
    return { back };
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), "museum-outbox-"));
    const config = loadConfig({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      DATA_DIR: dataDir,
      PUBLIC_URL: `https://${HOST}`,
      PAYMENTS: "test",
      SMTP_URL: smtp.url,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    const instance = (handle: DatabaseHandle) =>
      createServices({ config, database: handle, logger: createLogger("silent"), sessionSecret: "test-secret-test-secret-test-secret-0123", now: () => now });
    // Two instances over one outbox: on PostgreSQL each has its own pool; on PGlite A's writer can fail.
    if (kind === "postgres") {
      const open = async () => {
        const handle = await openDatabase({ databaseUrl: database.url, poolSize: 3 });
        extraHandles.push(handle);
        return handle;
      };
      instanceA = instance(await open());
      instanceB = instance(await open());
    } else {
      instanceA = instance({ ...database.handle, db: failingWhile(database.handle.db, () => down) });
      instanceB = instance(database.handle);
    }
  });
  afterAll(async () => {
    if (kind === "postgres" && database?.url) await admin(`alter database ${dbName()} allow_connections true`).catch(() => undefined);
    for (const handle of extraHandles) await handle.close().catch(() => undefined);
    await database?.drop();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const db = () => database.handle.db;
  async function queue(label: string) {
    await enqueue(db(), { kind: "email", payload: { to: `${label}@example.com`, subject: `Receipt ${label}`, text: `Thank you (${label})`, purpose: "test" } }, now);
    const [row] = await queryRows<{ id: string }>(db(), sql`select id from outbox where payload->>'to' = ${`${label}@example.com`}`);
    return row.id;
  }
  const deliveries = (label: string) => smtp.received.filter((m) => m.to.includes(`${label}@example.com`));
  const messageId = (raw: string) => /^Message-ID:\s*(\S+)/im.exec(raw)?.[1];
  const row = async (id: string) =>
    (await queryRows<{ status: string; attempts: number }>(db(), sql`select status, attempts from outbox where id = ${id}`))[0];
  const later = (ms: number) => (now = new Date(now.getTime() + ms));

  it("sends each mail once when the database goes away after the SMTP server accepted one", async () => {
    const id = await queue("restart");
    // A second job of the same batch waits behind the first while the database is away.
    const nextId = await queue("restart-next");
    // Accepted by the SMTP server; before the 250 reaches the worker the database goes away for
    // 1.5 s, and meanwhile the lease runs out (the clock moves past it).
    let gone!: (outage: { back: Promise<void> }) => void;
    const went = new Promise<{ back: Promise<void> }>((resolve) => (gone = resolve));
    let acceptedTo = "";
    smtp.onceBeforeAccepting(async (mail) => {
      acceptedTo = mail.to[0];
      gone(await outage(1_500));
      later(LEASE_MS + 1_000);
    });
    const first = instanceA.outbox.runOnce().catch((error: Error) => error);
    // Instance B's worker runs as soon as the database is back, while A may still be retrying.
    await (await went).back;
    for (let i = 0; i < 3; i++) await instanceB.outbox.runOnce();
    const firstRun = await first;
    // Long after every wait and lease, both workers run again: nothing more goes out.
    later(UNKNOWN_OUTCOME_WAIT_MS + LEASE_MS + 60_000);
    for (let i = 0; i < 3; i++) await Promise.all([instanceA.outbox.runOnce(), instanceB.outbox.runOnce()]);
    const [firstLabel, firstId, secondLabel, secondId] = acceptedTo.startsWith("restart@") ? ["restart", id, "restart-next", nextId] : ["restart-next", nextId, "restart", id];
    expect(deliveries(firstLabel)).toHaveLength(1);
    expect(deliveries(secondLabel)).toHaveLength(1);
    expect(firstRun).toBe(2);
    expect(messageId(deliveries(firstLabel)[0].raw)).toBe(`<outbox-${firstId}@${HOST}>`);
    expect(messageId(deliveries(secondLabel)[0].raw)).toBe(`<outbox-${secondId}@${HOST}>`);
    expect(await row(firstId)).toEqual({ status: "done", attempts: 1 });
    expect((await row(secondId)).status).toBe("done");
  });

  it("sends a mail whose worker died mid-send again only after the outcome-unknown wait, with the same Message-ID", async () => {
    const id = await queue("crash");
    // A worker claims the job and hands the mail to the SMTP server, then dies before marking it done.
    smtp.onceBeforeAccepting(async () => {
      throw Object.assign(new Error("simulated crash"), { responseCode: 451 });
    });
    await instanceA.outbox.runOnce();
    await db().execute(sql`update outbox set status = 'sending', next_attempt_at = ${new Date(now.getTime() + LEASE_MS).toISOString()} where id = ${id}`);
    expect(deliveries("crash")).toHaveLength(1);
    // The lease runs out: the job is not sent again blindly, it waits.
    later(LEASE_MS + 1_000);
    await instanceB.outbox.runOnce();
    expect(deliveries("crash")).toHaveLength(1);
    expect(await row(id)).toEqual({ status: "pending", attempts: 1 });
    // After the wait it goes out again (at least once), as the same message.
    later(UNKNOWN_OUTCOME_WAIT_MS + 1_000);
    await instanceB.outbox.runOnce();
    expect(deliveries("crash")).toHaveLength(2);
    expect(deliveries("crash").map((m) => messageId(m.raw))).toEqual([`<outbox-${id}@${HOST}>`, `<outbox-${id}@${HOST}>`]);
    expect(await row(id)).toEqual({ status: "done", attempts: 2 });
  });
  it("does not send the rest of a batch that another worker took over while the first send hung past lease and wait", async () => {
    const slowId = await queue("slow");
    const restId = await queue("slow-rest");
    // The first send hangs; meanwhile the lease and the wait run out and instance B takes both jobs over.
    let hungTo = "";
    smtp.onceBeforeAccepting(async (mail) => {
      hungTo = mail.to[0];
      later(LEASE_MS + 1_000);
      await instanceB.outbox.runOnce();
      later(UNKNOWN_OUTCOME_WAIT_MS + 1_000);
      await instanceB.outbox.runOnce();
    });
    await instanceA.outbox.runOnce();
    // The hung job's outcome was unknown to B, so it went out twice, as the same message; the
    // other job went out once, from B: A found its lease taken and left it.
    const hung = hungTo.startsWith("slow@") ? { label: "slow", id: slowId } : { label: "slow-rest", id: restId };
    const other = hung.label === "slow" ? { label: "slow-rest", id: restId } : { label: "slow", id: slowId };
    expect(deliveries(hung.label).map((m) => messageId(m.raw))).toEqual([`<outbox-${hung.id}@${HOST}>`, `<outbox-${hung.id}@${HOST}>`]);
    expect(deliveries(other.label)).toHaveLength(1);
    expect(await row(other.id)).toEqual({ status: "done", attempts: 2 });
  });
});
