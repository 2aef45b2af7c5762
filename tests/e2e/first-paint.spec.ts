/**
 * First paint (issue 10, decision 016), on a phone and a desktop, on the pages Lighthouse
 * measures (bench/lighthouse.mjs): the stylesheet is inline (no render-blocking request), the
 * home banner's first slide is preloaded in a size from its `srcset` and the hidden set fetches
 * nothing, the account forms load no large schema chunk, nothing shifts while the page loads,
 * client-side navigation and the page cache keep the styles, and axe stays clean.
 */
import { gzipSync } from "node:zlib";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectNoSeriousA11yIssues } from "./helpers";
import { favoriteStories, getJson, SCREENS } from "./visitor-helpers";

/** Gzipped bytes of every script and modulepreload of a page's HTML, per file. */
async function firstLoadScripts(request: APIRequestContext, html: string): Promise<Map<string, number>> {
  const files = [...new Set([...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]))];
  const sizes = new Map<string, number>();
  for (const file of files) {
    const body = await (await request.get(file)).body();
    sizes.set(file, gzipSync(body, { level: 9 }).length);
  }
  return sizes;
}

const total = (sizes: Map<string, number>) => [...sizes.values()].reduce((a, b) => a + b, 0);
/** The framework every page loads (React DOM, React Router): the same files on every page. */
const isFramework = (file: string) => /\/assets\/(entry\.client|chunk-[A-Z0-9]+)-[^/]+\.js$/.test(file);

async function pagesToMeasure(request: APIRequestContext): Promise<[string, string][]> {
  const teams = await getJson<{ _id: string }[]>(request, "/api/teams/");
  const [story] = await favoriteStories(request);
  return [
    ["home", "/"],
    ["about", "/about"],
    ["enshrinees", "/enshrinees"],
    ["admission", "/admission"],
    ["login", "/login"],
    ["contact", "/contact"],
    ["team", `/teams/${teams[0]._id}`],
    ["favorite story", `/favoritestories/exhibit/${story._id}`],
  ];
}

/** Sum of the layout shifts since the page started loading (what CLS adds up), after it settles. */
async function layoutShift(page: Page): Promise<number> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.waitForTimeout(500);
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) sum += e.value;
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(sum), 100);
      }),
  );
}

