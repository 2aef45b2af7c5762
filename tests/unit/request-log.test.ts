/**
 * The request log (decision 053): each answer's line goes through pino with its id, method,
 * redacted address, status and time; the destination gathers lines and still writes a quiet
 * process's lines soon; a planned exit writes every line logged before it, after what is still
 * being written, and an exit that cannot wait writes them synchronously.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { FLUSH_MS, createLogger, flushLogs, logDestination, logsWritten } from "../../server/logger";
import { logRequest, redactUrl, storedPageTally } from "../../server/http/request-log";

/** A logger whose destination records each write it is given. */
function recorded(level = "info") {
  const writes: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      writes.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(level, sink);
  const lines = () => writes.join("").split("\n").filter(Boolean);
  return { logger, writes, lines };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A logger writing through `logDestination` to a file of its own, removed after the test. */
function loggedToFile() {
  const dir = mkdtempSync(join(tmpdir(), "museum-log-"));
  const path = join(dir, "log");
  const destination = logDestination(openSync(path, "w"));
  const logger = createLogger("info", destination);
  const msgs = () => readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).msg as string);
  const remove = () => {
    destination.destroy(); // stops its periodic flush and closes the file
    rmSync(dir, { recursive: true, force: true });
  };
  return { logger, msgs, remove };
}

