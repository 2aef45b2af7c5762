/**
 * First paint (decision 016): Lighthouse, from the npm package, in Debian's Chromium,
 * on the pages of the issue, mobile (Lighthouse's default throttling) and desktop. Starts the
 * production build as `npm start` does (PGlite, fresh DATA_DIR), runs each page
 * LIGHTHOUSE_RUNS times (3) and prints the median beside the previous run
 * (`bench/lighthouse-last-run.json`, rewritten unless BENCH_KEEP_LAST=1) and the aim.
 *
 * Variables: CHROME_PATH (/usr/bin/chromium), LIGHTHOUSE_PORT (4410), LIGHTHOUSE_RUNS (3), LIGHTHOUSE_FORM_FACTORS
 * (`mobile,desktop`), LIGHTHOUSE_PAGES (comma list of page names, all by default),
 * LIGHTHOUSE_REPORT_DIR (keep each run's full JSON report there, to see what an audit found),
 * LIGHTHOUSE_FIRST_VISIT=1 (a first visitor: no image renditions asked for ahead, the
 * browser warmed up on /robots.txt, then each page measured once, seconds after the site became
 * ready; its own warmer, decision 009, is what makes the renditions; the previous run's file is
 * left alone).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..");
const lastRunFile = path.join(here, "lighthouse-last-run.json");
// LIGHTHOUSE_PORT: where the copy of the site listens (4410), so runs in several worktrees can share a machine.
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 4410);
const base = `http://127.0.0.1:${PORT}`;
const FIRST_VISIT = process.env.LIGHTHOUSE_FIRST_VISIT === "1";
const RUNS = FIRST_VISIT ? 1 : Number(process.env.LIGHTHOUSE_RUNS ?? 3);
if (FIRST_VISIT) process.env.BENCH_KEEP_LAST = "1";
const FORM_FACTORS = (process.env.LIGHTHOUSE_FORM_FACTORS ?? "mobile,desktop").split(",");
const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** The aim per page (docs/benchmarks.md). */
const AIM = { performance: 99, fcpMs: 1000, lcpMs: 1200, cls: 0, accessibility: 100, bestPractices: 100, seo: 100, firstLoadJsKb: 100 };

if (!existsSync(CHROME_PATH)) {
  console.error(`Lighthouse needs Chromium at ${CHROME_PATH} (apt-get install -y chromium, or set CHROME_PATH)`);
  process.exit(1);
}

async function waitUp(site) {
  for (let i = 0; i < 240; i++) {
    if (site.exitCode !== null) throw new Error("the site exited during start-up");
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("site did not start");
}

/** The issue's pages: the fixed ones, a team page and a favorite-story exhibit from the collection. */
async function pages() {
  const teams = await (await fetch(`${base}/api/teams/`)).json();
  const stories = await (await fetch(`${base}/api/exhibits/?favoriteStory=true`)).json();
  const list = [
    ["home", "/"],
    ["about", "/about"],
    ["enshrinees", "/enshrinees"],
    ["admission", "/admission"],
    ["login", "/login"],
    ["contact", "/contact"],
    ["team", `/teams/${teams[0]._id}`],
    ["favorite story", `/favoritestories/exhibit/${stories[0]._id}`],
  ];
  const wanted = process.env.LIGHTHOUSE_PAGES?.split(",");
  return wanted ? list.filter(([name]) => wanted.includes(name)) : list;
}

/**
 * Asks once for every image rendition a page names (src, srcset, preloads), as Chromium would,
 * so the runs measure a site whose renditions are made (decision 009), not sharp's first render.
 */
async function warmUp(pagePath) {
  const html = await (await fetch(`${base}${pagePath}`)).text();
  const urls = new Set();
  for (const m of html.matchAll(/(?:src|srcSet|srcset|imageSrcSet|imagesrcset)="([^"]+)"/g)) {
    for (const candidate of m[1].replaceAll("&amp;", "&").split(",")) {
      const url = candidate.trim().split(" ")[0];
      if (url.startsWith("/images/view/")) urls.add(url);
    }
  }
  for (const url of urls) await (await fetch(`${base}${url}`, { headers: { Accept: "image/avif,image/webp,image/apng,image/*,*/*;q=0.8" } })).arrayBuffer();
}

