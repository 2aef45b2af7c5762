// Does counting visits cost a visitor's stored page anything (decision 060)? The production
// build runs twice on PGlite, side by side: one with VISIT_COUNTS=true (the page carries the
// beacon's inline script), one with VISIT_COUNTS=false (no script, nothing counted). wrk (2
// threads, 50 connections, brotli) then drives /about on each in turn, alternating, BENCH_ROUNDS
// times (3) for BENCH_SECONDS (5) each after a warm-up, so both meet the same machine; the
// requests per second and p99 of each round are printed, with the means and the difference.
// The count itself is a separate request the browser sends after the page (POST /api/visits);
// its cost in the site (counting in memory, the flush every few seconds) is bench/overview.ts's.
//   node bench/visit-cost.mjs            (after `npm run build`)
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { waitFor } from "./wait-for.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGE = "/about";

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}


async function startSite(counting) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "museum-bench-visits-"));
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, NODE_ENV: "production", LOG_LEVEL: "warn", WARM_RENDITIONS: "false", WEB_CONCURRENCY: "1", VISIT_COUNTS: String(counting) };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--max-old-space-size=384", "build/host/index.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  return {
    url: `http://127.0.0.1:${port}${PAGE}`,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function toMs(value, unit) {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "s" ? n * 1000 : n;
}

async function wrk(url, seconds) {
  const { stdout } = await promisify(execFile)("wrk", ["-t2", "-c50", `-d${seconds}s`, "--latency", "-H", "Accept-Encoding: gzip, deflate, br", url], { encoding: "utf8" });
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)\b/.exec(stdout);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]), p99: toMs(p99[1], p99[2]), non2xx };
}

const sites = { counting: await startSite(true), off: await startSite(false) };
try {
  const bodies = {};
  for (const [name, site] of Object.entries(sites)) {
    const html = await (await fetch(site.url)).text();
    bodies[name] = html.length;
    if (name === "counting" !== html.includes("/api/visits")) throw new Error(`${name}: the beacon is ${name === "counting" ? "missing" : "there"}`);
    await wrk(site.url, 3);
  }
  console.log(`${PAGE}: ${bodies.counting} bytes with the beacon, ${bodies.off} without (${bodies.counting - bodies.off} more, before compression)`);
  const results = { counting: [], off: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of round % 2 ? ["counting", "off"] : ["off", "counting"]) {
      const r = await wrk(sites[name].url, SECONDS);
      if (r.non2xx) throw new Error(`${name}: ${r.non2xx} answers were not 2xx`);
      results[name].push(r);
      console.log(`  round ${round} ${name.padEnd(8)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${r.p99.toFixed(1)} ms`);
    }
  }
  const mean = (list, key) => list.reduce((a, r) => a + r[key], 0) / list.length;
  const [on, off] = [results.counting, results.off];
  console.log(`mean: counting ${mean(on, "rps").toFixed(0)} req/s (p99 ${mean(on, "p99").toFixed(1)} ms), off ${mean(off, "rps").toFixed(0)} req/s (p99 ${mean(off, "p99").toFixed(1)} ms): ${(((mean(on, "rps") - mean(off, "rps")) / mean(off, "rps")) * 100).toFixed(1)}%`);
  const spread = (list) => ((Math.max(...list.map((r) => r.rps)) - Math.min(...list.map((r) => r.rps))) / mean(list, "rps")) * 100;
  console.log(`spread between rounds of the same site: counting ${spread(on).toFixed(1)}%, off ${spread(off).toFixed(1)}%`);
} finally {
  await sites.counting.stop();
  await sites.off.stop();
}
