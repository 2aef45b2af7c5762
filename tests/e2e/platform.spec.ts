/** The platform pages in a real browser: texts, links, timers (Playwright clock), a11y, mobile. */
import { expect, test } from "./test";
import { MESSAGES } from "../../app/shared/messages";
import { TIMING } from "../../app/lib/timing";
import { expectNoSeriousA11yIssues, freezeClock, msSincePageShown } from "./helpers";

test.describe("shared layout", () => {
  test("shows the visitor navigation, bottom menu and footer", async ({ page }) => {
    await page.goto("/about");
    const main = page.getByRole("navigation", { name: "Main", exact: true });
    for (const name of ["About", "Admission", "Contact", "Login"]) {
      await expect(main.getByRole("link", { name, exact: true })).toBeVisible();
    }
    const shop = main.getByRole("link", { name: /Shop/ });
    await expect(shop).toHaveAttribute("target", "_blank");
    await expect(shop).toHaveAttribute("rel", /noopener/);
    const bottom = page.getByRole("navigation", { name: "Bottom menu" });
    // By accessible name: the menu also holds its mobile wording, hidden on a desktop.
    const bottomLinks = bottom.getByRole("link");
    await expect(bottomLinks).toHaveCount(6);
    for (const [i, name] of (["Home", /Shop/, "About", "Admission", "Contact", "Login"] as const).entries()) {
      await expect(bottomLinks.nth(i)).toHaveAccessibleName(name);
    }
    const footer = page.locator("footer");
    await expect(footer.getByRole("link", { name: "Terms and Conditions" })).toHaveAttribute("href", "/termsandconditions");
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacypolicy");
    await expect(footer).toContainText("2021-2024");
    await expect(footer.getByTestId("trademark-disclaimer")).toContainText("trademarks of their respective owners");
  });

  test("uses the mobile wording on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main", exact: true })).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    const mobile = page.getByRole("navigation", { name: "Main (mobile)" });
    await expect(mobile.getByRole("link", { name: "Buy Your Ticket" })).toBeVisible();
    await expect(mobile.getByRole("link", { name: "About the Museum" })).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });
});

test.describe("static pages", () => {
  test("About has its four anchored sections, Back to Top links and links onward", async ({ page }) => {
    await page.goto("/about");
    for (const [id, heading] of [
      ["introduction", "Introduction"],
      ["exhibits", "Exhibits"],
      ["eligibility-categories", "Eligibility-Categories"],
      ["backstory", "Backstory"],
    ]) {
      await expect(page.locator(`h2#${id}`)).toHaveText(heading);
    }
    expect(await page.getByRole("link", { name: "Back to Top" }).count()).toBeGreaterThanOrEqual(4);
    await expect(page.locator('main a[href="/enshrinees"]').first()).toBeVisible();
    await expect(page.locator('main a[href="/contact"]').first()).toBeVisible();
    await page.locator('nav[aria-label="On this page"] a[href="#backstory"]').click();
    await expect(page).toHaveURL(/#backstory$/);
    await expectNoSeriousA11yIssues(page);
  });

  test("Terms state the modified date, the ticket period from config, age, residence and claim limit", async ({ page }) => {
    await page.goto("/termsandconditions");
    const main = page.locator("main");
    await expect(main).toContainText("Last modified: June 15, 2023");
    await expect(main).toContainText("120 consecutive days");
    await expect(main).toContainText("$6.99");
    await expect(main).toContainText(/18 years/);
    await expect(main).toContainText(/United States/);
    await expect(main).toContainText(/one \(1\) year/);
    await expect(main.locator('a[href="/privacypolicy"]').first()).toBeVisible();
    await expect(main.locator('a[href="/contact"]').first()).toBeVisible();
    expect(await main.getByRole("link", { name: "Back to Top" }).count()).toBeGreaterThan(3);
    await expectNoSeriousA11yIssues(page);
  });

  test("Privacy policy states the modified date and the under-16 bar", async ({ page }) => {
    await page.goto("/privacypolicy");
    const main = page.locator("main");
    await expect(main).toContainText("Last modified: March 20, 2023");
    await expect(main).toContainText(/under 16/);
    await expect(main.locator('a[href="/termsandconditions"]').first()).toBeVisible();
    await expect(main.locator('a[href="/contact"]').first()).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });

  test("Home passes the accessibility check", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Wall of Fame" })).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });
});

test.describe("404 and error fallback", () => {
  test("an unknown address answers 404 with the refs headline and 404 PAGE NOT FOUND", async ({ page }) => {
    const response = await page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(MESSAGES.notFoundHeadline);
    await expect(page.getByTestId("not-found-code")).toHaveText(MESSAGES.notFoundCode);
    await expectNoSeriousA11yIssues(page);
  });

  test("the 404 page goes home after 5 seconds", async ({ page }) => {
    await page.clock.install();
    await page.goto("/this/does/not/exist");
    await freezeClock(page);
    // The timer counts from the first paint, not from the scripts: run to 200 ms before it is due.
    const left = TIMING.notFoundRedirect - (await msSincePageShown(page));
    await page.clock.runFor(left - 200);
    await expect(page).toHaveURL(/\/this\/does\/not\/exist$/);
    await page.clock.runFor(300);
    await expect(page).toHaveURL(/\/$/);
  });

  test("a failing page answers 500 with the fallback and Contact Us", async ({ page }) => {
    const response = await page.goto("/__error-probe");
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(MESSAGES.errorHeadline);
    await expect(page.getByRole("main").getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
    await expectNoSeriousA11yIssues(page);
  });

  test("the error fallback goes home after 7 seconds", async ({ page }) => {
    await page.clock.install();
    await page.goto("/__error-probe");
    await freezeClock(page);
    // The timer counts from the first paint, not from the scripts: run to 200 ms before it is due.
    const left = TIMING.errorPageRedirect - (await msSincePageShown(page));
    await page.clock.runFor(left - 200);
    await expect(page).toHaveURL(/__error-probe$/);
    await page.clock.runFor(300);
    await expect(page).toHaveURL(/\/$/);
  });
});