/** Compressed bytes (as sent) of every script the page loaded during the Lighthouse run. */
function firstLoadJsKb(lhr) {
  const items = lhr.audits["network-requests"]?.details?.items ?? [];
  const bytes = items.filter((i) => i.resourceType === "Script").reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  return Math.round(bytes / 102.4) / 10;
}

function figures(lhr) {
  const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const crawlable = lhr.audits["is-crawlable"]?.score === 0;
  return {
    performance: score("performance"),
    fcpMs: Math.round(lhr.audits["first-contentful-paint"].numericValue),
    lcpMs: Math.round(lhr.audits["largest-contentful-paint"].numericValue),
    cls: Math.round(lhr.audits["cumulative-layout-shift"].numericValue * 1000) / 1000,
    tbtMs: Math.round(lhr.audits["total-blocking-time"].numericValue),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    // A page marked noindex on purpose (login) is excused from the crawlable audit only.
    noindex: crawlable,
    seoOtherwise: crawlable ? seoWithoutCrawlable(lhr) : score("seo"),
    firstLoadJsKb: firstLoadJsKb(lhr),
  };
}

function seoWithoutCrawlable(lhr) {
  const refs = lhr.categories.seo.auditRefs.filter((r) => r.weight > 0 && r.id !== "is-crawlable");
  const total = refs.reduce((s, r) => s + r.weight, 0);
  const got = refs.reduce((s, r) => s + r.weight * (lhr.audits[r.id].score ?? 1), 0);
  return Math.round((got / total) * 100);
}

/**
 * What the page ends up running: Chromium (through Playwright) loads the page, then a key press
 * (a person's intent: the measured pages load their scripts on intent, decision 016) and waits
 * for hydration and a quiet network. Compressed bytes of every script, as sent. Deferral is not
 * removal: this is the JavaScript a visitor who touches the page downloads.
 */
async function jsAfterInteractionKb(browser, pagePath, viewport) {
  const page = await browser.newPage({ viewport });
  let bytes = 0;
  const pending = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() === "script") pending.push(request.sizes().then((s) => (bytes += s.responseBodySize + s.responseHeadersSize)));
  });
  await page.goto(`${base}${pagePath}`, { waitUntil: "load" });
  await page.keyboard.press("Shift");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);
  await page.close();
  return Math.round(bytes / 102.4) / 10;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function medianFigures(runs) {
  const out = {};
  for (const key of Object.keys(runs[0])) out[key] = typeof runs[0][key] === "number" ? median(runs.map((r) => r[key])) : runs[0][key];
  return out;
}

function meetsAim(f) {
  return (
    f.performance >= AIM.performance &&
    f.fcpMs < AIM.fcpMs &&
    f.lcpMs < AIM.lcpMs &&
    f.cls === AIM.cls &&
    f.accessibility === AIM.accessibility &&
    f.bestPractices === AIM.bestPractices &&
    f.seoOtherwise === AIM.seo &&
    f.firstLoadJsKb < AIM.firstLoadJsKb
  );
}

function line(name, f, prev) {
  const was = (key, unit = "") => (prev && prev[key] !== undefined ? ` (${prev[key]}${unit})` : "");
  return (
    `  ${name.padEnd(15)} perf ${f.performance}${was("performance")}  FCP ${f.fcpMs} ms${was("fcpMs")}  LCP ${f.lcpMs} ms${was("lcpMs")}  ` +
    `CLS ${f.cls}${was("cls")}  TBT ${f.tbtMs} ms  a11y ${f.accessibility}  BP ${f.bestPractices}  ` +
    `SEO ${f.seo}${f.noindex ? ` (noindex; ${f.seoOtherwise} without crawlable)` : ""}  JS ${f.firstLoadJsKb} KB sent during load${was("firstLoadJsKb", " KB")}, ` +
    `${f.jsAfterInteractionKb} KB once interacted with${was("jsAfterInteractionKb", " KB")}  ` +
    (meetsAim(f) ? "aim met" : "AIM NOT MET")
  );
}

