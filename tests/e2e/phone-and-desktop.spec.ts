/**
 * On a phone (390x844) and a desktop (1366x900): the mobile menu
 * closes on navigation, Escape and an outside tap, traps focus and gives it back; exhibit photos
 * change by swipe and arrow keys; every small target is at least 24x24 px; the favorite-story
 * back link follows the spec's rule; the bottom menu's mobile wording; the home page's Subscribe
 * link for an account without a valid ticket; a compact sticky bar on a phone; the payment
 * form's one-line row; the reset page's missing-token message on arrival.
 */
import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./test";
import type { ExhibitView } from "../../app/shared/catalog-types";
import { categoryPath, exhibitPath, favoriteStoryPath, teamPath } from "../../app/shared/exhibit-links";
import { DESCRIPTION_LIMIT } from "../../app/shared/text";
import { axe, expectNoSeriousA11yIssues, usableResetLink } from "./helpers";
import {
  allExhibits,
  bottomMenu,
  DESKTOP,
  favoriteStories,
  hydrated,
  memberViaApi,
  newPerson,
  PHONE,
  SCREENS,
  signUpViaApi,
} from "./visitor-helpers";
import { SERVER_MESSAGES } from "../../app/shared/messages";

const MISSING_TOKEN = "The reset link is missing its token.";

const menuButton = (page: Page) => page.getByTestId("mobile-menu").getByRole("button", { name: "Menu" });
const mobileNav = (page: Page) => page.getByRole("navigation", { name: "Main (mobile)" });

async function openMenu(page: Page) {
  await hydrated(page);
  await menuButton(page).click();
  await expect(mobileNav(page)).toBeVisible();
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
}

async function expectMenuClosed(page: Page) {
  await expect(mobileNav(page)).toBeHidden();
  await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
}

/** No target on the page is smaller than 24x24 px without the spacing that makes up for it (WCAG 2.5.8). */
async function expectTargetsBigEnough(page: Page) {
  const results = await axe(page).withRules(["target-size"]).analyze();
  expect(results.violations.map((v) => v.nodes.map((n) => n.target.join(" ")))).toEqual([]);
}

/** A member's active exhibit with several photos. */
async function exhibitWithPhotos(page: Page): Promise<ExhibitView> {
  const found = (await allExhibits(page.request)).find((e) => e.active && (e.exhibitPhotos ?? []).length >= 2 && (e.description ?? "").length > DESCRIPTION_LIMIT);
  expect(found, "no active exhibit with several photos (is this a member?)").toBeTruthy();
  return found!;
}

const thumb = (page: Page, n: number) => page.getByRole("button", { name: `Show photo ${n}`, exact: true });

async function expectPhoto(page: Page, n: number) {
  await expect(thumb(page, n)).toHaveAttribute("aria-current", "true");
}

/** Dispatches a real one-finger swipe (touchstart, touchmove..., touchend) through the DevTools protocol. */
async function swipe(page: Page, on: Locator, dx: number) {
  const box = (await on.boundingBox())!;
  const y = box.y + box.height / 2;
  const from = box.x + box.width / 2 - dx / 2;
  const client = await page.context().newCDPSession(page);
  await client.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from, y }] });
  for (let i = 1; i <= 10; i++) {
    await client.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: from + (dx * i) / 10, y }] });
  }
  await client.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await client.detach();
}

