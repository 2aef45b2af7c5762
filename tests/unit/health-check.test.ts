/** /healthz answers within its time limit even when the database never answers. */
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../server/logger";
import { HEALTH_TIMEOUT_MS, healthCheck } from "../../server/http/health";

async function serve(ping: () => Promise<void>) {
  const app = express();
  app.get("/healthz", healthCheck({ ping, kind: "postgres" }, createLogger("silent")));
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("healthCheck", () => {
  it("answers 503 within the limit when the database hangs", async () => {
    const s = await serve(() => new Promise<void>(() => undefined));
    try {
      const started = Date.now();
      const res = await fetch(s.url);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable" });
      // The margin allows a busy machine; without the limit the request would hang until fetch gives up.
      expect(Date.now() - started).toBeLessThan(HEALTH_TIMEOUT_MS + 1500);
      expect(HEALTH_TIMEOUT_MS).toBeLessThan(2000);
    } finally {
      await s.close();
    }
  });

  it("answers ok when the database does", async () => {
    const s = await serve(async () => undefined);
    try {
      const res = await fetch(s.url);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", database: "postgres" });
    } finally {
      await s.close();
    }
  });
});
