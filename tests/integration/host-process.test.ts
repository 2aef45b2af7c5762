/**
 * The compiled host as `npm start` runs it: boots on an empty DATA_DIR with no keys (the database
 * made in a child that exits first, decision 066), serves, stops cleanly on SIGTERM, and starts
 * again on the same directory without that child; a wrong variable, or a database that cannot be
 * made, stops start-up with a message.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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

/** The port from the host's listen line. */
function listening(host: ReturnType<typeof runHost>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line:\n${host.output()}`)), 60_000);
    host.child.stdout.on("data", () => {
      const m = /"port":(\d+)/.exec(host.output());
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
}

/** The JSON log lines written with `role: "prepare"` (the child that makes a new database). */
const prepareLines = (output: string) => output.split("\n").filter((line) => line.includes('"role":"prepare"'));

describe("compiled host", () => {
  // PGlite boots slowly on a busy machine, and a stop drains for DRAIN_SECONDS (6 s) first.
  it("starts on an empty DATA_DIR, answers, and exits 0 on SIGTERM; starts again on it", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "museum-host-"));
    try {
      const host = runHost({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "false" });
      const port = await listening(host);
      // The new database was made and migrated by the child, which had exited before the site listened.
      const prepared = prepareLines(host.output());
      expect(prepared.some((line) => line.includes('"msg":"migrations applied"'))).toBe(true);
      expect(host.output().indexOf(prepared.at(-1)!)).toBeLessThan(host.output().indexOf('"msg":"museum site listening'));
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

      // The database is there now: the serving process opens it itself, no child.
      const again = runHost({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "false", DRAIN_SECONDS: "0" });
      const portAgain = await listening(again);
      expect(await (await fetch(`http://127.0.0.1:${portAgain}/readyz`)).json()).toEqual({ status: "ready", database: "pglite" });
      expect(prepareLines(again.output())).toEqual([]);
      again.child.kill("SIGTERM");
      expect(await again.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it("does not start when the new database cannot be made, and says so", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "museum-host-"));
    try {
      // A file where PGlite's directory would go.
      writeFileSync(path.join(dataDir, "pglite"), "not a directory");
      const host = runHost({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", SEED_DEMO: "false" });
      expect(await host.exited).toBe(1);
      expect(host.output()).toContain("Not starting: the database could not be prepared (see above).");
      expect(host.output()).not.toContain("museum site listening");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses to start with a wrong variable and names it", async () => {
    const host = runHost({ PORT: "eighty" });
    expect(await host.exited).toBe(1);
    expect(host.output()).toContain("PORT:");
  });
});
