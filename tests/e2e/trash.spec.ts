/**
 * Deleting asks first, and the Trash restores (decision 031), in Chromium with and
 * without JavaScript: "Delete this team" shows a confirmation; Cancel keeps the team; "Move to
 * the trash" takes its page off the site; the Trash lists it; Restore brings the page back.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./test";
import { expectNoSeriousA11yIssues, submitLogin, waitForHydration } from "./helpers";

const ADMIN_EMAIL = "e2e-admin@museum.example";
const PASSWORD = "Console-1!";

/** Opens a page on `url`, waiting for hydration only when scripts run. */
async function open(page: Page, url: string, scripts: boolean) {
  const response = await page.goto(url);
  if (scripts) await waitForHydration(page);
  return response;
}

/** The first admin, signed in (the password set from admin:create's link when this file runs alone). */
async function adminPage(browser: Browser, scripts: boolean): Promise<Page> {
  const page = await (await browser.newContext({ javaScriptEnabled: scripts })).newPage();
  await open(page, readFileSync(path.join(process.env.E2E_DATA_DIR!, "admin-link.txt"), "utf8").trim(), scripts);
  if ((await page.getByTestId("reset-token-missing").count()) === 0) {
    await page.getByLabel("Enter your new password (8-16 characters)").fill(PASSWORD);
    await page.getByLabel("Confirm your new password").fill(PASSWORD);
    await page.getByRole("button", { name: "Submit Request" }).click();
    await page.waitForLoadState("load");
  }
  await open(page, "/login?redirectTo=%2Fadmin%2Fteams", scripts);
  await submitLogin(page, ADMIN_EMAIL, PASSWORD);
  await page.waitForURL((url) => url.pathname === "/admin/teams", { timeout: 20_000 });
  return page;
}

test.describe.configure({ mode: "serial" });

for (const scripts of [true, false]) {
  test(`${scripts ? "with" : "without"} JavaScript: delete asks, Cancel keeps the team, confirming trashes it, Restore brings it back`, async ({ browser }) => {
    test.setTimeout(120_000);
    const name = `Trash Riverhounds ${scripts ? "JS" : "HTML"} ${Date.now()}`;
    const headline = `Soccer on the river, ${scripts ? "scripted" : "plain"}`;
    const page = await adminPage(browser, scripts);

    await open(page, "/admin/teams/new", scripts);
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("League", { exact: true }).fill("USL");
    await page.getByLabel("Headline", { exact: true }).fill(headline);
    await page.getByLabel("Summary and description", { exact: true }).fill("A club made to be thrown away and brought back.");
    await page.getByRole("button", { name: "Save team" }).click();
    await page.waitForURL(/\/admin\/teams\/[0-9a-f-]{36}\?notice=saved$/, { timeout: 20_000 });
    const teamId = /\/admin\/teams\/([0-9a-f-]{36})/.exec(page.url())![1];
    const editPath = `/admin/teams/${teamId}`;
    if (scripts) await waitForHydration(page);

    // Delete asks first; Cancel keeps the team.
    await page.getByRole("button", { name: "Delete this team" }).click();
    const confirmation = page.getByTestId("confirm-trash");
    await expect(confirmation.getByRole("heading", { name: `Move ${name} to the trash?` })).toBeVisible({ timeout: 20_000 });
    await expect(confirmation).toContainText("It can be restored from the Trash for 30 days");
    if (scripts) await expectNoSeriousA11yIssues(page);
    await confirmation.getByRole("link", { name: "Cancel" }).click();
    await expect(confirmation).toHaveCount(0, { timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe(editPath);
    expect((await page.request.get(`/teams/${teamId}`)).status()).toBe(200);

    // Confirming moves it to the trash: off the site.
    await page.getByRole("button", { name: "Delete this team" }).click();
    await confirmation.getByRole("button", { name: "Move to the trash" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/teams" && url.search === "?notice=deleted", { timeout: 20_000 });
    await expect(page.getByTestId("console-notice")).toHaveText("Moved to the trash. Restore it from the Trash if that was a mistake.");
    expect((await page.request.get(`/teams/${teamId}`)).status()).toBe(404);

    // The Trash lists it; Restore brings its page back.
    await open(page, "/admin/trash", scripts);
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("Team");
    await expect(row).toContainText(ADMIN_EMAIL);
    if (scripts) await expectNoSeriousA11yIssues(page);
    await row.getByRole("button", { name: `Restore ${name}` }).click();
    await expect(page.getByTestId("console-notice")).toHaveText(`Team ${name} restored.`, { timeout: 20_000 });
    await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
    const publicPage = await open(page, `/teams/${teamId}`, scripts);
    expect(publicPage?.status()).toBe(200);
    await expect(page.getByText(headline).first()).toBeVisible();
  });
}
