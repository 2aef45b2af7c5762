/**
 * The home banner's edit conflicts and versions (decisions 029 and 030), two browsers:
 * both open the banner page; one describes the first desktop slide anew and saves; the other,
 * on the older page, types another description and picks another image and is refused (409) with, field by
 * field, their value beside the one saved now, the form still holding what they typed; taking
 * theirs for one and keeping theirs for the other saves both choices. Then the banner's version
 * from before both saves is opened and restored: the slide is as it was, as a new version.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { chooseInConflict, expectConflict, postAnswer } from "./conflict-helpers";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";

const stamp = `${Date.now()}`;
const FIRST_WORDS = `The first words ${stamp}`;
const SECOND_WORDS = `Other words ${stamp}`;

/** The first desktop slide's form. */
const firstSlide = (page: Page) => page.locator("section", { has: page.getByRole("heading", { name: "desktop slides" }) }).getByRole("listitem").first();

test("two staff edit one banner slide: the later save shows both values to choose from; a version of the banner is restored", async ({ browser }) => {
  test.setTimeout(240_000);
  const one = await signedInAdmin(browser);
  const other = await signedInAdmin(browser);
  for (const page of [one, other]) {
    await page.goto("/admin/banner");
    await waitForHydration(page);
  }
  const original = await firstSlide(one).getByLabel("Description", { exact: true }).inputValue();
  const image = firstSlide(one).getByLabel("Image (media file)", { exact: true });
  const file = await image.inputValue();
  const OTHER_FILE = file === "banners/desktop-2.svg" ? "banners/desktop-3.svg" : "banners/desktop-2.svg";

  await firstSlide(one).getByLabel("Description", { exact: true }).fill(FIRST_WORDS);
  await firstSlide(one).getByRole("button", { name: "Save slide 1" }).click();
  await expect(one.getByTestId("console-notice")).toHaveText("The desktop banner is saved.");

  // The other page still shows the banner before that save.
  await firstSlide(other).getByLabel("Description", { exact: true }).fill(SECOND_WORDS);
  // The image's path typed in its folded field (the library's picker sets the same field).
  await firstSlide(other).getByText("Or type the file's path").click();
  await firstSlide(other).getByLabel("Image (media file)", { exact: true }).fill(OTHER_FILE);
  const answer = postAnswer(other, "/admin/banner");
  await firstSlide(other).getByRole("button", { name: "Save slide 1" }).click();
  expect((await answer).status()).toBe(409);
  await expectConflict(other, { Description: [SECOND_WORDS, FIRST_WORDS], Image: [OTHER_FILE, file] });
  // What was typed is still there.
  await expect(firstSlide(other).getByLabel("Description", { exact: true })).toHaveValue(SECOND_WORDS);
  await expect(firstSlide(other).getByLabel("Image (media file)", { exact: true })).toHaveValue(OTHER_FILE);

  await chooseInConflict(other, { Description: "Take theirs", Image: "Keep mine" });
  await firstSlide(other).getByRole("button", { name: "Save slide 1" }).click();
  await expect(other.getByTestId("console-notice")).toHaveText("The desktop banner is saved.");
  await one.goto("/admin/banner");
  await waitForHydration(one);
  await expect(firstSlide(one).getByLabel("Description", { exact: true })).toHaveValue(FIRST_WORDS);
  await expect(firstSlide(one).getByLabel("Image (media file)", { exact: true })).toHaveValue(OTHER_FILE);

  // The desktop banner's versions: the two saves, newest first, then the banner before them.
  const versions = one.getByRole("region", { name: "Versions of the desktop banner" }).getByTestId("version");
  await expect(versions.nth(0)).toContainText("Slide 1 image");
  await expect(versions.nth(1)).toContainText("Slide 1 description");
  await versions.nth(2).getByRole("link").click();
  await expect(one.getByRole("heading", { name: "Home banner: Desktop banner" })).toBeVisible();
  await expect(one.getByTestId("version-fields")).toContainText(original);
  await one.getByRole("button", { name: "Restore this version" }).click();
  await one.waitForURL(/\/admin\/banner\?notice=restored$/, { timeout: 20_000 });
  await expect(one.getByTestId("console-notice")).toHaveText("Version restored: it is now the current version.");
  await expect(firstSlide(one).getByLabel("Description", { exact: true })).toHaveValue(original);
  await expect(firstSlide(one).getByLabel("Image (media file)", { exact: true })).toHaveValue(file);
  await expect(versions.nth(0)).toContainText(/Restored the version (of|from before)/);
});
