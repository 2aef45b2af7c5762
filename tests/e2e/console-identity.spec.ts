/**
 * The console acts on the record the person saw, never on whatever sits at its place now
 * (issue 35): two staff in two browsers, one page out of date.
 */
import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";

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

test("an edited form asks before the header's search or Sign out leaves it, and Stay keeps the typing", async ({ browser }) => {
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

  // Sign out.
  await page.getByRole("button", { name: "Sign out" }).click();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(name).toHaveValue(`${before} (typed, not saved)`);
  await page.goto("/admin");
  await expect(page.getByText("What needs doing")).toBeVisible();
});
