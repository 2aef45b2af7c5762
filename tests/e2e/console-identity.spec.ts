/**
 * The console acts on the record the person saw, never on whatever sits at its place now
 *: two staff in two browsers, one page out of date.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { submitLogin, waitForHydration } from "./helpers";
import { ADMIN_EMAIL, PASSWORD, signedInAdmin } from "./people";

test.describe.configure({ mode: "serial" });

const mobileSlides = (page: Page) => page.getByRole("region", { name: /^mobile slides$/i }).getByRole("listitem");
const slideNames = async (page: Page) => (await mobileSlides(page).locator(":scope > p").allTextContents()).map((t) => t.replace(/^Slide \d+: /, ""));

test("Remove slide 2 on a page opened before a colleague moved slide 1 down removes the slide that page showed as slide 2, and asks about it by name", async ({ browser }) => {
  test.setTimeout(90_000);
  const stale = await signedInAdmin(browser);
  const colleague = await signedInAdmin(browser);
  await stale.goto("/admin/banner");
  await waitForHydration(stale);
  const before = await slideNames(stale);
  expect(before.length).toBeGreaterThan(2);

  // The colleague moves slide 1 down: the first page still shows the old order.
  await colleague.goto("/admin/banner");
  await waitForHydration(colleague);
  await mobileSlides(colleague).first().getByRole("button", { name: "Move down slide 1" }).click();
  await expect(colleague.getByTestId("console-notice")).toHaveText("The mobile banner is saved.");
  await expect.poll(() => slideNames(colleague)).toEqual([before[1], before[0], ...before.slice(2)]);

  // "Remove slide 2" on the old page: the question names that slide (now slide 1), and confirming removes it.
  await mobileSlides(stale).nth(1).getByRole("button", { name: "Remove slide 2" }).click();
  const confirm = stale.getByTestId("confirm-trash");
  await expect(confirm.getByRole("heading")).toHaveText(`Move mobile slide 1 (${before[1]}) to the trash?`);
  await confirm.getByRole("button", { name: "Move to the trash" }).click();
  await expect(stale.getByTestId("console-notice")).toHaveText("The mobile slide is in the Trash: restore it from there if that was a mistake.");
  await expect.poll(() => slideNames(stale)).toEqual([before[0], ...before.slice(2)]);

  // Put the banner back as it was for the specs after this one.
  await stale.goto("/admin/trash");
  await stale.getByRole("button", { name: `Restore Mobile slide: ${before[1]}` }).click();
  await expect(stale.getByTestId("console-notice")).toBeVisible();
  await stale.goto("/admin/banner");
  await waitForHydration(stale);
  await expect.poll(() => slideNames(stale)).toEqual([before[1], before[0], ...before.slice(2)]);
  await mobileSlides(stale).first().getByRole("button", { name: "Move down slide 1" }).click();
  await expect.poll(() => slideNames(stale)).toEqual(before);
});

test("an edited form asks before the header's search or Logout leaves it, and Stay keeps the typing", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await signedInAdmin(browser);
  await page.goto("/admin/teams");
  await page.getByRole("table").getByRole("row").nth(1).getByRole("link").first().click();
  await page.waitForURL(/\/admin\/teams\/[0-9a-f-]{36}$/);
  await waitForHydration(page);
  const name = page.getByLabel("Name", { exact: true });
  const before = await name.inputValue();
  await name.fill(`${before} (typed, not saved)`);
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });

  // The header's search, sent with Enter.
  const search = page.getByRole("search", { name: "Site search" }).getByRole("searchbox").or(page.getByRole("search", { name: "Site search" }).getByRole("combobox")).first();
  await search.fill("steelers");
  await search.press("Enter");
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page).toHaveURL(/\/admin\/teams\/[0-9a-f-]{36}$/);
  await expect(name).toHaveValue(`${before} (typed, not saved)`);

  // Logout (the console's, the spec's word).
  await page.getByTestId("console").getByRole("button", { name: "Logout", exact: true }).click();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(name).toHaveValue(`${before} (typed, not saved)`);
  await page.goto("/admin");
  await expect(page.getByText("What needs doing")).toBeVisible();
});

test("a few minutes before the session ends the console warns, with Stay signed in; a save after it ended keeps the typing, offered back after signing in again", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInAdmin(browser);
  await page.clock.install();
  await page.goto("/admin/exhibits");
  await waitForHydration(page);
  await page.getByRole("table").getByRole("row").nth(1).getByRole("link").first().click();
  await page.waitForURL(/\/admin\/exhibits\/[0-9a-f-]{36}$/);
  const exhibitPath = new URL(page.url()).pathname;
  await waitForHydration(page);
  await page.getByTestId("rich-text-editor").waitFor();

  // 25 minutes without a request: the warning; Stay signed in asks the server and it goes.
  await page.clock.fastForward("25:01");
  const warning = page.getByTestId("session-ending");
  await expect(warning).toContainText("Your session ends in 5 minutes without activity.");
  await warning.getByRole("button", { name: "Stay signed in" }).click();
  await expect(warning).toHaveCount(0);
  // 30 minutes on: it has ended (as far as this page knows).
  await page.clock.fastForward("30:01");
  await expect(page.getByTestId("session-ended")).toContainText("Your session has ended");

  // The session really ends (its cookie is gone); the typing is saved into the void...
  const title = page.getByLabel("Title", { exact: true });
  const typedTitle = `${await title.inputValue()} (typed after the session ended)`;
  await title.fill(typedTitle);
  await page.getByTestId("rich-text-editor").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("A sentence typed after the session ended.");
  await page.context().clearCookies();
  await page.getByRole("button", { name: "Save exhibit" }).click();
  await page.waitForURL((url) => url.pathname === "/login");

  // ...and offered back on the page after signing in again.
  await waitForHydration(page);
  await submitLogin(page, ADMIN_EMAIL, PASSWORD);
  await page.waitForURL((url) => url.pathname === exhibitPath, { timeout: 15_000 });
  await waitForHydration(page);
  const offer = page.getByTestId("kept-typing");
  await expect(offer).toContainText("was not saved: your session had ended before it arrived");
  await expect(title).not.toHaveValue(typedTitle);
  await offer.getByRole("button", { name: "Put it back" }).click();
  await expect(title).toHaveValue(typedTitle);
  await expect(page.getByTestId("rich-text-editor")).toContainText("A sentence typed after the session ended.");
  await page.getByRole("button", { name: "Save exhibit" }).click();
  await page.waitForURL(/\?notice=saved$/, { timeout: 15_000 });
  await expect(title).toHaveValue(typedTitle);
  await expect(page.getByTestId("kept-typing")).toHaveCount(0);
  // Put the title back for the specs after this one.
  await title.fill(typedTitle.replace(" (typed after the session ended)", ""));
  await page.getByRole("button", { name: "Save exhibit" }).click();
  await page.waitForURL(/\?notice=saved$/, { timeout: 15_000 });
});
