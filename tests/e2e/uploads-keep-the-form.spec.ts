/**
 * Nothing typed is lost to an upload or a drag (decision 039): a logo uploaded on an
 * unsaved "New team" comes back with every typed field and the logo filled in, with JavaScript
 * and without; a refused file says why and keeps the typing too; the team then saves with all of
 * it. The exhibit photo arranger asks before a changed order is left, and not after a save.
 */
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";
import { allExhibits, memberViaApi, newPerson } from "./visitor-helpers";

test.describe.configure({ mode: "serial" });

/** The signed-in admin in a browser with or without JavaScript. */
async function adminPage(browser: Browser, scripts: boolean): Promise<Page> {
  const signedIn = await signedInAdmin(browser);
  const storageState = await signedIn.context().storageState();
  await signedIn.context().close();
  return (await browser.newContext({ javaScriptEnabled: scripts, storageState })).newPage();
}

async function typeInto(page: Page, typed: Record<string, string>) {
  for (const [label, value] of Object.entries(typed)) await page.getByLabel(label, { exact: true }).fill(value);
}

async function expectTyped(page: Page, typed: Record<string, string>) {
  for (const [label, value] of Object.entries(typed)) await expect(page.getByLabel(label, { exact: true }), label).toHaveValue(value);
}

for (const scripts of [false, true]) {
  test(`a logo uploaded on an unsaved New team keeps what was typed (${scripts ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await adminPage(browser, scripts);
    await page.goto("/admin/teams/new");
    if (scripts) await waitForHydration(page);
    const stamp = `${Date.now()}${scripts ? "j" : "n"}`;
    const typed = { Name: `Riverhounds ${stamp}`, League: "USL Championship", Headline: "Soccer on the river", "Summary and description": "A club that was typed,\nnot saved yet." };
    await typeInto(page, typed);

    // A file that is not a photo: refused, with the reason, and the typing stays.
    await page.getByLabel("Upload a new logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect(page.getByTestId("console-notice")).toContainText("not a JPEG, PNG or WebP photo");
    await expectTyped(page, typed);
    await expect(page.getByLabel("Logo (media file)")).toHaveValue("");

    // A real logo: stored, its name in the Logo field, every typed field as it was, nothing saved.
    const logo = await sharp({ create: { width: 120, height: 120, channels: 3, background: "#ffb612" } }).png().toBuffer();
    await page.getByLabel("Upload a new logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await page.getByRole("button", { name: "Upload logo" }).click();
    await expect(page.getByTestId("console-notice")).toHaveText("Logo uploaded: save the team to use it.");
    await expect(page.getByLabel("Logo (media file)")).toHaveValue(/^logos\/[0-9a-f-]{36}\.png$/);
    const logoKey = await page.getByLabel("Logo (media file)").inputValue();
    await expectTyped(page, typed);
    await expect(page).toHaveURL(/\/admin\/teams\/new$/);
    await expect(page.getByLabel("Upload a new logo")).toHaveValue("");

    // Saving creates the team with all of it.
    await page.getByRole("button", { name: "Save team" }).click();
    await page.waitForURL(/\/admin\/teams\/[0-9a-f-]{36}\?notice=saved$/);
    await expect(page.getByTestId("console-notice")).toHaveText("Saved.");
    await expectTyped(page, typed);
    await expect(page.getByLabel("Logo (media file)")).toHaveValue(logoKey);
    const logoShown = await page.request.get(`/images/view/${logoKey}?h=150`);
    expect(logoShown.status()).toBe(200);
  });
}

test("the photo arranger asks before a changed order is left, and not after a save", async ({ browser }) => {
  test.setTimeout(120_000);
  const member = await (await browser.newContext()).newPage();
  await memberViaApi(member, newPerson("Arranger"));
  const exhibit = (await allExhibits(member.request)).find((e) => (e.exhibitPhotos ?? []).length >= 2);
  expect(exhibit, "an exhibit with two photos or more").toBeTruthy();
  await member.context().close();

  const page = await adminPage(browser, true);
  // From the exhibit's page by its link, so the back button has a console page to go back to.
  await page.goto(`/admin/exhibits/${exhibit!._id}`);
  await waitForHydration(page);
  const photosLink = page.getByRole("link", { name: /^Photos \(\d+\)$/ });
  const count = Number((await photosLink.textContent())!.match(/\d+/)![0]);
  await photosLink.click();
  await page.waitForURL((url) => url.pathname.endsWith("/photos"));
  const rows = page.getByTestId("photo-row");
  const files = () => rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-file")!));
  // The address changes before the new page's rows are shown (CI once read none).
  await expect(rows).toHaveCount(count);
  const before = await files();

  const menu = page.getByRole("navigation", { name: "Console" });
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });

  // Drag the second photo above the first (dnd-kit's pointer sensor, small moves as a hand makes them).
  await rows.first().scrollIntoViewIfNeeded();
  const from = (await rows.nth(1).getByTestId("drag-handle").boundingBox())!;
  const to = (await rows.first().boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 5, { steps: 20 });
  await page.mouse.up();
  // dnd-kit swallows clicks for 50 ms after a drop (a timer, later on a loaded machine): a hand
  // takes longer than that to reach the menu, and a click swallowed there would leave the page
  // the browser's way, past the in-page question (CI met that once).
  await page.waitForTimeout(500);
  const dragged = await files();
  expect(dragged).toEqual([before[1], before[0], ...before.slice(2)]);

  // A menu link asks; staying keeps the new order on the page.
  await menu.getByRole("link", { name: "Exhibits" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/admin/exhibits/${exhibit!._id}/photos$`));
  expect(await files()).toEqual(dragged);

  // The back button asks too.
  await page.goBack();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(dialog).toHaveCount(0);

  // The photo upload reloads the page: with the order changed and not saved, the browser asks first; staying keeps it.
  await page.getByLabel("Description of the photos (for people who cannot see them)").fill("Not uploaded");
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#101820" } }).png().toBuffer();
  await page.getByLabel("Photo files").setInputFiles({ name: "x.png", mimeType: "image/png", buffer: photo });
  const askedOnUpload = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.type()), void d.dismiss())));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  expect(await askedOnUpload).toBe("beforeunload");
  await expect(page).toHaveURL(new RegExp(`/admin/exhibits/${exhibit!._id}/photos$`));
  expect(await files()).toEqual(dragged);

  // After "Save photos", leaving does not ask.
  await page.getByRole("button", { name: "Save photos" }).click();
  await expect(page.getByTestId("console-notice")).toHaveText("Photos saved.");
  await menu.getByRole("link", { name: "Exhibits" }).click();
  await page.waitForURL((url) => url.pathname === "/admin/exhibits");
  await expect(dialog).toHaveCount(0);

  // The saved order; a changed description asks as well.
  await page.goto(`/admin/exhibits/${exhibit!._id}/photos`);
  await waitForHydration(page);
  expect(await files()).toEqual(dragged);
  const alt = page.getByLabel("Photo 1: description");
  const savedAlt = await alt.inputValue();
  await alt.fill(`${savedAlt} (changed)`);
  await menu.getByRole("link", { name: "Exhibits" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(alt).toHaveValue(`${savedAlt} (changed)`);

  // Back as it was: the description, then the first photo moved down (a move is saved).
  await alt.fill(savedAlt);
  await page.getByRole("button", { name: "Move down photo 1", exact: true }).click();
  await expect.poll(files).toEqual(before);
  // Saved: closing the tab asks nothing.
  const asked = new Promise<string>((resolve) => page.once("dialog", (d) => (resolve(d.type()), void d.dismiss())));
  await page.close({ runBeforeUnload: true });
  expect(await Promise.race([asked, new Promise<string>((resolve) => setTimeout(() => resolve("none"), 2000))])).toBe("none");
});