test.describe("the mobile menu (phone)", () => {
  test.use({ viewport: PHONE });

  test("closes when a page is chosen, and focus goes to the new page's heading", async ({ page }) => {
    await page.goto("/");
    await openMenu(page);
    // Opening moved focus into the menu.
    await expect(mobileNav(page).getByRole("link").first()).toBeFocused();
    await mobileNav(page).getByRole("link", { name: "About the Museum" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expectMenuClosed(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    // Nothing covers the new page: its heading takes the tap.
    await page.getByRole("heading", { level: 1 }).click();
  });

  test("closes on Escape, with focus back on its button", async ({ page }) => {
    await page.goto("/about");
    await openMenu(page);
    await page.keyboard.press("Escape");
    await expectMenuClosed(page);
    await expect(menuButton(page)).toBeFocused();
  });

  test("closes on a tap outside it", async ({ page }) => {
    await page.goto("/about");
    await openMenu(page);
    const heading = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
    await page.mouse.click(heading.x + 10, heading.y + heading.height / 2);
    await expectMenuClosed(page);
    await expect(page).toHaveURL(/\/about$/);
  });

  test("closes on Back, and when the Shop link opens its tab", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await bottomMenu(page).getByRole("link", { name: "About the Museum" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await openMenu(page);
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expectMenuClosed(page);

    await openMenu(page);
    await page.context().route("https://shop.pittsburghsportsmuseum.example/**", (route) => route.fulfill({ body: "shop" }));
    const [shop] = await Promise.all([page.waitForEvent("popup"), mobileNav(page).getByRole("link", { name: /Shop the Museum Store/ }).click()]);
    await shop.close();
    await expectMenuClosed(page);
  });

  test("keeps Tab inside itself while open", async ({ page }) => {
    await page.goto("/");
    await openMenu(page);
    const stops = await mobileNav(page).getByRole("link").count();
    const inside = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return Boolean(active && document.querySelector('[data-testid="mobile-menu"]')!.contains(active));
      });
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press("Tab");
      expect(await inside(), `after ${i + 1} Tab presses`).toBe(true);
    }
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await inside(), `after ${i + 1} Shift+Tab presses`).toBe(true);
    }
    await expectNoSeriousA11yIssues(page);
  });
});

test.describe("the mobile menu (desktop)", () => {
  test.use({ viewport: DESKTOP });

  test("is not shown; the main navigation is", async ({ page }) => {
    await page.goto("/");
    await expect(menuButton(page)).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main", exact: true })).toBeVisible();
  });

  // The walk found the museum's name squeezed onto 3-4 lines beside a signed-in person's links.
  test("keeps the museum's name on two lines and the bar on one row when signed in, with or without a ticket", async ({ page }) => {
    const expectOneRow = async () => {
      const name = page.getByRole("banner").getByRole("link").first().locator("span").first();
      const lines = await name.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
      expect(lines).toBe(2);
      const overflow = await name.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const nav = await page.getByRole("navigation", { name: "Main", exact: true }).boundingBox();
      const search = await page.getByTestId("site-search").boundingBox();
      expect(nav && search && Math.abs(nav.y + nav.height / 2 - (search.y + search.height / 2))).toBeLessThan(4);
      expect(await page.getByRole("banner").evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(80);
    };
    await signUpViaApi(page, newPerson("Bartholomew"));
    await page.goto("/about");
    await expect(page.getByRole("navigation", { name: "Main", exact: true }).getByRole("button", { name: "Logout" })).toBeVisible();
    await expectOneRow();
    await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
    await page.reload();
    await expect(page.getByTestId("greeting")).toHaveText("Hello, Bartholomew");
    await expectOneRow();
  });
});

test.describe("exhibit photos by swipe (phone with touch)", () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test("a swipe left shows the next photo, a swipe right the previous one", async ({ page }) => {
    await memberViaApi(page, newPerson("Swiper"));
    const exhibit = await exhibitWithPhotos(page);
    await page.goto(exhibitPath(exhibit));
    await hydrated(page);
    const photo = page.getByTestId("exhibit-photo").first();
    await photo.scrollIntoViewIfNeeded();
    await expectPhoto(page, 1);
    await swipe(page, page.getByTestId("photo-carousel").locator("[data-zoomed]").first(), -220);
    await expectPhoto(page, 2);
    await swipe(page, page.getByTestId("photo-carousel").locator("[data-zoomed]").nth(1), 220);
    await expectPhoto(page, 1);
  });
});

