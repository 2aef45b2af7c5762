/**
 * The request log (decision 042): each answer's line is the one pino would write for the same
 * fields, the lines of one turn of the event loop leave in one write, no other line overtakes
 * them, and a planned exit writes what is still queued, after what is still being written.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, flushLogs, lineBatch, logsWritten } from "../../server/logger";
import { logRequest, redactUrl } from "../../server/http/request-log";

/** A logger whose destination records each write it is given. */
function recorded(level = "info") {
  const writes: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      writes.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level, base: { service: "museum" } }, sink).child({ worker: 2 });
  const lines = () => writes.join("").split("\n").filter(Boolean);
  return { logger, writes, lines };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const withoutTime = (line: string) => line.replace(/,"time":\d+/, "");

describe("lineBatch", () => {
  it("writes what pino writes for the same fields and message", async () => {
    const { logger, lines } = recorded();
    const fields = { req: { id: "abc", method: "GET", url: "/teams/1?q=\"x\"\u0001" }, res: { statusCode: 200 }, responseTime: 3 };
    logger.info(fields, "request completed");
    lineBatch(logger).write("info", `,"req":${JSON.stringify(fields.req)},"res":{"statusCode":200},"responseTime":3`, "request completed");
    await turn();
    const [byPino, byBatch] = lines();
    expect(withoutTime(byBatch)).toBe(withoutTime(byPino));
    expect(JSON.parse(byBatch)).toMatchObject({ level: 30, service: "museum", worker: 2, msg: "request completed", req: fields.req });
  });

  it("sends the lines of one turn in one write, and none below the logger's level", async () => {
    const { logger, writes, lines } = recorded("warn");
    const batch = lineBatch(logger);
    batch.write("info", "", "not written");
    batch.write("error", ',"n":1', "first");
    batch.write("error", ',"n":2', "second");
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toHaveLength(1);
    expect(lines().map((l) => JSON.parse(l).msg)).toEqual(["first", "second"]);
    batch.write("warn", "", "next turn");
    await turn();
    expect(writes).toHaveLength(2);
  });

  it("lets no line of the process's logger overtake request lines still queued", () => {
    const writes: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        writes.push(String(chunk));
        done();
      },
    });
    const logger = createLogger("info", sink);
    lineBatch(logger.child({ worker: 1 })).write("info", "", "request completed");
    lineBatch(logger).write("info", "", "request errored");
    logger.child({ worker: 1 }).info("stopped");
    expect(writes.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l).msg)).toEqual(["request completed", "request errored", "stopped"]);
  });

  it("writes what is still queued when the process is about to exit", () => {
    const { logger, lines } = recorded();
    lineBatch(logger).write("info", "", "last words");
    flushLogs(logger);
    expect(lines().map((l) => JSON.parse(l).msg)).toEqual(["last words"]);
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
    let destination: ReturnType<typeof pino.destination> | undefined;
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        readAll();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      readAll();
    };
    try {
      destination = pino.destination({ dest: writer, sync: false, minLength: 0 });
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
      closeSync(writer);
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
  });

  it("redacts secrets in a query string and leaves other addresses as they are", () => {
    expect(redactUrl("/a?code=1&b=2&signature=zz")).toBe("/a?code=[redacted]&b=2&signature=[redacted]");
    expect(redactUrl("/teams/3")).toBe("/teams/3");
    expect(redactUrl(undefined)).toBe("");
  });
});