for (const scripts of [false, true]) {
  test(`a slide image uploaded ${scripts ? "with" : "without"} JavaScript keeps what was typed in the Add form, and the slide is added with it`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await adminPage(browser, scripts);
    await page.goto("/admin/banner");
    if (scripts) await waitForHydration(page);
    const addForm = () => page.locator("form", { has: page.locator("#desktop-new-alt") });
    const alt = `A draft slide ${Date.now()}${scripts ? "j" : "n"}`;
    await addForm().locator("#desktop-new-alt").fill(alt);
    await addForm().getByRole("radio", { name: "Draft (only staff see it)" }).check();
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#ffb612" } }).png().toBuffer();
    await addForm().getByLabel("Upload a desktop slide image").setInputFiles({ name: "slide.png", mimeType: "image/png", buffer: image });
    await addForm().getByRole("button", { name: "Upload image for the new desktop slide" }).click();

    await expect(page.getByTestId("console-notice")).toHaveText("Image uploaded: add it as a slide below.");
    await expect(addForm().locator("#desktop-new-alt")).toHaveValue(alt);
    await expect(addForm().getByRole("radio", { name: "Draft (only staff see it)" })).toBeChecked();
    await expect(addForm().locator("#desktop-new-file")).toHaveValue(/^banners\/[0-9a-f-]{36}\.png$/);
    // Its size is read from the file (decision 061): shown, never typed.
    await expect(addForm().getByText("64 × 48 px (read from the file)")).toBeVisible();
    const file = await addForm().locator("#desktop-new-file").inputValue();
    await expect(page.getByText(`: ${alt}`)).toHaveCount(0);

    await addForm().getByRole("button", { name: "Add slide" }).click();
    const slide = page.locator("li", { hasText: `: ${alt}` });
    await expect(slide).toHaveCount(1);
    await expect(slide.locator('input[name="file"]')).toHaveValue(file);
    await expect(slide.getByText("64 × 48 px (read from the file)")).toBeVisible();
  });
}