describe("the logger's destination", () => {
  it("writes a quiet process's lines within a moment, without waiting for more", async () => {
    const file = loggedToFile();
    try {
      file.logger.info("listening");
      await expect.poll(file.msgs, { timeout: FLUSH_MS * 8, interval: 20 }).toEqual(["listening"]);
    } finally {
      file.remove();
    }
  });

  it("writes every line logged before an exit that cannot wait, in order", () => {
    const file = loggedToFile();
    const { logger } = file;
    try {
      for (let i = 0; i < 30; i++) logger.child({ worker: 1 }).info({ n: i }, "request completed");
      logger.info("stopped");
      expect(file.msgs()).toEqual([]); // gathered, not yet written
      flushLogs(logger);
      const msgs = file.msgs();
      expect(msgs).toHaveLength(31);
      expect(msgs.at(-1)).toBe("stopped");
    } finally {
      file.remove();
    }
  });

  it("writes the last lines and the fatal line of a process that exits on an uncaught error", () => {
    // As server/index.ts does: `logger.fatal(...)`, then `flushLogs`, then `process.exit`, with
    // stdout a pipe.
    const code = `
      import { createLogger, flushLogs } from "./server/logger.ts";
      const logger = createLogger("info");
      for (let i = 0; i < 20; i++) logger.info({ n: i }, "request completed");
      process.on("uncaughtException", (error) => {
        logger.fatal({ err: error }, "uncaught error; exiting");
        flushLogs(logger);
        process.exit(1);
      });
      setImmediate(() => { throw new Error("boom"); });
    `;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { encoding: "utf8", timeout: 30_000 });
    expect(child.status).toBe(1);
    const lines = child.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual([...Array(20).fill("request completed"), "uncaught error; exiting"]);
    expect(lines.at(-1)).toMatchObject({ level: 60, err: { message: "boom" } });
  });

  it.skipIf(process.platform === "win32")("waits before an exit for a line still being written, so the last line stays last", async () => {
    // stdout as a pipe nobody reads yet: a line longer than the pipe's buffer stays in flight in
    // the thread pool, as under load, where a synchronous flush at exit would overtake it.
    const dir = mkdtempSync(join(tmpdir(), "museum-log-"));
    const fifo = join(dir, "stdout");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    const received: Buffer[] = [];
    const readAll = () => {
      const chunk = Buffer.alloc(1 << 16);
      for (;;) {
        try {
          const n = readSync(reader, chunk);
          if (n <= 0) return;
          received.push(Buffer.from(chunk.subarray(0, n)));
        } catch {
          return; // EAGAIN: nothing more for now
        }
      }
    };
    let destination: ReturnType<typeof logDestination> | undefined;
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        readAll();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      readAll();
    };
    try {
      destination = logDestination(writer);
      const logger = createLogger("info", destination);
      logger.info({ worker: "x".repeat(200_000) }, "worker stopped");
      let written = false;
      logsWritten(logger, 10_000).then(() => (written = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(written).toBe(false);
      await readUntil(() => written);
      // The whole line is out: what the exit writes now comes after it.
      expect(JSON.parse(Buffer.concat(received).toString()).msg).toBe("worker stopped");
      logger.info("stopped");
      let stopped = false;
      logsWritten(logger, 10_000).then(() => (stopped = true));
      await readUntil(() => stopped);
      const msgs = Buffer.concat(received).toString().split("\n").filter(Boolean).map((l) => JSON.parse(l).msg);
      expect(msgs).toEqual(["worker stopped", "stopped"]);

      // A reader that never comes back does not hold the exit past the limit.
      logger.info({ worker: "y".repeat(200_000) }, "unread");
      const started = Date.now();
      await logsWritten(logger, 200);
      expect(Date.now() - started).toBeLessThan(2_000);
      // Read it, so that the write in flight ends before its pipe is closed.
      let drained = false;
      logsWritten(logger, 10_000).then(() => (drained = true));
      await readUntil(() => drained);
    } finally {
      // A failed step may leave a write in flight: its pipe's closing is not this test's error.
      destination?.on("error", () => undefined);
      if (destination) destination.destroy(); // stops its periodic flush and closes `writer`
      else closeSync(writer);
      closeSync(reader);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("logRequest", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("logs one line per answer with its id, method, redacted address and status", async () => {
    const { logger, lines } = recorded();
    const ids: string[] = [];
    server = createServer((req, res) => {
      ids.push(logRequest(logger, req, res));
      res.statusCode = req.url === "/boom" ? 500 : 200;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<string | undefined>((resolve, reject) =>
        request({ port, path, host: "127.0.0.1" }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers["x-request-id"] as string | undefined));
        })
          .on("error", reject)
          .end(),
      );
    const sent = [await get("/password/reset?token=s3cret&x=1"), await get("/boom")];
    for (let i = 0; i < 20 && lines().length < 2; i++) await turn();
    const logged = lines().map((l) => JSON.parse(l));
    expect(sent).toEqual(ids);
    expect(logged).toMatchObject([
      { level: 30, msg: "request completed", req: { id: ids[0], method: "GET", url: "/password/reset?token=[redacted]&x=1" }, res: { statusCode: 200 } },
      { level: 50, msg: "request errored", req: { id: ids[1], url: "/boom" }, res: { statusCode: 500 } },
    ]);
    expect(logged[0].responseTime).toEqual(expect.any(Number));
    // The line's fields, in the order the log has always had them.
    expect(Object.keys(logged[0])).toEqual(["level", "time", "service", "req", "res", "responseTime", "msg"]);
  });

  it("logs a stored page's answer only at debug, and counts stored pages once a minute at info", async () => {
    for (const level of ["info", "debug"]) {
      const { logger, lines } = recorded(level);
      const tally = storedPageTally(logger, 60_000);
      server = createServer((req, res) => {
        tally.add();
        res.setHeader("X-Request-Id", logRequest(logger, req, res, false, "debug"));
        res.end("stored");
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      for (let i = 0; i < 3; i++) {
        const id = await new Promise<string | undefined>((resolve, reject) =>
          request({ port, path: "/", host: "127.0.0.1" }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.headers["x-request-id"] as string | undefined));
          })
            .on("error", reject)
            .end(),
        );
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
      }
      for (let i = 0; i < 20; i++) await turn();
      tally.stop();
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
      for (let i = 0; i < 20 && !lines().some((l) => l.includes("stored pages served")); i++) await turn();
      const logged = lines().map((l) => JSON.parse(l));
      const perRequest = logged.filter((l) => l.msg === "request completed");
      expect(perRequest.map((l) => l.level)).toEqual(level === "debug" ? [20, 20, 20] : []);
      expect(logged.filter((l) => l.msg === "stored pages served")).toMatchObject([{ level: 30, count: 3 }]);
    }
  });

  it("redacts secrets in a query string and leaves other addresses as they are", () => {
    expect(redactUrl("/a?code=1&b=2&signature=zz")).toBe("/a?code=[redacted]&b=2&signature=[redacted]");
    expect(redactUrl("/teams/3")).toBe("/teams/3");
    expect(redactUrl(undefined)).toBe("");
  });
});
