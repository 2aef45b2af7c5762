/**
 * The staff console on a phone (decision 063), in Chromium at 390x844: no console list scrolls the
 * page sideways (each list is cards, its row's buttons on screen); a long form's Save stays in
 * view at any point of the form; the exhibit list's search, filters and bulk actions fold behind
 * one button so the first row shows in the first screen (open at desktop size without a click).
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
const LISTS = ["/admin/exhibits", "/admin/enshrinees", "/admin/teams", "/admin/categories", "/admin/members", "/admin/messages", "/admin/subscribers", "/admin/staff", "/admin/gifts", "/admin/trash", "/admin/audit"];

const sideways = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));

/** A category made and moved to the trash, so the Trash (and the audit log) has a row to show. */
async function trashACategory(page: Page, name: string) {
  await page.goto("/admin/categories/new");
  await waitForHydration(page);
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Save category" }).click();
  await page.waitForURL((url) => /^\/admin\/categories\/[0-9a-f-]{36}$/.test(url.pathname));
  await waitForHydration(page);
  await page.getByRole("button", { name: "Delete this category" }).click();
  await page.getByTestId("confirm-trash").getByRole("button", { name: "Move to the trash" }).click();
  await expect(page.getByTestId("console-notice")).toContainText("Moved to the trash");
}

test("phone: no console list scrolls sideways; the Trash's Restore is on screen", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInAdmin(browser, PHONE);
  const name = `Phone trash test category with a rather long name ${Date.now()}`;
  await trashACategory(page, name);
  for (const list of LISTS) {
    await page.goto(list);
    await waitForHydration(page);
    const { scroll, width } = await sideways(page);
    expect.soft(scroll, `${list} is ${scroll} px wide on a ${width} px screen`).toBeLessThanOrEqual(width);
  }
  await page.goto("/admin/trash");
  await waitForHydration(page);
  const restore = page.getByRole("button", { name: `Restore ${name}` });
  await restore.scrollIntoViewIfNeeded();
  await expect(restore).toBeInViewport({ ratio: 1 });
  // The audit log's lines: words, no JSON.
  await page.goto("/admin/audit?entity=category");
  await waitForHydration(page);
  await expect(page.getByTestId("audit-change").filter({ hasText: name }).first()).toBeVisible();
  expect(await page.locator("main").innerText()).not.toMatch(/\{"|":/);
});

test("phone: Save stays in view in the middle of the exhibit form", async ({ browser }) => {
  const page = await signedInAdmin(browser, PHONE);
  await page.goto("/admin/exhibits");
  await waitForHydration(page);
  await page.getByRole("table", { name: "Exhibits" }).locator("tbody a").first().click();
  await page.waitForURL((url) => /^\/admin\/exhibits\/[0-9a-f-]{36}$/.test(url.pathname));
  await waitForHydration(page);
  const save = page.getByTestId("save-bar").getByRole("button", { name: "Save exhibit" });
  // The form's own extent, not the page's: below it the version history grows with every save
  // the other specs make, and Save is meant to stay in view over the form, not over the history.
  const form = page.locator("form").filter({ has: save });
  const { top, height } = await form.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { top: box.top + window.scrollY, height: box.height };
  });
  expect(height).toBeGreaterThan(PHONE.height * 2);
  for (const at of [0.1, 0.5]) {
    await page.evaluate((y) => window.scrollTo(0, y), Math.round(top + height * at));
    await expect(save, `Save at ${at * 100}% of the form`).toBeInViewport({ ratio: 1 });
  }
});

test("the exhibit list's search, filters and bulk actions: one button on a phone, open on a desktop", async ({ browser }) => {
  const page = await signedInAdmin(browser, PHONE);
  await page.goto("/admin/exhibits");
  await waitForHydration(page);
  const search = page.getByLabel("Search titles");
  const fold = page.getByText("Search, filters and bulk actions");
  await expect(fold).toBeVisible();
  await expect(search).toBeHidden();
  await expect(page.getByRole("button", { name: "Apply" })).toBeHidden();
  await expect(page.getByRole("table", { name: "Exhibits" }).locator("tbody a").first()).toBeInViewport();
  await fold.click();
  await expect(search).toBeVisible();
  await expect(page.getByLabel("Publication")).toBeVisible();
  await expect(page.getByRole("button", { name: "Apply" })).toBeVisible();

  const desktop = await signedInAdmin(browser, { width: 1366, height: 900 });
  await desktop.goto("/admin/exhibits");
  await expect(desktop.getByLabel("Search titles")).toBeVisible();
  await expect(desktop.getByText("Search, filters and bulk actions")).toBeHidden();
  await expect(desktop.getByRole("button", { name: "Apply" })).toBeVisible();
});
