/**
 * 'Download my data' and 'Delete my account' in Chromium: the download is a JSON file
 * of the account; deletion asks the password again, signs out at once, and the address can sign
 * up again; axe clean.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "./test";
import { ACCOUNT_MESSAGES } from "../../app/shared/messages";
import { expectNoSeriousA11yIssues } from "./helpers";
import { DESKTOP, hydrated, memberViaApi, newPerson, signUpViaApi } from "./visitor-helpers";

test("a member downloads their data, deletes the account, and the address can sign up again", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const p = newPerson("Dana");
  await memberViaApi(page, p);
  await page.goto("/account");
  await hydrated(page);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download my data" }).click()]);
  expect(download.suggestedFilename()).toBe("museum-account-data.json");
  const body = JSON.parse(readFileSync((await download.path())!, "utf8"));
  expect(body.profile.emailAddress).toBe(p.email);
  expect(body.payments).toHaveLength(1);

  await page.getByRole("link", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account\/delete$/);
  await expectNoSeriousA11yIssues(page);
  await page.getByLabel("Your password").fill("not-my-password");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.wrongPassword);
  await page.getByLabel("Your password").fill(p.password);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account\/deleted$/);
  await expect(page.getByTestId("account-deleted")).toHaveText(ACCOUNT_MESSAGES.accountDeleted);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" })).toBeVisible();
  await expectNoSeriousA11yIssues(page);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);

  // The address is free again.
  await signUpViaApi(page, p);
});
