/**
 * Search in Chromium: the header's box on a phone and a desktop, suggestions chosen by
 * keyboard in an accessible combobox, the /search page without JavaScript (GET forms and links)
 * and with it (filters without a full reload), "Did you mean", and what visitors and members see.
 * Every search page visited passes axe.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { SEARCH_MESSAGES } from "../../app/shared/search";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { DESKTOP, memberViaApi, newPerson, PHONE } from "./visitor-helpers";

async function hydrated(page: Page) {
  await waitForHydration(page);
}

/** The header's search field at this screen size (on a phone, behind the Search button). */
async function headerSearch(page: Page, viewport: { width: number }) {
  if (viewport.width < 1280) {
    await page.getByTestId("site-search-toggle").locator("summary").click();
    const field = page.getByTestId("site-search-toggle").getByRole("combobox", { name: "Search the collection" });
    await expect(field).toBeFocused();
    return field;
  }
  return page.getByTestId("site-search").getByRole("combobox", { name: "Search the collection" });
}

for (const [name, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test.describe(`header search on a ${name}`, () => {
    test.use({ viewport });

    test("suggests on the very first click into the box, before the page's scripts ran", async ({ page }) => {
      for (const path of ["/", "/about"]) {
        await page.goto(path);
        // No hydration first: the first tap or click starts the scripts (decision 016), as a visitor's would.
        const phone = viewport.width < 1280;
        if (phone) await page.getByTestId("site-search-toggle").locator("summary").click();
        const field = page.getByTestId(phone ? "site-search-toggle" : "site-search").getByRole("combobox", { name: "Search the collection" });
        await field.click();
        await field.pressSequentially("clem", { delay: 40 });
        const list = page.getByRole("listbox", { name: "Suggestions" }).locator("visible=true");
        await expect(list.getByRole("option").first(), path).toContainText("Roberto Clemente");
        await expect(field).toHaveAttribute("aria-expanded", "true");
      }
    });

    test("suggests names and titles as one types; the keyboard chooses one", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const field = await headerSearch(page, viewport);
      const box = (await field.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await field.click();
      await field.pressSequentially("clem", { delay: 40 });
      const list = page.getByRole("listbox", { name: "Suggestions" }).locator("visible=true");
      await expect(list).toBeVisible();
      await expect(field).toHaveAttribute("aria-expanded", "true");
      const options = list.getByRole("option");
      await expect(options.first()).toContainText("Roberto Clemente");
      await expectNoSeriousA11yIssues(page);

      await field.press("ArrowDown");
      const firstId = await options.first().getAttribute("id");
      await expect(field).toHaveAttribute("aria-activedescendant", firstId!);
      await expect(options.first()).toHaveAttribute("aria-selected", "true");
      await field.press("ArrowDown");
      await field.press("ArrowUp");
      await expect(field).toHaveAttribute("aria-activedescendant", firstId!);
      // Escape closes the list and keeps the text; Down opens it again.
      await field.press("Escape");
      await expect(field).toHaveAttribute("aria-expanded", "false");
      await expect(list).toBeHidden();
      await expect(field).toHaveValue("clem");
      await field.press("ArrowDown");
      await expect(field).toHaveAttribute("aria-expanded", "true");
      await field.press("Enter");
      await page.waitForURL(/\/enshrinees\/roberto-clemente\//);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(/ROBERTO CLEMENTE/i);
    });

    test("Enter without a chosen suggestion searches", async ({ page }) => {
      await page.goto("/about");
      await hydrated(page);
      const field = await headerSearch(page, viewport);
      await field.fill("immaculate reception");
      await field.press("Enter");
      await page.waitForURL(/\/search\?q=immaculate\+reception/);
      await expect(page.getByTestId("search-results").getByRole("link", { name: "The Immaculate Reception" })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
  });
}

test("on a phone, the search panel opened by the first tap, before the page's scripts ran, stays open once they have", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/about");
  // The tap is the page's first intent: it opens the panel natively and starts the hydration.
  const toggle = page.getByTestId("site-search-toggle");
  await toggle.locator("summary").click();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // Past the effects of the hydration (the panel closed on the next frame before the fix).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 200))));
  await expect(toggle).toHaveJSProperty("open", true);
  const field = toggle.getByRole("combobox", { name: "Search the collection" });
  await field.click();
  await field.pressSequentially("clem", { delay: 40 });
  await expect(page.getByRole("listbox", { name: "Suggestions" }).locator("visible=true").getByRole("option").first()).toContainText("Roberto Clemente");
  // It still closes on navigation: the suggestion chosen by keyboard.
  await field.press("ArrowDown");
  await field.press("Enter");
  await page.waitForURL(/\/enshrinees\/roberto-clemente\//);
  await expect(toggle).toHaveJSProperty("open", false);
});

test.describe("the search page without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: DESKTOP });

  test("the header's form, the filters and the pages are plain GET links and forms", async ({ page }) => {
    await page.goto("/");
    const field = page.getByTestId("site-search").getByRole("combobox", { name: "Search the collection" });
    await field.fill("pittsburgh");
    await field.press("Enter");
    await page.waitForURL(/\/search\?q=pittsburgh$/);
    const heading = page.getByTestId("results-heading");
    await expect(heading).toContainText(/\d+ results/);
    const total = Number(/(\d+) results/.exec((await heading.textContent())!)![1]);

    const filters = page.getByTestId("search-filters");
    const team = filters.getByRole("region", { name: "Team" }).getByRole("link").first();
    const count = Number(await team.locator("span").last().textContent());
    await team.click();
    await expect(page).toHaveURL(/[?&]team=[0-9a-f-]{36}/);
    await expect(heading).toHaveText(new RegExp(`^${count} results?`));
    expect(count).toBeLessThan(total);
    await expect(filters.getByRole("link", { name: /Clear all filters/ })).toBeVisible();

    // The page's own form keeps the filter.
    const form = page.getByRole("search", { name: "Search the collection" });
    await form.getByRole("searchbox").fill("steelers");
    await form.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=steelers.*team=|team=.*q=steelers/);
  });

  test("opens the phone's search panel with no script at all", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/");
    await page.getByTestId("site-search-toggle").locator("summary").click();
    const field = page.getByTestId("site-search-toggle").getByRole("combobox", { name: "Search the collection" });
    await field.fill("lemieux");
    await field.press("Enter");
    await page.waitForURL(/\/search\?q=lemieux/);
    await expect(page.getByTestId("search-results").getByRole("link", { name: "Mario Lemieux", exact: true })).toBeVisible();
  });
});

test.describe("the search page with JavaScript", () => {
  test.use({ viewport: DESKTOP });

  test("filters, sorting and pages load without a full reload", async ({ page }) => {
    await page.goto("/search?q=pittsburgh");
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const heading = page.getByTestId("results-heading");
    const decade = page.getByTestId("search-filters").getByRole("region", { name: "Decade" }).getByRole("link").first();
    const count = Number(await decade.locator("span").last().textContent());
    await decade.click();
    await expect(page).toHaveURL(/decade=\d{4}/);
    await expect(heading).toHaveText(new RegExp(`^${count} results?`));
    await expect(page.getByTestId("search-filters").getByRole("region", { name: "Decade" }).locator('[aria-current="true"]')).toHaveCount(1);
    await page.getByRole("navigation", { name: "Sort results" }).getByRole("link", { name: "Newest first" }).click();
    await expect(page).toHaveURL(/sort=year-desc/);
    const metas = await page.getByTestId("search-result").locator("p").allTextContents();
    const years = metas.map((m) => Number(/(\d{4})$/.exec(m)![1]));
    expect(years).toEqual([...years].sort((a, b) => b - a));
    await page.getByTestId("search-filters").getByRole("link", { name: "Clear all filters" }).click();
    await expect(page).not.toHaveURL(/decade=/);
    await page.getByRole("navigation", { name: "Result pages" }).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/page=2/);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await expectNoSeriousA11yIssues(page);
  });

  test("offers the right spelling and an answer for odd searches", async ({ page }) => {
    await page.goto("/search?q=clemnte");
    await hydrated(page);
    await expect(page.getByTestId("search-status")).toContainText(SEARCH_MESSAGES.similar("clemnte", "clemente"));
    await page.getByTestId("did-you-mean").click();
    await expect(page).toHaveURL(/q=clemente$/);
    await expect(page.getByTestId("search-results").getByRole("link", { name: "Roberto Clemente", exact: true })).toBeVisible();
    await page.goto("/search?q=%21%21%21");
    await expect(page.getByTestId("search-status")).toContainText(SEARCH_MESSAGES.noWords("!!!"));
    const long = await page.goto(`/search?q=${"x".repeat(201)}`);
    expect(long?.status()).toBe(400);
    await expect(page.getByTestId("search-status")).toContainText(SEARCH_MESSAGES.tooLong);
    await expectNoSeriousA11yIssues(page);
  });
});

test.describe("visitors and members", () => {
  test.use({ viewport: DESKTOP });

  test("a visitor finds titles and names only; a member finds texts, with the passage highlighted", async ({ page }) => {
    // "Márquez" is only in a member-only exhibit text of the demo collection.
    await page.goto("/search?q=marquez");
    await hydrated(page);
    await expect(page.getByTestId("search-status")).toContainText(SEARCH_MESSAGES.noResults("marquez"));
    await page.goto("/search?q=clemente");
    await expect(page.getByText(SEARCH_MESSAGES.membersSearchTexts)).toBeVisible();
    await expect(page.getByTestId("search-snippet")).toHaveCount(0);

    await memberViaApi(page, newPerson("Sami"));
    await page.goto("/search?q=marquez");
    await hydrated(page);
    const result = page.getByTestId("search-result").first();
    await expect(result.getByRole("link")).toHaveText("The Last Negro World Series, 1948");
    await expect(result.getByTestId("search-snippet").locator("mark")).toHaveText("Márquez");
    await expect(page.getByText(SEARCH_MESSAGES.membersSearchTexts)).toHaveCount(0);
    await expectNoSeriousA11yIssues(page);
  });
});
