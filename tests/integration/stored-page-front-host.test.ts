/**
 * The compiled host on PGlite with two processes (decision 045), as `npm start` runs it on a
 * machine with two cores: the front answers visitors' stored pages with the owner's very bytes,
 * a signed-in person's request is always the owner's, a front that dies is replaced and gets
 * the pages again, and SIGTERM stops both with every answer logged, the front first.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const HOST = path.resolve("build/host/index.js");

interface Answer {
  status: number;
  id: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** One GET on a connection of its own (the primary hands connections to the two processes in turn). */
function get(port: number, pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: pathname, headers: { "accept-encoding": "identity", ...headers }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, id: String(res.headers["x-request-id"]), body, headers: res.headers }));
    })
      .on("error", reject)
      .end();
  });
}

/** The worker processes of `primary` with their role (from their environment). */
function workersOf(primary: number): { pid: number; role: string }[] {
  const children: { pid: number; role: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"))?.[1]);
      if (ppid !== primary) continue;
      const role = /(?:^|\0)MUSEUM_ROLE=([a-z]+)/.exec(readFileSync(`/proc/${entry}/environ`, "utf8"))?.[1] ?? "";
      children.push({ pid: Number(entry), role });
    } catch {
      // A process that ended meanwhile.
    }
  }
  return children;
}

describe.skipIf(process.platform !== "linux")("the compiled host with a stored-page front", () => {
  it("answers stored pages from both processes alike, replaces a dead front, and stops with every answer logged", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "museum-front-"));
    const child = spawn(process.execPath, [HOST], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", LOG_LEVEL: "info", WARM_RENDITIONS: "false", DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", WEB_CONCURRENCY: "2", DRAIN_SECONDS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const lines = () => out.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown> & { req?: { id: string; url: string }; role?: string; msg: string });
    const answeredBy = (id: string) => lines().find((l) => l.req?.id === id)?.role;
    try {
      await expect.poll(() => out.includes('"msg":"pages rendered ahead"') && /"port":(\d+)/.test(out), { timeout: 90_000 }).toBe(true);
      const port = Number(/"port":(\d+)/.exec(out)![1]);
      expect(workersOf(child.pid!).map((w) => w.role).sort()).toEqual(["front", "owner"]);

      // The first answers go through the owner (which then shares the page); soon both answer it.
      const answers: Answer[] = [];
      for (let i = 0; i < 40 && !answers.some((a) => answeredBy(a.id) === "front"); i++) {
        answers.push(await get(port, "/about"));
        await expect.poll(() => answeredBy(answers.at(-1)!.id)).toBeDefined();
      }
      const byFront = answers.find((a) => answeredBy(a.id) === "front");
      const byOwner = answers.find((a) => answeredBy(a.id) === "owner" && a.headers["x-cache"] === "HIT");
      expect(byFront).toBeDefined();
      expect(byOwner).toBeDefined();
      expect(byFront!.status).toBe(200);
      expect(byFront!.body).toBe(byOwner!.body);
      for (const name of ["content-type", "content-security-policy", "etag", "cache-control", "vary", "x-cache"]) expect([name, byFront!.headers[name]]).toEqual([name, byOwner!.headers[name]]);

      // A session token, even a made-up one, is never the front's to answer.
      for (let i = 0; i < 4; i++) {
        const signedIn = await get(port, "/about", { cookie: `museum_session=${"t".repeat(43)}` });
        await expect.poll(() => answeredBy(signedIn.id)).toBe("owner");
      }

      // A front that dies is replaced, asks for the pages, and answers them again.
      const front = workersOf(child.pid!).find((w) => w.role === "front")!;
      process.kill(front.pid, "SIGKILL");
      await expect.poll(() => workersOf(child.pid!).some((w) => w.role === "front" && w.pid !== front.pid), { timeout: 20_000 }).toBe(true);
      await expect
        .poll(
          async () => {
            const again = await get(port, "/about");
            await expect.poll(() => answeredBy(again.id)).toBeDefined();
            return answeredBy(again.id) === "front" && again.body === byOwner!.body;
          },
          { timeout: 20_000 },
        )
        .toBe(true);

      const asked = lines().filter((l) => l.req).length;
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      const last = lines();
      expect(last.filter((l) => l.req).length).toBe(asked);
      const frontStopped = last.findIndex((l) => l.role === "front" && l.msg === "stopped");
      const ownerStopped = last.findIndex((l) => l.role === "owner" && l.msg === "stopped");
      expect(frontStopped).toBeGreaterThan(-1);
      expect(ownerStopped).toBeGreaterThan(frontStopped);
      expect(last.at(-1)!.msg).toBe("stopped");
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
