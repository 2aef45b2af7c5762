/**
 * Several instances on one PostgreSQL behind nginx: two compiled hosts as `npm start`
 * runs them (instance B with two workers), Debian's nginx in front on a free port. A login on
 * one is honoured by the other, a logout on one is refused by the other at the next request, a
 * collection change is seen through both within 1 s (also after their listening connections
 * were cut), rate limits count across both, and `kill -9` of one under load loses no
 * acknowledged write while the other keeps answering.
 *
 * Needs PostgreSQL and nginx: outside CI a missing one skips with the reason, in CI it fails.
 */
import { readdirSync, readFileSync } from "node:fs";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogChangeFeed, LISTENER_APPLICATION_NAME, notifyCatalogChanged } from "../../server/catalog/change-feed";
import { openDatabase, queryRows, type DatabaseHandle } from "../../server/db/client";
import { contactMessages, teams } from "../../server/db/schema";
import { createLogger } from "../../server/logger";
import { call, missingForNginxTests, startTwoInstances, type Answer, type Instance, type TwoInstances } from "../helpers/instances";

const SECRET = "multi-instance-secret-multi-instance-secret";

const missing = await missingForNginxTests("multi-instance");

const cookieOf = (a: Answer) => String((a.headers["set-cookie"] as string[] | undefined)?.[0] ?? "").split(";")[0];