for (const scripts of [false, true]) {
  test(`a portrait saved on an enshrinee's page keeps what was typed in its unsaved form (${scripts ? "with" : "without"} JavaScript)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await adminPage(browser, scripts);
    const stamp = `${Date.now().toString(36).replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)])}${scripts ? "j" : "n"}`;
    await page.goto("/admin/enshrinees/new");
    if (scripts) await waitForHydration(page);
    await typeInto(page, { "Full name": `Josh ${stamp}`, "First name": "Josh", "Last name": stamp });
    await page.getByRole("button", { name: "Save enshrinee" }).first().click();
    await page.waitForURL(/\/admin\/enshrinees\/[0-9a-f-]{36}\?notice=saved$/);
    const enshrineePath = new URL(page.url()).pathname;
    if (scripts) await waitForHydration(page);

    // Typed and not saved.
    const typed = { "Full name": `Josh Gibson ${stamp}`, "First name": "Joshua", "Last name": `Gibson${stamp}` };
    await typeInto(page, typed);
    const portrait = page.getByRole("region", { name: "Portrait (shown to everyone)" });
    const description = portrait.getByLabel("Portrait description (for people who cannot see it)");
    await description.fill("Josh Gibson at the plate, 1937");

    // A file that is not a photo: refused with the reason, the typing kept, nothing saved.
    await portrait.getByLabel("Portrait photo").setInputFiles({ name: "josh.png", mimeType: "image/png", buffer: Buffer.from("not a picture at all") });
    await portrait.getByRole("button", { name: "Save portrait" }).click();
    await expect(portrait.getByTestId("console-notice")).toContainText("not a JPEG, PNG or WebP photo");
    await expectTyped(page, typed);
    await expect(description).toHaveValue("Josh Gibson at the plate, 1937");
    await expect(portrait.getByText("No portrait yet.")).toBeVisible();

    // A real photo: the portrait saved and shown, every typed field as it was, the enshrinee not saved yet.
    const photo = await sharp({ create: { width: 90, height: 120, channels: 3, background: "#6b4f2a" } }).png().toBuffer();
    await portrait.getByLabel("Portrait photo").setInputFiles({ name: "josh.png", mimeType: "image/png", buffer: photo });
    await portrait.getByRole("button", { name: "Save portrait" }).click();
    await expect(portrait.getByTestId("console-notice")).toHaveText("Portrait saved.");
    await expect(page.getByTestId("console-portrait")).toHaveAttribute("alt", "Josh Gibson at the plate, 1937");
    await expectTyped(page, typed);
    expect(new URL(page.url()).pathname).toBe(enshrineePath);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Enshrinee: Josh ${stamp}`);

    // Saving the enshrinee keeps the portrait and saves the typing.
    await page.getByRole("button", { name: "Save enshrinee" }).last().click();
    await page.waitForURL(new RegExp(`${enshrineePath}\\?notice=saved$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Enshrinee: Josh Gibson ${stamp}`);
    await expectTyped(page, typed);
    await expect(page.getByTestId("console-portrait")).toHaveAttribute("alt", "Josh Gibson at the plate, 1937");
  });
}
