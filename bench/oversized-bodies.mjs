// `node bench/oversized-bodies.mjs` (after `npm run build`): starts the production build on a
// fresh PGlite DATA_DIR and sends twelve 450 MB form posts to /contact at once (declared
// length, and streamed without one), then prints the site's memory (RSS, from /proc) before and
// after, how each post was answered, and how long /healthz took meanwhile.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

const PORT = 4410;
const POSTS = 12;
const BYTES = 450 * 1024 * 1024;
const dataDir = mkdtempSync(path.join(tmpdir(), "museum-bodies-"));
const site = spawn(process.execPath, ["build/host/index.js"], {
  env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn", WARM_RENDITIONS: "false", NODE_ENV: "production" },
  stdio: ["ignore", "ignore", "inherit"],
});
const base = `http://127.0.0.1:${PORT}`;

const rssMb = () => {
  const line = readFileSync(`/proc/${site.pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(line.replace(/\D+/g, "")) / 1024);
};

async function waitUp() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("site did not start");
}

/** Posts `BYTES` of form body, declared or chunked; resolves with the status and the bytes it got to send. */
function bigPost(declared) {
  return new Promise((resolve) => {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    if (declared) headers["content-length"] = String(BYTES);
    else headers["transfer-encoding"] = "chunked";
    let status = 0;
    let sent = 0;
    const req = http.request(`${base}/contact`, { method: "POST", headers }, (res) => {
      status = res.statusCode;
      res.resume();
      res.on("end", () => {
        req.destroy();
        resolve({ status, sent });
      });
    });
    req.on("error", () => resolve({ status, sent }));
    const chunk = Buffer.alloc(1024 * 1024, "a");
    const pump = () => {
      while (sent < BYTES && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

try {
  await waitUp();
  await fetch(`${base}/contact`);
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
  const healthTimes = [];
  const prober = setInterval(async () => {
    const t = Date.now();
    try {
      await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) });
      healthTimes.push(Date.now() - t);
    } catch {
      healthTimes.push(Infinity);
    }
  }, 200);
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: POSTS }, (_, i) => bigPost(i % 2 === 0)));
  const elapsed = Date.now() - started;
  await new Promise((r) => setTimeout(r, 500));
  clearInterval(sampler);
  clearInterval(prober);
  const statuses = results.map((r) => r.status).join(" ");
  const sentMb = results.map((r) => Math.round(r.sent / 1024 / 1024)).join(" ");
  console.log(`${POSTS} posts of ${BYTES / 1024 / 1024} MB to /contact (half declared, half chunked), all at once`);
  console.log(`  answers:           ${statuses}  (in ${elapsed} ms)`);
  console.log(`  MB each client got to write before the answer: ${sentMb}`);
  console.log(`  site RSS:          ${before} MB before, peak ${peak} MB, ${rssMb()} MB after`);
  const worst = Math.max(...healthTimes);
  console.log(`  /healthz meanwhile: ${healthTimes.length} probes, slowest ${worst === Infinity ? "timed out" : `${worst} ms`}`);
} finally {
  site.kill("SIGTERM");
  await new Promise((r) => site.once("exit", r));
  rmSync(dataDir, { recursive: true, force: true });
}