for (const { name: screen, viewport } of SCREENS) {
  test.describe(`first paint on a ${screen}`, () => {
    test.use({ viewport });

    test("every page carries its stylesheet inline, loads no stylesheet, does not shift, and passes axe", async ({ page, request }) => {
      const stylesheetRequests: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "stylesheet") stylesheetRequests.push(r.url());
      });
      for (const [name, path] of await pagesToMeasure(request)) {
        const response = await page.goto(path);
        expect(response?.status(), name).toBe(200);
        const html = await response!.text();
        const head = html.slice(0, html.indexOf("</head>"));
        expect(head, `${name}: no stylesheet link in the head`).not.toMatch(/<link[^>]+rel="stylesheet"/);
        const inline = head.match(/<style id="site-css">([\s\S]*?)<\/style>/);
        expect(inline?.[1].length ?? 0, `${name}: the stylesheet is inline`).toBeGreaterThan(10_000);
        // Styled from the first byte: the body has the site's background, not the browser's white.
        await expect(page.locator("body"), name).toHaveCSS("background-color", "oklch(0.985 0.001 106.423)");
        expect(await layoutShift(page), `${name}: layout shift`).toBeLessThan(0.001);
        await expectNoSeriousA11yIssues(page);
      }
      expect(stylesheetRequests).toEqual([]);
    });

    test("the home banner's first slide is preloaded from a srcset, in the size of the screen, and the hidden set loads nothing", async ({ page }) => {
      const bannerRequests: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/images/view/banners/")) bannerRequests.push(new URL(r.url()).pathname);
      });
      const response = await page.goto("/");
      const html = await response!.text();
      const head = html.slice(0, html.indexOf("</head>"));
      const preloads = [...head.matchAll(/<link rel="preload"[^>]*as="image"[^>]*>/g)].map((m) => m[0]).filter((l) => l.includes("/banners/"));
      expect(preloads).toHaveLength(2);
      for (const link of preloads) {
        expect(link).toMatch(/imageSrcSet="[^"]+\?height=\d+ \d+w, /i);
        expect(link).toMatch(/imageSizes="[^"]+"/i);
        expect(link).toMatch(/media="\((?:min|max)-width: [\d.]+px\)"/);
        expect(link).toMatch(/fetchPriority="high"/i);
      }
      // Slides 2-5 get their address only once the carousel runs: the page load fetches one banner image.
      const slideImages = [...html.matchAll(/<div[^>]*aria-roledescription="slide"[^>]*>(<picture>[\s\S]*?<\/picture>|<img[^>]*>)/g)].map((m) => m[1]);
      expect(slideImages.length).toBeGreaterThan(2);
      expect(slideImages.filter((img) => img.startsWith("<img") && / src="/.test(img))).toEqual([]);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      const visible = page.getByRole("region", { name: screen === "phone" ? "Featured" : "Featured (desktop)", exact: true });
      const hidden = page.getByRole("region", { name: screen === "phone" ? "Featured (desktop)" : "Featured", exact: true, includeHidden: true });
      const first = visible.locator("img").first();
      await expect(first).toBeVisible();
      await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 1)).toBe(true);
      const { currentSrc, renderedWidth } = await first.evaluate((img: HTMLImageElement) => ({ currentSrc: img.currentSrc, renderedWidth: img.getBoundingClientRect().width * devicePixelRatio }));
      const chosen = new URL(currentSrc);
      expect(chosen.searchParams.get("height")).toMatch(/^\d+$/);
      // The rendition chosen is at least as wide as the slide is drawn, and not the next size up.
      const srcset = await visible.locator("source").first().getAttribute("srcset");
      const widths = srcset!.split(", ").map((c) => ({ url: c.split(" ")[0], w: Number(c.split(" ")[1].slice(0, -1)) }));
      const fit = widths.find((c) => c.w >= renderedWidth) ?? widths[widths.length - 1];
      expect(chosen.pathname + chosen.search).toBe(fit.url);
      const hiddenFile = new URL((await hidden.locator("source").first().getAttribute("srcset"))!.split(" ")[0], "http://x").pathname;
      expect(bannerRequests).not.toContain(hiddenFile);
      expect(bannerRequests.filter((p) => p === chosen.pathname)).toHaveLength(1);
    });

    test("client-side navigation and the page cache keep the inline stylesheet", async ({ page, request }) => {
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      await page.goto("/");
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      if (screen === "phone") await page.getByRole("navigation", { name: "Bottom menu" }).getByRole("link", { name: /About/ }).click();
      else await page.getByRole("navigation", { name: "Main", exact: true }).getByRole("link", { name: "About", exact: true }).click();
      await expect(page).toHaveURL(/\/about$/);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await expect(page.locator("style#site-css")).toHaveCount(1);
      await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
      await expect(page.locator("body")).toHaveCSS("background-color", "oklch(0.985 0.001 106.423)");
      // A stored page (X-Cache: HIT) carries the stylesheet too, and its scripts still run under the CSP.
      await expect.poll(async () => (await request.get("/about")).headers()["x-cache"]).toBe("HIT");
      const cached = await request.get("/about");
      expect(await cached.text()).toContain('<style id="site-css">');
      await page.goto("/about");
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await expect(page.locator("body")).toHaveCSS("background-color", "oklch(0.985 0.001 106.423)");
      expect(errors).toEqual([]);
    });
  });
}

test("first-load JavaScript: the account forms load no large schema chunk, and only the page's own code is preloaded", async ({ page, request }) => {
  const homeHtml = await (await request.get("/")).text();
  // The page paints without its scripts: they load after its own bytes (low priority).
  const preloads = [...homeHtml.matchAll(/<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
  expect(preloads.length).toBeGreaterThan(3);
  for (const link of preloads) expect(link).toContain('fetchPriority="low"');
  const home = await firstLoadScripts(request, homeHtml);
  const framework = total(new Map([...home].filter(([f]) => isFramework(f))));
  // React DOM and React Router, the floor of every page (about 111 KB gzipped with React 19).
  expect(framework).toBeLessThan(115 * 1024);
  // The home page's own code, beyond the framework (the carousel loads after hydration).
  expect(total(home) - framework).toBeLessThan(16 * 1024);
  for (const path of ["/login", "/admission", "/contact", "/subscribe", "/password/request"]) {
    const html = await (await request.get(path)).text();
    const scripts = await firstLoadScripts(request, html);
    const own = [...scripts].filter(([f]) => !isFramework(f));
    // Zod classic was one 26 KB (gzipped) chunk on these pages; zod/mini's checks are about 8 KB.
    for (const [file, size] of own) expect(size, `${path}: ${file}`).toBeLessThan(10 * 1024);
    expect(total(new Map(own)), path).toBeLessThan(25 * 1024);
    // No other route's module is preloaded.
    expect(own.map(([f]) => f).filter((f) => /\/assets\/(home|about|team|exhibit|enshrinees?|admission|login|contact|subscribe|search)-[A-Za-z0-9_-]{8}\.js$/.test(f)).length, path).toBeLessThanOrEqual(1);
  }
  await page.goto("/login");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
});
