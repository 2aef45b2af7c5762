/**
 * Issue 26 point 4: an exhibit photo zooms in on a double tap (phone) or double click (mouse),
 * and the next one zooms it back out, whatever the gap between the two taps. Taps are real
 * touches through the DevTools protocol (touchstart, 90 ms, touchend), as a finger makes them.
 */
import { expect, test, type Page } from "@playwright/test";
import { exhibitPath } from "../../app/shared/exhibit-links";
import { allExhibits, DESKTOP, memberViaApi, newPerson, PHONE } from "./visitor-helpers";

/** Opens an exhibit with photos as a member, with the page's scripts running; returns its first photo. */
async function firstPhoto(page: Page) {
  await memberViaApi(page, newPerson("Zoomer"));
  const exhibit = (await allExhibits(page.request)).find((e) => e.active && (e.exhibitPhotos ?? []).length >= 1);
  expect(exhibit, "an exhibit with photos").toBeTruthy();
  await page.goto(exhibitPath(exhibit!));
  // Scripts wait for a person's first intent (decision 016): give one.
  await page.keyboard.press("Shift");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 20_000 });
  const photo = page.getByTestId("photo-carousel").locator("[data-zoomed]").first();
  await photo.scrollIntoViewIfNeeded();
  const box = (await photo.boundingBox())!;
  return { photo, point: { x: box.x + box.width / 2, y: box.y + box.height / 2 } };
}

test.describe("double-tap zoom on a phone", () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  for (const gap of [60, 120, 200]) {
    test(`a double tap with ${gap} ms between the taps zooms in, the next zooms back out`, async ({ page }) => {
      test.setTimeout(60_000);
      const { photo, point } = await firstPhoto(page);
      const client = await page.context().newCDPSession(page);
      const tap = async () => {
        await client.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
        await page.waitForTimeout(90);
        await client.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      };
      const doubleTap = async () => {
        await tap();
        await page.waitForTimeout(gap);
        await tap();
        // Long enough for any late second handler (the browser's dblclick) and the zoom's animation,
        // and, on a loaded machine, for this pair's last tap to lie well past the 500 ms window
        // before the next pair's first tap (a person pauses between zooming in and out).
        await page.waitForTimeout(1_200);
      };
      for (const expected of ["true", "false", "true", "false"]) {
        await doubleTap();
        await expect(photo).toHaveAttribute("data-zoomed", expected);
      }
      await client.detach();
    });
  }
});

test.describe("double-click zoom with a mouse", () => {
  test.use({ viewport: DESKTOP });

  test("a double click zooms in, the next zooms back out", async ({ page }) => {
    test.setTimeout(60_000);
    const { photo, point } = await firstPhoto(page);
    for (const expected of ["true", "false", "true"]) {
      await page.mouse.dblclick(point.x, point.y);
      await page.waitForTimeout(700);
      await expect(photo).toHaveAttribute("data-zoomed", expected);
    }
  });
});
