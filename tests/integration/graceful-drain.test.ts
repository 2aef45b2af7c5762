/**
 * A deploy drops nothing (issue 22, decision 020): two compiled instances on one PostgreSQL
 * behind nginx with upstream keep-alive, as the README's deployment guide configures it. Several
 * clients post contact messages without pause while one instance is sent SIGTERM: it reports
 * not ready and keeps serving for DRAIN_SECONDS, then stops listening, answers what comes on its
 * open connections with `Connection: close` (so nginx stops reusing them) and exits once nginx
 * has closed them. No answer is 5xx, every acknowledged message is in the database, and the
 * instance exits 0.
 *
 * Needs PostgreSQL and nginx: outside CI a missing one skips with the reason, in CI it fails.
 */
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import path from "node:path";
import { like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../server/db/client";
import { contactMessages } from "../../server/db/schema";
import { call, missingForNginxTests, startTwoInstances, type Instance, type TwoInstances } from "../helpers/instances";

const missing = await missingForNginxTests("graceful-drain");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GET on `agent` (keep-alive): the status and the Connection header. */
function fetch(port: number, pathName: string, agent: Agent): Promise<{ status: number; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathName, agent, timeout: 5_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(missing !== null)("SIGTERM to one of two instances behind nginx under a stream of posts", () => {
  let site: TwoInstances;
  let handle: DatabaseHandle;
  let a: Instance;
  let nginxPort: number;

  beforeAll(async () => {
    // A has two workers: its primary passes SIGTERM on to them.
    site = await startTwoInstances("drain", { SESSION_SECRET: "graceful-drain-secret-graceful-drain-secret", LOG_LEVEL: "info" }, { WEB_CONCURRENCY: "2" }, { WEB_CONCURRENCY: "1" });
    ({ handle, a, nginxPort } = site);
  }, 180_000);

  afterAll(() => site?.close(), 60_000);

  it("answers no 5xx and stores every acknowledged post while one instance drains and stops", async () => {
    const run = `drain-${Date.now()}`;
    const writes: { marker: string; status: number; at: number }[] = [];
    let stop = false;
    let n = 0;
    const started = performance.now();
    // Each post from its own loopback address, so the per-address form limit never answers it.
    const writer = async () => {
      while (!stop) {
        const i = n++;
        const marker = `${run} ${i}`;
        const from = `127.0.${2 + (Math.floor(i / 250) % 200)}.${1 + (i % 250)}`;
        const body = { firstName: "Drain", lastName: "Test", email: `drain${i}@example.com`, subject: "Question", message: marker };
        const status = await call(nginxPort, "/api/contact", { body, from, timeoutMs: 20_000 }).then((r) => r.status, () => 0);
        writes.push({ marker, status, at: performance.now() - started });
      }
    };
    const load = Array.from({ length: 8 }, writer);
    await sleep(1_500);

    // A client of A's own on one keep-alive connection, asking /healthz every 200 ms.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const pings: { status: number; connection?: string }[] = [];
    const pinger = (async () => {
      while (!stop) {
        const answer = await fetch(a.port, "/healthz", agent).catch(() => null);
        if (!answer) break; // A no longer listens and closed this connection
        pings.push(answer);
        await sleep(200);
      }
    })();
    await sleep(500);

    a.child.kill("SIGTERM");
    const termAt = performance.now() - started;
    // While draining, A still answers and says it is not ready.
    await sleep(500);
    const ready = await call(a.port, "/readyz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ status: "unavailable", reason: "draining: the process is stopping" });
    expect((await call(a.port, "/healthz")).status).toBe(200);

    expect(await a.exited).toBe(0);
    const exitAt = performance.now() - started;
    await sleep(1_500);
    stop = true;
    await Promise.all([...load, pinger]);
    agent.destroy();

    const byStatus = writes.reduce<Record<string, number>>((m, w) => ({ ...m, [w.status]: (m[w.status] ?? 0) + 1 }), {});
    const duringDrain = writes.filter((w) => w.at > termAt && w.at < exitAt).length;
    console.info(`[graceful-drain] ${writes.length} posts (${duringDrain} answered between SIGTERM and A's exit ${Math.round(exitAt - termAt)} ms later): ${JSON.stringify(byStatus)}`);
    if (writes.some((w) => w.status !== 201)) console.info(JSON.stringify({ termAt, exitAt, failed: writes.filter((w) => w.status !== 201) }), readFileSync(path.join(site.dir, "error.log"), "utf8"));
    expect(writes.filter((w) => w.status !== 201)).toEqual([]);
    expect(duringDrain).toBeGreaterThan(20);
    const stored = await handle.db.select({ message: contactMessages.message }).from(contactMessages).where(like(contactMessages.message, `${run} %`));
    const kept = new Set(stored.map((r) => r.message));
    expect(writes.filter((w) => !kept.has(w.marker))).toEqual([]);
    // Its open connection was answered until the end, the last answer saying the connection closes.
    expect(pings.length).toBeGreaterThan(10);
    expect(pings.every((p) => p.status === 200)).toBe(true);
    expect(pings.at(-1)?.connection).toBe("close");
    expect(pings.slice(0, 5).every((p) => p.connection === "keep-alive")).toBe(true);
    expect(a.output()).toContain('"msg":"draining: not ready, still serving"');
    expect(a.output()).toContain('"msg":"no longer listening; closing each connection after its answer"');
    expect(a.output()).not.toContain("did not finish in time");
    expect((await call(nginxPort, "/readyz")).status).toBe(200);
  }, 90_000);
});
