/**
 * Versions of a record in Chromium (decision 030): the admin renames a seeded exhibit,
 * opens its Versions, views the version from before the change, restores it, and sees the old
 * title back on the edit page and on the public exhibit page.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./test";
import type { ExhibitView } from "../../app/shared/catalog-types";
import { exhibitPath } from "../../app/shared/exhibit-links";
import { expectNoSeriousA11yIssues, signIn, waitForHydration } from "./helpers";

const EMAIL = "e2e-admin@museum.example";
const PASSWORD = "Console-1!";

test("view an exhibit's earlier version and restore it: the old title is back in the console and on the site", async ({ page, request }) => {
  test.setTimeout(120_000);
  // The first admin: admin:create's link sets the password (or was used by another file already).
  await page.goto(readFileSync(path.join(process.env.E2E_DATA_DIR!, "admin-link.txt"), "utf8").trim());
  await waitForHydration(page);
  if ((await page.getByTestId("reset-token-missing").count()) === 0) {
    await page.getByLabel("Enter your new password (8-16 characters)").fill(PASSWORD);
    await page.getByLabel("Confirm your new password").fill(PASSWORD);
    await page.getByRole("button", { name: "Submit Request" }).click();
    // Set now, or refused because another file already used the link: either answer will do.
    await expect(page.getByText(/password (has been|was) (reset|changed|updated)|link is invalid or has expired/i).first()).toBeVisible({ timeout: 15_000 });
  }
  // The last exhibit, which the other files do not edit; its history may hold versions already.
  const exhibit = ((await (await request.get("/api/exhibits/")).json()) as ExhibitView[]).at(-1)!;
  const edit = `/admin/exhibits/${exhibit._id}`;
  await signIn(page, EMAIL, PASSWORD, edit);
  await waitForHydration(page);

  const versions = page.getByTestId("versions").getByTestId("version");
  const before = await versions.count();
  // A record never saved in the console gets two: the save and the record as first recorded.
  const after = Math.max(before, 1) + 1;
  const renamed = `${exhibit.title} (renamed ${Date.now()})`;
  await page.getByLabel("Title", { exact: true }).fill(renamed);
  await page.getByRole("button", { name: "Save exhibit" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Saved.", { timeout: 15_000 });

  // Versions: the save (Title changed, by the admin) above the one it replaced.
  await expect(versions).toHaveCount(after);
  await expect(versions.first()).toContainText(EMAIL);
  await expect(versions.first()).toContainText("Title");
  await expect(versions.first()).toContainText("Current");
  await expect(versions.first().getByRole("link")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} E[SD]T$/);
  if (before === 0) await expect(versions.nth(1)).toContainText("As first recorded, before any change in the console");

  // View the old version: its fields, read-only.
  await versions.nth(1).getByRole("link").click();
  await expect(page.getByRole("heading", { name: `Exhibit: ${exhibit.title}`, exact: true })).toBeVisible({ timeout: 15_000 });
  const fields = page.getByTestId("version-fields");
  await expect(fields.getByRole("term").filter({ hasText: /^Title$/ }).locator("xpath=following-sibling::dd")).toHaveText(exhibit.title);
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expectNoSeriousA11yIssues(page);

  // Restore it: back on the edit page with the old title, and a third version noting the restore.
  await page.getByRole("button", { name: "Restore this version" }).click();
  await page.waitForURL((url) => url.pathname === edit, { timeout: 15_000 });
  await expect(page.getByTestId("console-notice")).toHaveText("Version restored: it is now the current version.");
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(exhibit.title);
  await expect(versions).toHaveCount(after + 1);
  await expect(versions.first()).toContainText(before === 0 ? "Restored the version from before the first recorded change" : "Restored the version of ");

  // The public exhibit page shows the old title again.
  const visitor = await (await page.context().browser()!.newContext()).newPage();
  await visitor.goto(exhibitPath(exhibit));
  await expect(visitor.getByRole("heading", { level: 1 })).toContainText(exhibit.title);
  await expect(visitor.getByText(renamed)).toHaveCount(0);
});
