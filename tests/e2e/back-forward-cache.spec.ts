/**
 * A visitor's page is `public` now (decision 054), so the browser may keep it in its back/forward
 * cache (or its HTTP cache). Shown again after its person signed in, it must not stay the visitor's
 * page: restored, the layout asks the server again; loaded, `Vary: Cookie` keeps the visitor's
 * copy from the member. Either way the bottom menu leads to the account, not to Login.
 */
import { expect, test } from "./test";
import { waitForHydration } from "./helpers";
import { memberViaApi, newPerson } from "./visitor-helpers";

test("a visitor's page shown again by Back after signing in shows the member's menu", async ({ page }) => {
  await page.goto("/about");
  const menu = page.getByRole("navigation", { name: "Bottom menu" });
  await expect(menu.getByRole("link", { name: "Login" })).toBeVisible();
  // A document navigation away (not a client-side one), so Back restores the document.
  await page.goto("/terms");
  await memberViaApi(page, newPerson("Bianca"));
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
  await expect(menu.getByRole("link", { name: /Account/ })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Login" })).toHaveCount(0);
});

test("a page restored from the back/forward cache asks the server again, hydrated or not", async ({ page }) => {
  const menu = page.getByRole("navigation", { name: "Bottom menu" });
  // Hydrated: the layout's listener.
  await page.goto("/about");
  await waitForHydration(page);
  await memberViaApi(page, newPerson("Bruno"));
  await expect(menu.getByRole("link", { name: "Login" })).toBeVisible();
  await page.evaluate(() => dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
  await expect(menu.getByRole("link", { name: /Account/ })).toBeVisible();
  // Not hydrated yet (a collection page waits for intent): the bootstrap hydrates it, then the layout asks.
  await page.context().clearCookies();
  const fresh = await page.context().newPage();
  await fresh.goto("/");
  await expect(fresh.locator("html[data-hydrated]")).toHaveCount(0);
  await memberViaApi(fresh, newPerson("Bea"));
  await fresh.evaluate(() => dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true })));
  const freshMenu = fresh.getByRole("navigation", { name: "Bottom menu" });
  await expect(freshMenu.getByRole("link", { name: /Account/ })).toBeVisible();
  await expect(freshMenu.getByRole("link", { name: "Login" })).toHaveCount(0);
});
