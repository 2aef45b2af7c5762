/** The first admin's session for console specs (admin:create's one-time link, then the plain login form). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Browser, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";

export const ADMIN_EMAIL = "e2e-admin@museum.example";
export const PASSWORD = "Console-1!";

/** The first admin: sets the password with admin:create's link if it is still unused (this file alone), then signs in on the plain login form. */
export async function signedInAdmin(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport ? { viewport } : {})).newPage();
  const link = readFileSync(path.join(process.env.E2E_DATA_DIR!, "admin-link.txt"), "utf8").trim();
  await page.goto(link);
  await waitForHydration(page);
  if ((await page.getByTestId("reset-token-missing").count()) === 0) {
    await page.getByLabel("Enter your new password (8-16 characters)").fill(PASSWORD);
    await page.getByLabel("Confirm your new password").fill(PASSWORD);
    await page.getByRole("button", { name: "Submit Request" }).click();
    await page.waitForTimeout(500);
  }
  // The ordinary login form, no redirectTo: staff land in the console, not on "YOUR CARD WILL BE CHARGED".
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email address").fill(ADMIN_EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Login Now" }).click();
  await page.waitForURL((url) => url.pathname === "/admin", { timeout: 15_000 });
  await expect(page.getByText("What needs doing")).toBeVisible();
  await expect(page.getByText(/will be charged/i)).toHaveCount(0);
  return page;
}
