/**
 * /healthz (liveness) answers at once without the database; /readyz (readiness) answers 503 with
 * its reason within its time limit when the database hangs or fails, when the last migration is
 * missing, and while draining, and 200 otherwise.
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import { createLogger } from "../../server/logger";
import { HEALTH_TIMEOUT_MS, LATEST_MIGRATION, liveness, readinessCheck } from "../../server/http/health";

/** A stand-in database answering `max(created_at)` with `latest` (or hanging / failing). */
function fakeDatabase(answer: () => Promise<unknown>) {
  let calls = 0;
  const db = {
    execute: async () => {
      calls++;
      return answer();
    },
  } as unknown as Database;
  return { database: { db, kind: "postgres" as const }, calls: () => calls };
}

const migrated = (createdAt: number) => async () => ({ rows: [{ created_at: String(createdAt) }] });

async function serve(options: Omit<Parameters<typeof readinessCheck>[0], "logger">) {
  const app = express();
  app.get("/healthz", liveness);
  app.get("/readyz", readinessCheck({ ...options, logger: createLogger("silent") }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("liveness", () => {
  let s: Awaited<ReturnType<typeof serve>>;
  const fake = fakeDatabase(() => new Promise(() => undefined));
  beforeAll(async () => {
    s = await serve({ database: fake.database });
  });
  afterAll(() => s.close());

  it("answers 200 within 100 ms without asking the database, even when it hangs", async () => {
    await fetch(`${s.base}/healthz`); // the first connection's set-up is not the check's time
    const started = performance.now();
    const res = await fetch(`${s.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(performance.now() - started).toBeLessThan(100);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(fake.calls()).toBe(0);
  });
});

describe("readiness", () => {
  it("answers 503 within the limit when the database hangs", async () => {
    const s = await serve({ database: fakeDatabase(() => new Promise(() => undefined)).database });
    try {
      const started = Date.now();
      const res = await fetch(`${s.base}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", reason: "database unreachable" });
      // The margin allows a busy machine; without the limit the request would hang until fetch gives up.
      expect(Date.now() - started).toBeLessThan(HEALTH_TIMEOUT_MS + 1500);
      expect(HEALTH_TIMEOUT_MS).toBeLessThan(2000);
    } finally {
      await s.close();
    }
  });

  it("answers 503 when the database refuses", async () => {
    const s = await serve({ database: fakeDatabase(() => Promise.reject(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).database });
    try {
      const res = await fetch(`${s.base}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", reason: "database unreachable" });
    } finally {
      await s.close();
    }
  });

  it("answers 503 naming the migration when the code's last migration is not applied", async () => {
    for (const answer of [
      migrated(LATEST_MIGRATION.when - 1),
      async () => ({ rows: [{ created_at: null }] }),
      () => Promise.reject(Object.assign(new Error("failed"), { cause: Object.assign(new Error('relation "drizzle.__drizzle_migrations" does not exist'), { code: "42P01" }) })),
    ]) {
      const s = await serve({ database: fakeDatabase(answer).database });
      try {
        const res = await fetch(`${s.base}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ status: "unavailable", reason: `migration ${LATEST_MIGRATION.tag} is not applied` });
      } finally {
        await s.close();
      }
    }
  });

  it("answers ready when the database answers and the last migration (or a later one) is applied", async () => {
    for (const when of [LATEST_MIGRATION.when, LATEST_MIGRATION.when + 1000]) {
      const s = await serve({ database: fakeDatabase(migrated(when)).database });
      try {
        const res = await fetch(`${s.base}/readyz`);
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toBe("no-store");
        expect(await res.json()).toEqual({ status: "ready", database: "postgres" });
      } finally {
        await s.close();
      }
    }
  });

  it("answers 503 while draining, without asking the database", async () => {
    let draining = false;
    const fake = fakeDatabase(migrated(LATEST_MIGRATION.when));
    const s = await serve({ database: fake.database, draining: () => draining });
    try {
      expect((await fetch(`${s.base}/readyz`)).status).toBe(200);
      draining = true;
      const calls = fake.calls();
      const res = await fetch(`${s.base}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", reason: "draining: the process is stopping" });
      expect(fake.calls()).toBe(calls);
      // Liveness is not readiness: a draining process is alive.
      expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
