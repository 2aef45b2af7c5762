/**
 * The compiled host as `npm start` runs it: boots on an empty DATA_DIR with no keys, serves,
 * stops cleanly on SIGTERM; a wrong variable stops start-up with a message naming it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const HOST = path.resolve("build/host/index.js");

function runHost(env: Record<string, string>) {
  const child = spawn(process.execPath, [HOST], {
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "info", WARM_RENDITIONS: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe("compiled host", () => {
  // PGlite boots slowly on a busy machine, and a stop drains for DRAIN_SECONDS (6 s) first.
  it("starts on an empty DATA_DIR, answers, and exits 0 on SIGTERM", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "museum-host-"));
    try {
      const host = runHost({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "false" });
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listen line:\n${host.output()}`)), 60_000);
        host.child.stdout.on("data", () => {
          const m = /"port":(\d+)/.exec(host.output());
          if (m) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        });
      });
      const live = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await live.json()).toEqual({ status: "ok" });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(await ready.json()).toEqual({ status: "ready", database: "pglite" });
      // The home page is rendered ahead once the site answers: its first visitor waits for no render.
      await expect.poll(() => host.output().includes('"msg":"pages rendered ahead"'), { timeout: 30_000 }).toBe(true);
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get("x-cache")).toBe("HIT");
      host.child.kill("SIGTERM");
      expect(await host.exited).toBe(0);
      expect(host.output()).toContain('"msg":"stopped"');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses to start with a wrong variable and names it", async () => {
    const host = runHost({ PORT: "eighty" });
    expect(await host.exited).toBe(1);
    expect(host.output()).toContain("PORT:");
  });
});
