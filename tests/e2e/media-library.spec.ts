/**
 * The media library (decision 061) as a collections manager uses it, on a phone (390 x 844) and
 * a desktop: upload two images at once, describe one, find the other among the images without a
 * description, pick the described one as an exhibit's thumbnail in the exhibit form's dialog (no
 * path typed) and save; the exhibit then shows it (its own member-only copy). No sideways scrolling at 390 px.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";
import { allExhibits } from "./visitor-helpers";

test.describe.configure({ mode: "serial" });

const SIZES = [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 900 } },
] as const;

async function expectNoSidewaysScroll(page: Page, width: number) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll).toBeLessThanOrEqual(width);
}

for (const size of SIZES) {
  test(`upload two images, describe one, find the other without a description, pick one in an exhibit form (${size.name})`, async ({ browser }) => {
    test.setTimeout(180_000);
    const page = await signedInAdmin(browser, size.viewport);
    const stamp = `${size.name}${Date.now().toString(36)}`;
    const png = (color: string, w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();

    await page.goto("/admin/media");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Media library" })).toBeVisible();
    await page.getByLabel("Upload images (or drop them here)").setInputFiles([
      { name: `${stamp}-stands.png`, mimeType: "image/png", buffer: await png("#ffb612", 120, 80) },
      { name: `${stamp}-pennant.png`, mimeType: "image/png", buffer: await png("#101820", 90, 90) },
    ]);
    await page.getByRole("button", { name: "Upload 2 images" }).click();
    await expect(page.getByTestId("console-notice")).toHaveText("2 images uploaded.");
    if (size.name === "phone") await expectNoSidewaysScroll(page, size.viewport.width);

    // Both are listed with their sizes; describe the first.
    await page.getByLabel("Search by file name or description").fill(stamp);
    await page.getByTestId("console").getByRole("button", { name: "Search", exact: true }).click();
    const cards = page.getByTestId("media-card");
    await expect(cards).toHaveCount(2);
    const stands = cards.filter({ hasText: `${stamp}-stands.png` });
    await expect(stands).toContainText("120 × 80 px");
    await expect(stands).toContainText("Not used");
    await stands.getByLabel("Description").fill(`Gold seats at the ballpark ${stamp}`);
    await stands.getByRole("button", { name: /Save description/ }).click();
    await expect(page.getByTestId("console-notice")).toHaveText("Description saved.");

    // Images without a description: the pennant only.
    await page.getByLabel("Search by file name or description").fill(stamp);
    await page.getByLabel(/Only images without a description/).check();
    await page.getByTestId("console").getByRole("button", { name: "Search", exact: true }).click();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(`${stamp}-pennant.png`);
    if (size.name === "phone") await expectNoSidewaysScroll(page, size.viewport.width);

    // An exhibit's form: choose the thumbnail from the library, no path typed.
    // A published, active exhibit (listed on its category page); each size takes its own.
    const listed = (await allExhibits(page.request)).filter((x) => x.active);
    const exhibit = listed[SIZES.indexOf(size) + 3];
    const exhibitPath = `/admin/exhibits/${exhibit._id}`;
    await page.goto(exhibitPath);
    await waitForHydration(page);
    const exhibitId = exhibitPath.split("/").pop()!;
    await page.getByRole("link", { name: "Choose from the library for Thumbnail" }).click();
    const dialog = page.getByRole("dialog", { name: "Choose an image" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Search by file name or description").fill(stamp);
    await dialog.getByRole("button", { name: "Search", exact: true }).click();
    await expect(dialog.getByRole("button", { name: /Use this image/ })).toHaveCount(2);
    if (size.name === "phone") await expectNoSidewaysScroll(page, size.viewport.width);
    await dialog.getByRole("button", { name: new RegExp(`Use this image \\(.*${stamp}-stands\\.png\\)`) }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("picked-thumbnail")).toHaveText(new RegExp(`^library/[0-9a-f]{8}-${stamp}-stands\\.png$`));
    const key = (await page.getByTestId("picked-thumbnail").textContent())!;
    await expect(page.getByTestId("picker-thumbnail").locator("img")).toHaveAttribute("src", new RegExp(key.replace(/[.]/g, "\\.")));
    await page.getByRole("button", { name: "Save exhibit" }).click();
    await expect(page.getByTestId("console-notice")).toHaveText("Saved.");
    // Saved as the exhibit's own member-only copy (library/ is public): the library's image stays for its other uses.
    const copy = `exhibits/${exhibitId}/${key.split("/")[1]}`;
    await expect(page.getByTestId("picked-thumbnail")).toHaveText(copy);

    // The exhibit shows it: its card on its category page (the console's preview, as members see it) draws the image.
    const [teamId, categoryId] = [await page.locator("#teamId").inputValue(), await page.locator("#categoryId").inputValue()];
    await page.goto(`/admin/categories/${categoryId}/preview?team=${teamId}`);
    const thumbnail = page.locator(`img[src*="${copy}"]`).last();
    await thumbnail.scrollIntoViewIfNeeded();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
    // And the library says where it is used.
    await page.goto(`/admin/media?q=${encodeURIComponent(copy)}`);
    await expect(cards.first().getByRole("link", { name: /\(thumbnail\)$/ })).toHaveAttribute("href", `/admin/exhibits/${exhibitId}`);
    if (size.name === "phone") await expectNoSidewaysScroll(page, size.viewport.width);
    await page.context().close();
  });
}
