/**
 * Visit counts and the Overview's charts (decision 060) in Chromium: a visitor's pages count
 * themselves with one cookie-free request each (page loads and client-side navigations alike),
 * set no cookie and load no chart code; the console's Overview then shows the views, its charts
 * (drawn by uPlot, loaded by the console only) with their tables, switches period by a link, and
 * fits a 390 px phone and a desktop without sideways scrolling.
 */
import { type Page, type Request } from "@playwright/test";
import { expect, test } from "./test";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";

// Headless Chromium says "HeadlessChrome", which the site counts as a robot: a visitor's ordinary browser.
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

test.describe.configure({ mode: "serial" });

const isChartCode = (url: string) => /uPlot/i.test(url);

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("a visitor's pages count themselves once each, with no cookie, and load no chart code", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ userAgent: CHROME, viewport: PHONE });
  const page = await context.newPage();
  const beacons: Request[] = [];
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/visits") beacons.push(r);
    if (r.resourceType() === "script" || r.resourceType() === "stylesheet") scripts.push(r.url());
  });
  await page.goto("/about");
  await expect.poll(() => beacons.length).toBe(1);
  // Hydrating the page (scripts on intent) counts nothing more.
  await waitForHydration(page);
  await page.goto("/search?q=zzqx+nothing+here");
  await expect(page.getByTestId("results-heading")).toHaveText("No results");
  await expect.poll(() => beacons.length).toBe(2);
  await page.goto("/");
  await waitForHydration(page);
  await expect.poll(() => beacons.length).toBe(3);
  // A client-side navigation counts its page too.
  await page.getByRole("link", { name: "About" }).first().click();
  await page.waitForURL((url) => url.pathname === "/about");
  await expect.poll(() => beacons.length).toBe(4);
  await page.waitForTimeout(500);
  expect(beacons).toHaveLength(4);
  const sent = beacons.map((b) => ({ method: b.method(), cookie: b.headers().cookie, body: JSON.parse(b.postData() ?? "{}") as { path: string; results?: number } }));
  expect(sent.map((s) => s.method)).toEqual(["POST", "POST", "POST", "POST"]);
  expect(sent.map((s) => s.cookie)).toEqual([undefined, undefined, undefined, undefined]);
  expect(sent.map((s) => s.body.path)).toEqual(["/about", "/search", "/", "/about"]);
  // The page names no result count: the server searches again to tell found from not found.
  expect(sent[1].body.results).toBeUndefined();
  for (const b of beacons) expect((await b.response())?.status()).toBe(204);
  expect(await context.cookies()).toEqual([]);
  expect(scripts.filter(isChartCode)).toEqual([]);
  // No public route's modules name the chart code (React Router's manifest of the build).
  const publicModules = await page.evaluate(() => {
    const routes = (window as unknown as { __reactRouterManifest: { routes: Record<string, { module: string; imports?: string[] }> } }).__reactRouterManifest.routes;
    return Object.entries(routes)
      .filter(([id]) => !id.startsWith("routes/admin/"))
      .flatMap(([, r]) => [r.module, ...(r.imports ?? [])]);
  });
  expect(publicModules.length).toBeGreaterThan(10);
  expect(publicModules.filter(isChartCode)).toEqual([]);
  await context.close();
});

for (const [name, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`${name}: the Overview shows the views, its charts and their tables, and switches period by a link`, async ({ browser }) => {
    test.setTimeout(120_000);
    // Earlier specs' searches that found nothing share the list of the 20 most asked: this one is asked more.
    const beacon = await browser.newContext({ userAgent: CHROME });
    for (let i = 0; i < 10; i++) {
      const sent = await beacon.request.post("/api/visits", { headers: { "content-type": "text/plain" }, data: JSON.stringify({ path: "/search", search: "?q=zzqx+nothing+here" }) });
      expect(sent.status()).toBe(204);
    }
    await beacon.close();
    const page = await signedInAdmin(browser, viewport);
    const chartCode: string[] = [];
    page.on("request", (r) => {
      if (isChartCode(r.url())) chartCode.push(r.url());
    });
    // The counts reach the database within VISIT_FLUSH_SECONDS (5 s): earlier specs' views may be
    // there before the beacon's searches, so the page is opened again until both are.
    await expect
      .poll(
        async () => {
          await page.goto("/admin?period=7");
          const views = Number((await page.getByTestId("figure-views").textContent())?.replace(/,/g, ""));
          return { views: views >= 4, search: (await page.getByText("zzqx nothing here").count()) > 0 };
        },
        { timeout: 30_000, intervals: [1000, 2000, 3000] },
      )
      .toEqual({ views: true, search: true });
    await waitForHydration(page);
    await expect(page.getByTestId("overview-period")).toContainText(/From \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    await expect(page.locator('[data-chart="chart-views"] canvas')).toHaveCount(1);
    await expect(page.locator('[data-chart="chart-sales"] canvas')).toHaveCount(1);
    expect(chartCode.length).toBeGreaterThan(0);
    await expect(page.getByText("zzqx nothing here")).toBeVisible();
    // The table is there for screen readers, and shown on demand.
    const views = page.getByTestId("chart-views");
    const table = page.getByTestId("chart-views-table");
    await expect(table.getByRole("row")).toHaveCount(8);
    await views.getByRole("button", { name: "Show the figures" }).click();
    await expect(table.getByRole("columnheader", { name: "Page views" })).toBeVisible();
    await expect(views.getByRole("button", { name: "Hide the figures" })).toHaveAttribute("aria-expanded", "true");
    await noSidewaysScroll(page);
    await expectNoSeriousA11yIssues(page);
    // Another period, by its link: the address says it, the table follows.
    await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "30 days" }).click();
    await page.waitForURL((url) => url.search === "?period=30");
    await expect(page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "30 days" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("chart-views-table").getByRole("row")).toHaveCount(31);
    await expect(page.locator('[data-chart="chart-views"] canvas')).toHaveCount(1);
    await noSidewaysScroll(page);
    const csv = await page.request.get("/admin/overview/export?period=30");
    expect(csv.headers()["content-type"]).toContain("text/csv");
    expect(await csv.text()).toContain("search with no results,,zzqx nothing here,");
    await page.context().close();
  });
}