const loadAtStart = loadavg().map((l) => Math.round(l * 100) / 100);
const dir = mkdtempSync(path.join(tmpdir(), "museum-lighthouse-"));
// A copy of the build and migrations, so a rebuild of build/ during the run (the tree is shared)
// cannot swap the assets under the running site. Under node_modules, so the copy still finds
// the packages; the host reads its migrations from ../../drizzle.
mkdirSync(path.join(root, "node_modules/.cache"), { recursive: true });
const copyDir = mkdtempSync(path.join(root, "node_modules/.cache/museum-lighthouse-"));
cpSync(path.join(root, "build"), path.join(copyDir, "build"), { recursive: true });
cpSync(path.join(root, "drizzle"), path.join(copyDir, "drizzle"), { recursive: true });
const site = spawn(process.execPath, [path.join(copyDir, "build/host/index.js")], {
  cwd: root,
  env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: path.join(dir, "data"), NODE_ENV: "production", LOG_LEVEL: "warn", RATE_LIMIT_RELAXED: "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
let chrome;
let browser;
try {
  await waitUp(site);
  const list = await pages();
  if (!FIRST_VISIT) for (const [, pagePath] of list) await warmUp(pagePath);
  const readyAt = Date.now();
  const previous = existsSync(lastRunFile) ? JSON.parse(readFileSync(lastRunFile, "utf8")) : null;
  // A run of some pages (LIGHTHOUSE_PAGES) keeps the previous run's figures for the others.
  const result = { date: new Date().toISOString(), lighthouse: JSON.parse(readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")).version, runs: RUNS, pages: structuredClone(previous?.pages ?? {}) };
  chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  console.log(`\nLighthouse ${result.lighthouse} in ${CHROME_PATH}, median of ${RUNS} runs per page (previous run in brackets)`);
  console.log(`Aim: performance >= ${AIM.performance}, FCP < ${AIM.fcpMs} ms, LCP < ${AIM.lcpMs} ms, CLS 0, accessibility, best practices and SEO 100, JavaScript < ${AIM.firstLoadJsKb} KB compressed`);
  if (FIRST_VISIT) {
    // The browser's own start-up (profile, GPU process, code caches) is not the site's: one run
    // on a page that names no image and no stylesheet.
    await lighthouse(`${base}/robots.txt`, { port: chrome.port, output: "json", logLevel: "error" }).catch(() => undefined);
    console.log(`First visit: the first page measured ${((Date.now() - readyAt) / 1000).toFixed(1)} s after the site answered`);
  }
  let allMet = true;
  for (const formFactor of FORM_FACTORS) {
    console.log(`\n${formFactor}${formFactor === "mobile" ? " (default throttling: slow 4G, 4x CPU)" : " (desktop preset)"}`);
    result.pages[formFactor] ??= {};
    for (const [name, pagePath] of list) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const config = formFactor === "desktop" ? desktopConfig : undefined;
        let lhr;
        // Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is repeated, twice at most.
        for (let attempt = 1; ; attempt++) {
          ({ lhr } = await lighthouse(`${base}${pagePath}`, { port: chrome.port, output: "json", logLevel: "error" }, config));
          if (!lhr.runtimeError) break;
          if (attempt === 3) throw new Error(`${name}: ${lhr.runtimeError.message}`);
        }
        const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
        if (reportDir) writeFileSync(path.join(reportDir, `${formFactor}-${name.replace(/\W+/g, "-")}-${i + 1}.json`), JSON.stringify(lhr));
        runs.push(figures(lhr));
      }
      const f = { path: pagePath, ...medianFigures(runs), jsAfterInteractionKb: await jsAfterInteractionKb(browser, pagePath, formFactor === "desktop" ? { width: 1350, height: 940 } : { width: 412, height: 823 }) };
      result.pages[formFactor][name] = f;
      allMet &&= meetsAim(f);
      console.log(line(name, f, previous?.pages?.[formFactor]?.[name]));
      // Written after every page, so a run stopped half-way keeps what it measured.
      if (!process.env.BENCH_KEEP_LAST) writeFileSync(lastRunFile, `${JSON.stringify(result, null, 2)}\n`);
    }
  }
  result.loadAverage = { start: loadAtStart, end: loadavg().map((l) => Math.round(l * 100) / 100) };
  console.log(`\nLoad average (1, 5, 15 min): ${loadAtStart.join(", ")} at the start, ${result.loadAverage.end.join(", ")} at the end (${cpus().length} cores)`);
  console.log(allMet ? "\nEvery page meets the aim." : "\nSome pages miss the aim (marked above).");
  if (!process.env.BENCH_KEEP_LAST) writeFileSync(lastRunFile, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await chrome?.kill();
  await browser?.close();
  site.kill("SIGTERM");
  await new Promise((r) => site.once("exit", r));
  rmSync(dir, { recursive: true, force: true });
  rmSync(copyDir, { recursive: true, force: true });
}
