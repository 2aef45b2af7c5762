/**
 * The staff console's rough edges, in Chromium at desktop and phone size: staff land in
 * the console after signing in (never on the payment page); a logo upload on an unsaved "New
 * team" keeps what was typed; leaving an edited form by a link, the back button or closing the
 * tab asks first; the exhibit list fits a 390 px phone and its filter keeps the chosen sort.
 */
import { expect, test } from "./test";
import sharp from "sharp";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";

test.describe.configure({ mode: "serial" });

test("desktop: an upload keeps what was typed; leaving the edited form by link, back or closing the tab asks first", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInAdmin(browser);
  // By the console's own link, so the back button has a console page to go back to.
  await page.goto("/admin/teams");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Add a team" }).click();
  await page.waitForURL((url) => url.pathname === "/admin/teams/new");
  const typed = { Name: "Riverhounds Test", League: "USL", Headline: "Soccer on the river", "Summary and description": "A club that was typed, not saved." };
  for (const [label, value] of Object.entries(typed)) await page.getByLabel(label, { exact: true }).fill(value);

  // The logo upload on the unsaved form: what was typed stays.
  const logo = await sharp({ create: { width: 120, height: 120, channels: 3, background: "#ffb612" } }).png().toBuffer();
  await page.getByLabel("Upload a new logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByText("Logo uploaded: save the team to use it.")).toBeVisible();
  await expect(page.getByLabel("Logo (media file)")).toHaveValue(/^logos\/[0-9a-f-]{36}\.png$/);
  for (const [label, value] of Object.entries(typed)) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);

  // A menu link asks first; "Stay" keeps everything.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Teams" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/teams\/new/);
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Riverhounds Test");

  // The back button asks too.
  await page.goBack();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page.getByLabel("Headline", { exact: true })).toHaveValue("Soccer on the river");

  // Closing the tab: the browser's own question (beforeunload).
  const asked = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.type()), void d.dismiss())));
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe("beforeunload");

  // An untouched form leaves without a question; "Leave without saving" goes.
  const again = await signedInAdmin(browser);
  await again.goto("/admin/teams/new");
  await waitForHydration(again);
  await again.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Teams" }).click();
  await again.waitForURL((url) => url.pathname === "/admin/teams");
  await again.goto("/admin/categories/new");
  await waitForHydration(again);
  await again.getByLabel("Name", { exact: true }).fill("Half typed");
  await again.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Exhibits" }).click();
  await again.getByRole("alertdialog").getByRole("button", { name: "Leave without saving" }).click();
  await again.waitForURL((url) => url.pathname === "/admin/exhibits");
});

test("phone (390 px): the exhibit list fits the screen and its filter keeps the chosen sort", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await signedInAdmin(browser, { width: 390, height: 844 });
  await page.goto("/admin/exhibits?sort=year&dir=desc");
  await waitForHydration(page);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, table: document.querySelector("table")!.getBoundingClientRect().width }));
  expect(widths.page).toBeLessThanOrEqual(390);
  expect(widths.table).toBeLessThanOrEqual(390);
  await expect(page.getByRole("region", { name: "Exhibits" })).toBeVisible();
  // The search and filters are folded behind one button on a phone (decision 063).
  await page.getByText("Search, filters and bulk actions").click();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("sort") === "year" && url.searchParams.get("dir") === "desc");
});

test("the staff invitation form asks before a half-typed invitation is left, and not once it is sent", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await signedInAdmin(browser);
  await page.goto("/admin/staff");
  await waitForHydration(page);
  const email = `invitee-${Date.now()}@museum.example`;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Teams" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(page.getByLabel("Email address")).toHaveValue(email);

  await page.getByLabel("First name").fill("Ivy");
  await page.getByLabel("Last name").fill("Invitee");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Teams" }).click();
  await page.waitForURL((url) => url.pathname === "/admin/teams");
  await expect(dialog).toHaveCount(0);
});

test("a banner slide's typed description asks before the page is left, and not once the slide is saved", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await signedInAdmin(browser);
  await page.goto("/admin/banner");
  await waitForHydration(page);
  const description = page.getByRole("region", { name: /^desktop slides$/i }).getByRole("listitem").first().getByLabel("Description", { exact: true });
  const before = await description.inputValue();
  await description.fill(`${before} (edited)`);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Teams" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(description).toHaveValue(`${before} (edited)`);

  await description.fill(before);
  await page.getByRole("button", { name: "Save slide 1" }).first().click();
  await expect(page.getByRole("status").or(page.getByRole("alert")).first()).toBeVisible();
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Teams" }).click();
  await page.waitForURL((url) => url.pathname === "/admin/teams");
  await expect(dialog).toHaveCount(0);
});
