/**
 * Enshrinee portraits and rich biographies (decision 033) in Chromium: staff
 * write a biography with bold text and a list in the editor and upload a portrait with its
 * description; a visitor on a 390 px phone sees the face on the Wall of Fame and the enshrinee
 * page (which fit the screen) and in the page's JSON-LD `Person`, but not the biography; a
 * member sees the portrait and the biography's formatting.
 */
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./test";
import sharp from "sharp";
import { signedInAdmin } from "./people";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { DESKTOP, memberViaApi, newPerson, PHONE } from "./visitor-helpers";

const LAST = `Portrait${Date.now().toString(36).replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)])}`;
const FULL_NAME = `Ada ${LAST}`;
const ALT = `${FULL_NAME} in her 1930 Homestead Grays uniform`;
let pagePath = "";

/** The portrait as the browser shows it: loaded (a real image came back), with its description. */
async function expectPortraitShown(scope: Page | Locator, testId: string) {
  const img = scope.getByTestId(testId).first();
  await expect(img).toBeVisible();
  await expect(img).toHaveAttribute("alt", ALT);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
}

/** Nothing wider than the screen: no sideways scrolling. */
async function expectFitsWidth(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
}

test.describe.configure({ mode: "serial" });

test("staff write a formatted biography and upload a portrait with its description", async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInAdmin(browser);
  await page.goto("/admin/enshrinees/new");
  await waitForHydration(page);
  await page.getByLabel("Full name").fill(FULL_NAME);
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill(LAST);
  const editor = page.getByTestId("rich-text-editor");
  await editor.click();
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type("Steel City ace");
  await page.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type(" of the Negro Leagues.");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Bulleted list" }).click();
  await page.keyboard.type("Three pennants");
  await page.keyboard.press("Enter");
  await page.keyboard.type("A perfect game in 1934");
  await page.getByRole("button", { name: "Save enshrinee" }).click();
  await page.waitForURL(/\/admin\/enshrinees\/[0-9a-f-]{36}\?notice=saved/, { timeout: 15_000 });
  const id = /\/admin\/enshrinees\/([0-9a-f-]{36})/.exec(page.url())![1];
  pagePath = `/enshrinees/ada-${LAST.toLowerCase()}/${id}`;
  await waitForHydration(page);

  const portrait = page.getByRole("region", { name: "Portrait (shown to everyone)" });
  await expect(portrait.getByText("No portrait yet.")).toBeVisible();
  const photo = await sharp({ create: { width: 300, height: 400, channels: 3, background: "#6b4f2a" } })
    .jpeg()
    .withExif({ IFD0: { Make: "SpyCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 26/1 0/1" } })
    .toBuffer();
  await portrait.getByLabel("Portrait photo").setInputFiles({ name: "ada.jpg", mimeType: "image/jpeg", buffer: photo });
  await portrait.getByLabel("Portrait description (for people who cannot see it)").fill(ALT);
  await portrait.getByRole("button", { name: "Save portrait" }).click();
  await expect(portrait.getByText("Portrait saved.")).toBeVisible({ timeout: 15_000 });
  await expectPortraitShown(page, "console-portrait");
  await expect(portrait.getByLabel("Portrait description (for people who cannot see it)")).toHaveValue(ALT);
  await expectNoSeriousA11yIssues(page);
});

test("a visitor on a phone sees the face on the Wall of Fame, the page and its JSON-LD, not the biography", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await page.goto("/enshrinees");
  const link = page.getByRole("link", { name: new RegExp(FULL_NAME.toUpperCase()) });
  await expect(link).toBeVisible();
  await expectPortraitShown(page.getByTestId("enshrinee-list").locator("li", { has: link }), "wall-portrait");
  await expectFitsWidth(page);
  await expectNoSeriousA11yIssues(page);

  await link.click();
  await page.waitForURL((url) => url.pathname === pagePath, { timeout: 15_000 });
  await expectPortraitShown(page, "portrait");
  await expect(page.getByRole("heading", { level: 1, name: FULL_NAME })).toBeVisible();
  await expect(page.getByTestId("biography")).toHaveCount(0);
  await expect(page.getByText("Steel City ace")).toHaveCount(0);
  await expectFitsWidth(page);
  const src = await page.getByTestId("portrait").getAttribute("src");
  const blocks = await page.locator('script[type="application/ld+json"]').evaluateAll((scripts) => scripts.map((s) => JSON.parse(s.textContent ?? "{}") as Record<string, unknown>));
  const ld = blocks.find((b) => b["@type"] === "Person") as { "@type": string; name: string; image: string };
  expect(ld).toMatchObject({ "@type": "Person", name: FULL_NAME });
  expect(ld.image).toBe(new URL(src!, page.url()).href);
});

test("a member sees the portrait and the biography's bold text and list", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await memberViaApi(page, newPerson("Portia"));
  await page.goto(pagePath);
  await expectPortraitShown(page, "portrait");
  const biography = page.getByTestId("biography");
  await expect(biography.locator("strong")).toHaveText("Steel City ace");
  await expect(biography.getByRole("listitem")).toHaveText(["Three pennants", "A perfect game in 1934"]);
  await page.goto("/enshrinees");
  await expectPortraitShown(page, "wall-portrait");
});