describe.skipIf(missing !== null)("several instances behind nginx on one PostgreSQL", () => {
  let site: TwoInstances;
  let handle: DatabaseHandle;
  let a: Instance;
  let b: Instance;
  let nginxPort: number;
  const viaNginx = (p: string, o: Parameters<typeof call>[2] = {}) => call(nginxPort, p, o);

  beforeAll(async () => {
    // A migrates and loads the demo collection; B (two workers) joins the same database.
    site = await startTwoInstances("multi", { SESSION_SECRET: SECRET }, { WEB_CONCURRENCY: "1" }, { WEB_CONCURRENCY: "2" });
    ({ handle, a, b, nginxPort } = site);
  }, 180_000);

  afterAll(() => site?.close(), 60_000);

  it("serves the site through nginx from both instances", async () => {
    for (const port of [nginxPort, a.port, b.port]) {
      const home = await call(port, "/");
      expect(home.status, `port ${port}`).toBe(200);
      expect(home.text).toContain("</html>");
    }
  });

  it("answers a stored visitor page before Express with the same headers as its first answer", async () => {
    const about = "/about";
    const first = await call(a.port, about, { headers: { "accept-encoding": "gzip" } });
    expect(["MISS", "HIT"]).toContain(first.headers["x-cache"]);
    const stored = await call(a.port, about, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(stored.headers["x-cache"]).toBe("HIT");
    expect(stored.headers["content-encoding"]).toBe("br");
    expect(stored.text).toBe(first.text);
    for (const name of ["content-security-policy", "permissions-policy", "x-content-type-options", "x-frame-options", "referrer-policy", "cache-control", "content-type", "etag"]) {
      expect(stored.headers[name], name).toBe(first.headers[name]);
    }
    expect(stored.headers["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
    expect(stored.headers["content-security-policy"]).not.toContain("'nonce-");
    expect(stored.headers.vary).toBe("Cookie, Authorization, Accept-Encoding");
    expect(stored.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect((await call(a.port, about)).headers["x-request-id"]).not.toBe(stored.headers["x-request-id"]);
    const plain = await call(a.port, about, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(Buffer.byteLength(plain.text));
    const gzip = await call(a.port, about, { headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const again = await call(a.port, about, { headers: { "if-none-match": String(stored.headers.etag) } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const head = await call(a.port, about, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  let session = "";

  it("honours on one instance a login made on the other", async () => {
    const email = `fan.${Date.now()}@example.com`;
    const password = "Pirates1979";
    const person = { firstName: "Zebulonia", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password, passwordConfirm: password, termsAndConditions: true };
    expect((await call(a.port, "/api/users/", { body: person })).status).toBe(201);
    const login = await call(a.port, "/api/users/login", { body: { emailAddress: email, password } });
    expect(login.status).toBe(200);
    session = cookieOf(login);
    expect(session).toMatch(/=/);
    const onB = await call(b.port, "/api/users/relogin", { method: "POST", body: {}, cookie: session });
    expect(onB.status).toBe(200);
    expect(JSON.parse(onB.text).account.emailAddress).toBe(email);
    const page = await call(b.port, "/", { cookie: session });
    expect(page.text).toContain("Zebulonia");
  });

  it("refuses on one instance, at the next request, a session logged out on the other", async () => {
    // B's workers have the session in memory (decision 040) before the logout on A.
    for (let i = 0; i < 4; i++) expect((await call(b.port, "/api/users/relogin", { method: "POST", body: {}, cookie: session })).status).toBe(200);
    const logout = await call(a.port, "/api/users/logout", { body: {}, cookie: session });
    expect(logout.status).toBe(200);
    // Both of B's workers, at once after the logout's answer.
    const onB = await Promise.all([0, 1, 2, 3].map(() => call(b.port, "/api/users/relogin", { method: "POST", body: {}, cookie: session })));
    expect(onB.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    const page = await call(b.port, "/", { cookie: session });
    expect(page.text).not.toContain("Zebulonia");
  });

  /** Changes a team's headline in one transaction with the change notification; returns when it committed. */
  async function editHeadline(teamId: string, headline: string): Promise<number> {
    await handle.db.transaction(async (tx) => {
      await tx.update(teams).set({ headline }).where(eq(teams.id, teamId));
      await notifyCatalogChanged(tx as unknown as typeof handle.db, "teams");
    });
    return performance.now();
  }

  /** Asks every instance (B's two workers too) and nginx until all show `text`; the time that took. */
  async function secondsUntilEverywhere(pagePath: string, text: string, since: number): Promise<number> {
    const escaped = text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;");
    for (;;) {
      const answers = await Promise.all([call(a.port, pagePath), call(b.port, pagePath), call(b.port, pagePath), call(b.port, pagePath), viaNginx(pagePath), viaNginx(pagePath)]);
      if (answers.every((r) => r.status === 200 && r.text.includes(escaped))) return (performance.now() - since) / 1000;
      if (performance.now() - since > 5_000) return Infinity;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function teamPage() {
    const [team] = JSON.parse((await viaNginx("/api/teams/")).text) as { _id: string }[];
    const pagePath = `/teams/${team._id}`;
    // Every instance and worker has the page stored.
    for (let i = 0; i < 4; i++) await Promise.all([call(a.port, pagePath), call(b.port, pagePath), viaNginx(pagePath)]);
    expect((await call(a.port, pagePath)).headers["x-cache"]).toBe("HIT");
    return { id: team._id, pagePath };
  }

  it("shows a collection change through both instances within 1 s", async () => {
    const { id, pagePath } = await teamPage();
    const headline = `Changed by staff at ${Date.now()}`;
    const committed = await editHeadline(id, headline);
    expect(await secondsUntilEverywhere(pagePath, headline, committed)).toBeLessThan(1);
  });

  it("listens again after its database connections were cut, and then sees changes within 1 s", async () => {
    // The listening connections: their backend pids, so that the ones cut are not counted again
    // while PostgreSQL still lists them.
    const listeners = async () =>
      (
        await queryRows<{ pid: number }>(
          handle.db,
          sql`select pid from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`,
        )
      ).map((r) => r.pid);
    /** Waits (up to `ms`) until 3 listeners other than `cut` are connected: A, and B's two workers. */
    const threeListening = async (ms: number, cut: number[] = []) => {
      let seen: number[] = [];
      for (const until = performance.now() + ms; performance.now() < until; await new Promise((r) => setTimeout(r, 100))) {
        seen = (await listeners()).filter((pid) => !cut.includes(pid));
        if (seen.length === 3) break;
      }
      return seen;
    };
    const logs = () => `\n--- instance A:\n${a.output()}\n--- instance B:\n${b.output()}`;
    const before = await threeListening(10_000);
    expect(before.length, `listeners before the cut${logs()}`).toBe(3);
    await handle.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where pid = any(${`{${before.join(",")}}`}::int[])`);
    // Each reconnects after a backoff of 125-250 ms, doubling on each failed attempt up to 10 s;
    // the instances log each attempt (warn), shown here if they do not come back.
    expect((await threeListening(30_000, before)).length, `listeners after the cut${logs()}`).toBe(3);
    const { id, pagePath } = await teamPage();
    const headline = `Changed again at ${Date.now()}`;
    const committed = await editHeadline(id, headline);
    expect(await secondsUntilEverywhere(pagePath, headline, committed)).toBeLessThan(1);
  });

  it("counts rate limits across both instances", async () => {
    // The password-reset tier allows 5 per client address in 15 minutes; this client is 127.0.0.77.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const port = i % 2 === 0 ? a.port : b.port;
      statuses.push((await call(port, "/api/users/request-reset", { body: { emailAddress: `nobody${i}@example.com` }, from: "127.0.0.77" })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Through nginx, which passes the client's address on (TRUST_PROXY=1), the same count holds.
    expect((await viaNginx("/api/users/request-reset", { body: { emailAddress: "nobody@example.com" }, from: "127.0.0.77" })).status).toBe(429);
    expect((await viaNginx("/api/users/request-reset", { body: { emailAddress: "nobody@example.com" }, from: "127.0.0.78" })).status).toBe(200);
  });

  it("loses no acknowledged write when one instance is killed under load, and the other keeps answering", async () => {
    const run = `run-${Date.now()}`;
    const writes: { marker: string; status: number; at: number }[] = [];
    const reads: { status: number; at: number }[] = [];
    let stop = false;
    let n = 0;
    const started = performance.now();
    let killedAt = Infinity;
    // Each write comes from its own loopback address, so the per-address form limit never answers it.
    const writer = async () => {
      while (!stop) {
        const i = n++;
        const marker = `multi-instance ${run} ${i}`;
        const from = `127.0.${2 + Math.floor(i / 250)}.${1 + (i % 250)}`;
        const at = performance.now() - started;
        const body = { firstName: "Load", lastName: "Test", email: `load${i}@example.com`, subject: "Question", message: marker };
        const status = await viaNginx("/api/contact", { body, from, timeoutMs: 5_000 }).then((r) => r.status, () => 0);
        writes.push({ marker, status, at });
      }
    };
    const reader = async () => {
      while (!stop) {
        const at = performance.now() - started;
        reads.push({ status: await viaNginx("/", { timeoutMs: 5_000 }).then((r) => r.status, () => 0), at });
      }
    };
    const load = [...Array.from({ length: 6 }, writer), ...Array.from({ length: 3 }, reader)];
    await new Promise((r) => setTimeout(r, 1_500));
    a.child.kill("SIGKILL");
    killedAt = performance.now() - started;
    await a.exited;
    await new Promise((r) => setTimeout(r, 2_500));
    stop = true;
    await Promise.all(load);

    const acknowledged = writes.filter((w) => w.status === 201);
    expect(acknowledged.length).toBeGreaterThan(20);
    expect(acknowledged.filter((w) => w.at > killedAt).length).toBeGreaterThan(5);
    const stored = await handle.db.select({ message: contactMessages.message }).from(contactMessages).where(like(contactMessages.message, `multi-instance ${run} %`));
    const kept = new Set(stored.map((r) => r.message));
    expect(acknowledged.filter((w) => !kept.has(w.marker))).toEqual([]);
    // Only requests already under way when A died may have failed; everything asked later was answered.
    const late = [...writes, ...reads].filter((r) => r.at > killedAt + 500);
    expect(late.length).toBeGreaterThan(10);
    expect(late.filter((r) => r.status !== 201 && r.status !== 200)).toEqual([]);
    expect((await call(b.port, "/healthz")).status).toBe(200);
    expect((await viaNginx("/")).status).toBe(200);
  }, 30_000);

  /** The pids of a process's children (Linux /proc). */
  function childrenOf(pid: number): number[] {
    const found: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) found.push(Number(entry));
      } catch {
        // the process is gone
      }
    }
    return found;
  }

  it("replaces a worker that dies, and keeps answering meanwhile", async () => {
    const before = childrenOf(b.child.pid!);
    expect(before).toHaveLength(2);
    process.kill(before[0], "SIGKILL");
    // Node's round-robin cluster can hand a connection accepted in the very instant of the death
    // to the dead worker (it then waits for the client's timeout); once the primary has seen the
    // exit, a few milliseconds later, every connection goes to a live worker.
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 10; i++) expect((await call(b.port, "/healthz", { timeoutMs: 2_000 })).status).toBe(200);
    let after: number[] = [];
    for (let i = 0; i < 100; i++) {
      after = childrenOf(b.child.pid!);
      if (after.length === 2 && !after.includes(before[0]) && (await call(b.port, "/healthz").then((r) => r.status, () => 0)) === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(after).toHaveLength(2);
    expect(after).not.toContain(before[0]);
  }, 30_000);

  it("stops every worker of an instance on SIGTERM and exits 0", async () => {
    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
    const [{ n }] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`);
    expect(n).toBe(0);
    await expect(call(b.port, "/healthz", { timeoutMs: 1000 })).rejects.toThrow();
  });
});

describe("catalog change feed on PGlite (one process, no nginx needed)", () => {
  it("tells its listeners about a committed change, never about a rolled-back one", async () => {
    const handle = await openDatabase({});
    const feed = createCatalogChangeFeed({ database: handle, logger: createLogger("silent") });
    let changes = 0;
    feed.onChange(() => changes++);
    await feed.start();
    try {
      expect(feed.listening).toBe(true);
      const settle = () => new Promise((r) => setTimeout(r, 50));
      await handle.db.transaction(async (tx) => {
        await feed.notify(tx as unknown as typeof handle.db);
        await settle();
        expect(changes).toBe(0); // not before the commit
      });
      // Delivered after the commit (polled: a busy machine may take longer than a settle).
      await expect.poll(() => changes, { timeout: 5_000 }).toBe(1);
      await expect(
        handle.db.transaction(async (tx) => {
          await feed.notify(tx as unknown as typeof handle.db);
          throw new Error("the change failed");
        }),
      ).rejects.toThrow("the change failed");
      await settle();
      expect(changes).toBe(1);
    } finally {
      await feed.stop();
      await handle.close();
    }
  });
});