for (const screen of SCREENS) {
  test.describe(`exhibit photos by keyboard and target sizes (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("the arrow keys change the photo, but not while it is zoomed in", async ({ page }) => {
      await memberViaApi(page, newPerson("Keys"));
      const exhibit = await exhibitWithPhotos(page);
      await page.goto(exhibitPath(exhibit));
      await hydrated(page);
      const photos = page.getByTestId("photo-carousel").locator("[data-zoomed]");
      const viewer = page.getByTestId("photo-viewer");
      // The viewer is in the tab order.
      await page.getByRole("button", { name: "Read More" }).focus();
      await page.keyboard.press("Tab");
      await expect(viewer).toBeFocused();
      await expectPhoto(page, 1);
      await page.keyboard.press("ArrowRight");
      await expectPhoto(page, 2);
      await page.keyboard.press("ArrowLeft");
      await expectPhoto(page, 1);
      // From the Next photo button too.
      await page.getByRole("button", { name: "Next photo" }).focus();
      await page.keyboard.press("ArrowRight");
      await expectPhoto(page, 2);
      await page.keyboard.press("ArrowLeft");
      await expectPhoto(page, 1);
      // Zoomed in, the photo stays.
      await photos.first().dblclick();
      await expect(photos.first()).toHaveAttribute("data-zoomed", "true");
      await viewer.focus();
      await page.keyboard.press("ArrowRight");
      await expectPhoto(page, 1);
      await expectTargetsBigEnough(page);
    });

    test("the home banner's slide buttons and every other target are at least 24x24 px", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const carousel = page.getByRole("region", { name: screen.name === "phone" ? "Featured" : "Featured (desktop)", exact: true });
      const dots = carousel.getByRole("button", { name: /^Show slide \d$/ });
      await expect(dots).toHaveCount(5);
      for (const dot of await dots.all()) {
        const box = (await dot.boundingBox())!;
        expect(box.width).toBeGreaterThanOrEqual(24);
        expect(box.height).toBeGreaterThanOrEqual(24);
      }
      await expectTargetsBigEnough(page);
      await page.goto("/admission");
      await expectTargetsBigEnough(page);
    });
  });

  test.describe(`smaller points (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("a favorite story's back link: its category when active, its team when not", async ({ page }) => {
      const favorite = (await favoriteStories(page.request))[0];
      await page.goto("/favoritestories");
      await page.getByTestId("short-title-button").first().click();
      await expect(page).toHaveURL(new RegExp(`${favoriteStoryPath(favorite._id)}$`));
      const back = page.getByTestId("back-link");
      await expect(back).toHaveAttribute("href", categoryPath(favorite.team._id, favorite.category._id));
      await back.click();
      await expect(page).toHaveURL(new RegExp(`${categoryPath(favorite.team._id, favorite.category._id)}$`));
      await expect(page.getByTestId("exhibit-count")).toBeVisible();

      const inactive = (await allExhibits(page.request)).find((e) => !e.active);
      expect(inactive, "the demo collection has no inactive exhibit").toBeTruthy();
      await page.goto(favoriteStoryPath(inactive!._id));
      await expect(page.getByTestId("back-link")).toHaveAttribute("href", teamPath(inactive!.team._id));
    });

    test("the bottom menu uses the wording for the screen", async ({ page }) => {
      const phone = screen.name === "phone";
      await page.goto("/about");
      const links = bottomMenu(page).getByRole("link");
      const visitor = phone
        ? ["Museum Home", /^Shop the Museum Store/, "About the Museum", "Buy Your Ticket", "Contact Us", "Member Login"]
        : ["Home", /^Shop/, "About", "Admission", "Contact", "Login"];
      await expect(links).toHaveCount(visitor.length);
      for (const [i, name] of visitor.entries()) await expect(links.nth(i)).toHaveAccessibleName(name);
      for (const [i, name] of visitor.entries()) if (typeof name === "string") await expect(links.nth(i)).toHaveText(new RegExp(`^${name}$`, "i"), { useInnerText: true });

      await memberViaApi(page, newPerson("Menu"));
      await page.reload();
      await expect(bottomMenu(page).getByRole("button")).toHaveAccessibleName(phone ? "Log Out" : "Logout");
      await expect(bottomMenu(page).getByRole("link").first()).toHaveAccessibleName(phone ? "Museum Home" : "Home");
    });

    test("an account without a valid ticket counts as a visitor: the home page offers the newsletter", async ({ page }) => {
      await signUpViaApi(page, newPerson("Lapsed"));
      await page.goto("/");
      await expect(page.getByRole("link", { name: "Subscribe to our Newsletter" })).toHaveAttribute("href", "/subscribe");
      await expect(page.getByTestId("welcome")).toHaveText("Welcome to the Pittsburgh Sports Museum & Hall of Fame");
      await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
      await page.reload();
      await expect(page.getByRole("link", { name: "Subscribe to our Newsletter" })).toHaveCount(0);
    });

    test("the sticky top bar is compact", async ({ page }) => {
      await page.goto("/about");
      await hydrated(page);
      await page.evaluate(() => window.scrollTo(0, 2000));
      const bar = page.getByTestId("sticky-top");
      await expect.poll(async () => (await bar.boundingBox())!.y).toBe(0);
      const height = (await bar.boundingBox())!.height;
      // A phone keeps at least 92% of its height for the page; the desktop bar stays under 100 px.
      expect(height).toBeLessThanOrEqual(screen.name === "phone" ? 0.08 * PHONE.height : 100);
    });

    test("the payment form's expiration date, CVC and ZIP sit in one row, each label on one line", async ({ page }) => {
      await signUpViaApi(page, newPerson("Row"));
      await page.goto("/admission/payment");
      const fields = ["Expiration date", "CVC", "ZIP code"].map((l) => page.getByLabel(l, { exact: true }));
      const tops = await Promise.all(fields.map(async (f) => Math.round((await f.boundingBox())!.y)));
      expect(new Set(tops).size, `input tops ${tops.join(", ")}`).toBe(1);
      const labels = ["Expiration date", "CVC", "ZIP code"].map((l) => page.locator("label", { hasText: new RegExp(`^${l}$`) }));
      const heights = await Promise.all(labels.map(async (l) => Math.round((await l.boundingBox())!.height)));
      expect(new Set(heights).size, `label heights ${heights.join(", ")}`).toBe(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
    });

    test("the reset page checks its link on arrival: no form for a missing, cut or used one", async ({ page, request }) => {
      const cases: [string, string][] = [
        ["/password/reset", MISSING_TOKEN],
        ["/password/reset?token=x", SERVER_MESSAGES.resetLinkUnknown],
        ["/password/reset?token=abcdefghijklmnopqrstuvwxyz", SERVER_MESSAGES.resetLinkUnknown],
      ];
      for (const [path, message] of cases) {
        await page.goto(path);
        const notice = page.getByTestId("reset-token-missing");
        await expect(notice.getByRole("alert")).toHaveText(message);
        await expect(notice).toBeInViewport();
        await expect(notice.getByRole("link", { name: "Request a new reset link" })).toHaveAttribute("href", "/password/request");
        await expect(page.getByLabel("Confirm your new password")).toHaveCount(0);
      }
      await expectNoSeriousA11yIssues(page);
      // A usable link: the form; once used, the page says so and offers a new one.
      const link = await usableResetLink(request);
      await page.goto(link);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your account password");
      await expect(page.getByTestId("reset-token-missing")).toHaveCount(0);
      await page.getByLabel(/^Enter your new password/).fill("GoodPassw0rd");
      await page.getByLabel("Confirm your new password").fill("GoodPassw0rd");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(page.getByTestId("reset-alert")).toHaveText(SERVER_MESSAGES.resetDone);
      await page.goto(link);
      await expect(page.getByTestId("reset-token-missing").getByRole("alert")).toHaveText(SERVER_MESSAGES.resetLinkUsed);
      await expect(page.getByLabel("Confirm your new password")).toHaveCount(0);
      await expect(page.getByTestId("reset-token-missing").getByRole("link", { name: "Request a new reset link" })).toBeInViewport();
    });
  });
}
