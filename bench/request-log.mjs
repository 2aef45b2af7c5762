// What the request log costs one Node process (decision 053): a bare `http.createServer` that
// writes fixed bytes, beside the same server logging each answer's line
//   - "batch": decision 042's way (the line built as a string, the lines of one turn of the
//     event loop in one write at the next check phase), reimplemented here without pino;
//   - "pino": `logger.info({ req, res, responseTime }, "request completed")` to
//     `pino.destination({ sync: false, minLength: 0 })`, pino's asynchronous destination as
//     decision 042 measured it;
//   - "pino-4k": the same line to `pino.destination({ sync: false, minLength: 4096,
//     periodicFlush: 250 })` (what server/logger.ts uses, `logDestination`).
// Each variant runs in a process of its own, measured by `wrk -t2 -c50 -d<seconds>s` after
// an unmeasured warm-up, in interleaved rounds (throughput on a shared VM moves by a fifth from
// one run to the next). Prints req/s, the process's CPU per answer, and each variant's ratio to
// the bare server's mean.
//
//   node bench/request-log.mjs
//
// Variables: REQUEST_LOG_ROUNDS (3), REQUEST_LOG_SECONDS (5), REQUEST_LOG_WARMUP_SECONDS (2),
// REQUEST_LOG_VARIANTS (bare,batch,pino,pino-4k), REQUEST_LOG_TO (`devnull`, as bench/run.mjs
// logs; or `pipe`: the server's stdout is a pipe this script reads, and it checks that every
// answer wrk counted has its line).
import { execFile, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { openSync } from "node:fs";
import { EventEmitter } from "node:events";
import { createServer } from "node:http";
import { promisify } from "node:util";
import pino from "pino";

const BODY = Buffer.from(`<!doctype html><html><body>${"museum ".repeat(300)}</body></html>`);

if (process.argv[2] === "--serve") serve(process.argv[3]);
else if (process.argv[2] === "--lines") await lines(process.argv[3]);
else await main();

/**
 * The line alone, without HTTP: LINES lines of `variant`, 50 per turn of the event loop (as
 * answers end under load), timed by the process's CPU (its thread pool's writes included).
 */
async function lines(variant) {
  const to = openSync("/dev/null", "w");
  const log = logFor(variant, to);
  const total = Number(process.env.REQUEST_LOG_LINES ?? 200_000);
  const res = Object.assign(new EventEmitter(), { statusCode: 200, setHeader() {} });
  const req = { method: "GET", url: "/exhibits/1?team=pirates" };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const runLines = async (n) => {
    for (let i = 0; i < n; i += 50) {
      for (let j = 0; j < 50; j++) {
        log(req, res);
        res.emit("close");
      }
      await turn();
    }
  };
  await runLines(20_000); // warm-up
  const before = process.cpuUsage();
  const started = performance.now();
  await runLines(total);
  const cpu = process.cpuUsage(before);
  process.send({ nsPerLine: ((cpu.user + cpu.system) * 1000) / total, wallNsPerLine: ((performance.now() - started) * 1e6) / total });
  process.exit(0);
}

function serve(variant) {
  const to = process.env.REQUEST_LOG_TO === "pipe" ? 1 : openSync("/dev/null", "w");
  const log = logFor(variant, to);
  const server = createServer((req, res) => {
    if (log) log(req, res);
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": BODY.length });
    res.end(BODY);
  });
  server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
  process.on("message", (message) => {
    if (message === "cpu") process.send({ cpu: process.cpuUsage() });
    if (message === "stop") server.close(() => process.exit(0));
  });
}

/** The request log of one variant: what server/http/request-log.ts does for each answer. */
function logFor(variant, fd) {
  // Timing the line alone, "bare" still does what every variant does besides its line.
  if (variant === "bare") return process.argv[2] === "--lines" ? perAnswer(() => undefined) : undefined;
  if (variant === "batch") return perAnswer(batchLine(fd));
  const minLength = variant === "pino-4k" ? 4096 : 0;
  const destination = pino.destination({ dest: fd, sync: false, minLength, periodicFlush: minLength ? 250 : 0 });
  const logger = pino({ level: "info", base: { service: "museum" } }, destination);
  return perAnswer((id, req, res, ms) =>
    logger.info({ req: { id, method: req.method, url: req.url }, res: { statusCode: res.statusCode }, responseTime: ms }, "request completed"),
  );
}

/** An id, a clock and `line(id, req, res, ms)` once the answer has gone. */
function perAnswer(line) {
  return (req, res) => {
    const id = randomUUID();
    const started = performance.now();
    res.setHeader("X-Request-Id", id);
    res.once("close", () => line(id, req, res, Math.round(performance.now() - started)));
  };
}

/** Decision 042's line batch, as server/logger.ts had it (pino's pieces written out here). */
function batchLine(fd) {
  const destination = pino.destination({ dest: fd, sync: false, minLength: 0 });
  let queued = "";
  const flush = () => {
    const lines = queued;
    queued = "";
    destination.write(lines);
  };
  return (id, req, res, ms) => {
    const fields =
      `,"req":{"id":"${id}","method":${JSON.stringify(req.method)},"url":${JSON.stringify(req.url)}}` +
      `,"res":{"statusCode":${res.statusCode}},"responseTime":${ms}`;
    if (!queued) setImmediate(flush);
    queued += `{"level":30,"time":${Date.now()},"service":"museum"${fields},"msg":"request completed"}\n`;
  };
}

async function main() {
  const rounds = Number(process.env.REQUEST_LOG_ROUNDS ?? 3);
  const seconds = Number(process.env.REQUEST_LOG_SECONDS ?? 5);
  const warmup = Number(process.env.REQUEST_LOG_WARMUP_SECONDS ?? 2);
  const variants = (process.env.REQUEST_LOG_VARIANTS ?? "bare,batch,pino,pino-4k").split(",");
  const toPipe = process.env.REQUEST_LOG_TO === "pipe";
  const run = promisify(execFile);
  const wrk = async (port, s) => {
    const { stdout } = await run("wrk", ["-t2", "-c50", `-d${s}s`, `http://127.0.0.1:${port}/exhibits/1`]);
    const requests = Number(/(\d+) requests in/.exec(stdout)[1]);
    return { requests, perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]) };
  };
  console.log(`node ${process.version}, pino ${pino.version}, load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log(`wrk -t2 -c50 -d${seconds}s, ${rounds} interleaved rounds, ${warmup} s warm-up each, logs to ${toPipe ? "a pipe" : "/dev/null"}`);
  const results = Object.fromEntries(variants.map((v) => [v, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const variant of variants) {
      const child = fork(new URL(import.meta.url), ["--serve", variant], { stdio: ["ignore", toPipe ? "pipe" : "ignore", "inherit", "ipc"] });
      let lines = 0;
      child.stdout?.on("data", (chunk) => {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      const message = (key) => new Promise((resolve) => child.on("message", (m) => key in m && resolve(m[key])));
      const port = await message("port");
      const warm = await wrk(port, warmup);
      const cpuAsked = message("cpu");
      child.send("cpu");
      const before = await cpuAsked;
      const measured = await wrk(port, seconds);
      const cpuAfter = message("cpu");
      child.send("cpu");
      const after = await cpuAfter;
      const usPerAnswer = (after.user + after.system - before.user - before.system) / measured.requests;
      child.send("stop");
      await new Promise((resolve) => child.on("exit", resolve));
      const answered = warm.requests + measured.requests;
      const lost = toPipe && variant !== "bare" ? ` lines ${lines} for ${answered}+ answers` : "";
      results[variant].push(measured.perSecond);
      console.log(`round ${round} ${variant.padEnd(8)} ${Math.round(measured.perSecond).toLocaleString("en").padStart(7)} req/s  ${usPerAnswer.toFixed(1).padStart(5)} µs CPU/answer${lost}`);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

  // The line alone: its CPU, less what the bare variant spends (id, timer, 'close').
  const perLine = Object.fromEntries(variants.map((v) => [v, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const variant of variants) {
      const child = fork(new URL(import.meta.url), ["--lines", variant], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
      perLine[variant].push(await new Promise((resolve) => child.on("message", resolve)));
      await new Promise((resolve) => child.on("exit", resolve));
    }
  }
  const bareNs = perLine.bare ? Math.min(...perLine.bare.map((r) => r.nsPerLine)) : 0;
  console.log(`\nthe line alone, ${Number(process.env.REQUEST_LOG_LINES ?? 200_000).toLocaleString("en")} lines, 50 a turn, to /dev/null: CPU ns per line (best of ${rounds}; less bare's ${Math.round(bareNs)} ns)`);
  for (const variant of variants) {
    const best = Math.min(...perLine[variant].map((r) => r.nsPerLine));
    const all = perLine[variant].map((r) => Math.round(r.nsPerLine)).join(", ");
    console.log(`${variant.padEnd(9)} ${Math.round(best).toLocaleString("en").padStart(6)} ns (${all})${variant === "bare" ? "" : `  the line: ${Math.round(best - bareNs).toLocaleString("en")} ns`}`);
  }

  const bare = results.bare ? mean(results.bare) : undefined;
  console.log("\nvariant   mean req/s   range            ratio to bare");
  for (const variant of variants) {
    const xs = results[variant];
    const range = `${Math.round(Math.min(...xs)).toLocaleString("en")}-${Math.round(Math.max(...xs)).toLocaleString("en")}`;
    const ratio = bare ? (mean(xs) / bare).toFixed(2) : "-";
    console.log(`${variant.padEnd(9)} ${Math.round(mean(xs)).toLocaleString("en").padStart(10)}   ${range.padEnd(16)} ${ratio}`);
  }
}
