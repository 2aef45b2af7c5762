/**
 * The collection's change feed on PostgreSQL (server/catalog/change-feed.ts), through a TCP relay
 * that can cut the listening connection silently: the connection stays open and nothing more
 * arrives either way, as on a dead route or a frozen peer. The feed must find it by its check,
 * listen again, and clear the caches once for what it may have missed.
 *
 * Needs PostgreSQL: outside CI a missing one skips with the reason, in CI it fails.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createCatalogChangeFeed, notifyCatalogChanged, SESSIONS_CHANNEL } from "../../server/catalog/change-feed";
import { openDatabase, type DatabaseHandle } from "../../server/db/client";
import { createLogger } from "../../server/logger";
import { createPostgresDatabase, isPostgresReachable, POSTGRES_ADMIN_URL } from "../helpers/databases";

const reachable = await isPostgresReachable();
if (!reachable && process.env.CI) throw new Error(`the change feed test needs PostgreSQL in CI: ${POSTGRES_ADMIN_URL} is unreachable`);
if (!reachable) console.warn(`[tests] skipping the change feed test: ${POSTGRES_ADMIN_URL} is unreachable`);

/**
 * A relay to `target`; `freeze()` silences every connection open now (new ones pass); `hold()`
 * keeps everything sent either way until `release()`, as a busy process reads its socket late.
 */
function silentCutRelay(target: URL) {
  const open = new Set<Socket>();
  const frozen = new WeakSet<Socket>();
  let accepted = 0;
  let holding = false;
  const held: [Socket, Buffer][] = [];
  const server: Server = createServer((client) => {
    accepted++;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      open.add(from);
      from.on("data", (chunk: Buffer) => {
        if (frozen.has(from)) return;
        if (holding) held.push([to, chunk]);
        else to.write(chunk);
      });
      from.on("close", () => {
        open.delete(from);
        to.destroy();
      });
      from.on("error", () => to.destroy());
    }
  });
  return {
    async listen(): Promise<number> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return (server.address() as AddressInfo).port;
    },
    freeze() {
      for (const socket of open) frozen.add(socket);
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const [to, chunk] of held.splice(0)) to.write(chunk);
    },
    get accepted() {
      return accepted;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = performance.now() + ms; performance.now() < end; await new Promise((r) => setTimeout(r, 25))) if (check()) return true;
  return check();
}

describe.skipIf(!reachable)("the catalog change feed on PostgreSQL", () => {
  let database: { url: string; drop(): Promise<void> };
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    handle = await openDatabase({ databaseUrl: database.url, poolSize: 1 });
  });

  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it("finds a silent cut of its connection by its check, listens again and clears the caches once", async () => {
    const relay = silentCutRelay(new URL(database.url));
    const viaRelay = new URL(database.url);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(await relay.listen());
    const feed = createCatalogChangeFeed({
      database: handle,
      databaseUrl: viaRelay.toString(),
      logger: createLogger("silent"),
      minBackoffMs: 50,
      maxBackoffMs: 200,
      pingMs: 200,
      queryTimeoutMs: 500,
    });
    let changes = 0;
    feed.onChange(() => changes++);
    try {
      await feed.start();
      expect(feed.listening).toBe(true);
      await notifyCatalogChanged(handle.db);
      expect(await until(() => changes === 1, 5_000), "a change before the cut").toBe(true);

      relay.freeze();
      // The check finds it (every 200 ms, answered within 500 ms) and the feed connects again.
      expect(await until(() => relay.accepted === 2 && feed.listening, 5_000), "listening again through a new connection").toBe(true);
      // What was sent during the cut is lost: the caches were cleared once on reconnecting.
      expect(changes).toBe(2);

      await notifyCatalogChanged(handle.db);
      expect(await until(() => changes === 3, 5_000), "a change after the cut").toBe(true);
    } finally {
      await feed.stop();
      await relay.close();
    }
  });

  it("settles a session change only once every listener has handled it: a slow one holds the answer back", async () => {
    const relay = silentCutRelay(new URL(database.url));
    const viaRelay = new URL(database.url);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(await relay.listen());
    const options = { database: handle, logger: createLogger("silent"), minBackoffMs: 50, maxBackoffMs: 200 };
    const here = createCatalogChangeFeed({ ...options, databaseUrl: database.url });
    const slow = createCatalogChangeFeed({ ...options, databaseUrl: viaRelay.toString() });
    let toldSlow = 0;
    slow.onSessionsChange(() => toldSlow++);
    try {
      await here.start();
      await slow.start();
      expect(here.listening && slow.listening).toBe(true);
      // The other process reads its listening socket late (a busy event loop, a slow network).
      relay.hold();
      await handle.db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, '')`);
      const started = performance.now();
      let settled = false;
      const settling = here.sessionsSettled().then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled, "not settled while a listener has not heard the change").toBe(false);
      expect(toldSlow).toBe(0);
      relay.release();
      await settling;
      // Settled by the slow listener's answer, not by the time limit (a second).
      expect(toldSlow).toBe(1);
      expect(performance.now() - started).toBeLessThan(900);
    } finally {
      await here.stop();
      await slow.stop();
      await relay.close();
    }
  });
});
