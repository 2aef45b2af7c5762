// Where Lighthouse's simulated FCP and LCP come from, for one page of a running site: runs
// Lighthouse mobile once (after one run on /robots.txt, which warms the browser up) and prints
// each simulation's nodes (network requests and main-thread tasks) with their simulated start
// and end, as Lantern computed them. Lighthouse's LCP is the mean of the optimistic and the
// pessimistic LCP simulations; a request or task that ends last in either is what to shorten
// (decision 016, addendum 6).
//
//   node bench/lighthouse-simulation.mjs http://127.0.0.1:3000/
//
// CHROME_PATH (default /usr/bin/chromium) as in bench/lighthouse.mjs.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import * as Lantern from "lighthouse/core/lib/lantern/lantern.js";

const url = process.argv[2];
if (!url) {
  console.error("Usage: node bench/lighthouse-simulation.mjs <page URL of a running site>");
  process.exit(2);
}
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
try {
  await lighthouse(new URL("/robots.txt", url).href, { port: chrome.port, output: "json", logLevel: "error" });
  Lantern.Simulation.Simulator.allNodeTimings.clear();
  const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" });
  const audit = (id) => Math.round(lhr.audits[id].numericValue);
  console.log(`${url}: performance ${Math.round(lhr.categories.performance.score * 100)}, FCP ${audit("first-contentful-paint")} ms, LCP ${audit("largest-contentful-paint")} ms`);
  for (const [label, timings] of Lantern.Simulation.Simulator.allNodeTimings) {
    if (!/ContentfulPaint/.test(label)) continue;
    const rows = [...timings.entries()]
      .map(([node, t]) => ({
        start: t.startTime,
        end: t.endTime,
        what:
          node.type === "network"
            ? `${node.request.url.startsWith("data:") ? "data: URL" : node.request.url} (${node.request.priority}, ${node.request.transferSize} bytes)`
            : `main-thread task of ${(node.duration / 1000).toFixed(1)} ms observed`,
      }))
      .sort((a, b) => a.start - b.start);
    console.log(`\n${label}: ends at ${Math.round(Math.max(...rows.map((r) => r.end)))} ms`);
    for (const r of rows) console.log(`  ${String(Math.round(r.start)).padStart(5)} -> ${String(Math.round(r.end)).padStart(5)} ms  ${r.what}`);
  }
} finally {
  await chrome.kill();
}
