/**
 * On a phone (390x844) and a desktop (1366x900): every page of the
 * site can be left by a link and by its timed redirect without meeting the error page (leaving
 * /subscribe used to crash the next page), and an alert ends with its timer or with the page
 * that raised it (the welcome-back, payment and unpaid messages used to follow the member).
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { categoryPath, enshrineeExhibitPath, enshrineePath, exhibitPath, favoriteStoryPath, teamPath } from "../../app/shared/exhibit-links";
import { CONTACT_MESSAGES, SERVER_MESSAGES, SUBSCRIBE_MESSAGES } from "../../app/shared/messages";
import { TIMING } from "../../app/lib/timing";
import { firstLink, waitForMail } from "./mail-capture";
import {
  alertBanner,
  allExhibits,
  bottomMenu,
  enshrineeWithExhibit,
  expectNoErrorPage,
  favoriteStories,
  fillCard,
  fillSignUp,
  freeze,
  hydrated,
  installClock,
  newPerson,
  SCREENS,
  signUpViaApi,
  submitLogin,
  unique,
  watchForCrashes,
} from "./visitor-helpers";

const welcome = (page: Page) => page.getByTestId("welcome");

/**
 * A new account that has not paid logs in on /login with the page's clock stopped: the unpaid
 * message shows, the clock is moved past its redirect, and the address is the payment page's.
 */
async function loginUnpaidUntilRedirect(page: Page, firstName: string) {
  const p = newPerson(firstName);
  await signUpViaApi(page, p);
  await page.context().clearCookies();
  await installClock(page);
  await page.goto("/login");
  await freeze(page);
  await submitLogin(page, p.email, p.password);
  await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginUnpaid);
  await page.clock.runFor(TIMING.loginUnpaidRedirect + 100);
  await expect(page).toHaveURL(/\/admission\/payment$/);
}

for (const screen of SCREENS) {
  test.describe(`leaving every page (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("each page can be left by a link without the error page", async ({ page }) => {
      test.setTimeout(120_000);
      const exhibits = await allExhibits(page.request);
      const active = exhibits.find((e) => e.active)!;
      const person = await enshrineeWithExhibit(page.request);
      const favorite = (await favoriteStories(page.request))[0];
      const pages = [
        "/",
        teamPath(active.team._id),
        categoryPath(active.team._id, active.category._id),
        exhibitPath(active),
        enshrineeExhibitPath(person, person.exhibits[0]._id),
        favoriteStoryPath(favorite._id),
        "/enshrinees",
        enshrineePath(person),
        "/favoritestories",
        "/about",
        "/contact",
        "/subscribe",
        "/termsandconditions",
        "/admission",
        "/login",
        "/password/request",
        "/password/reset?token=abcdefghijklmnopqrstuvwxyz",
        "/password/reset",
        "/admission/payment",
        "/no/such/page",
        "/__error-probe",
      ];
      const crashes = watchForCrashes(page);
      for (const path of pages) {
        await page.goto(path);
        await hydrated(page);
        // The footer's Privacy Policy link is on every page, at every size.
        await page.locator("footer").getByRole("link", { name: "Privacy Policy" }).click();
        await expect(page, `leaving ${path}`).toHaveURL(/\/privacypolicy$/);
        await expect(page.getByRole("heading", { level: 1 }), `leaving ${path}`).toHaveText("Privacy Policy");
        await expectNoErrorPage(page);
      }
      // And the privacy page itself, and a signed-in visitor's payment page.
      await page.locator("footer").getByRole("link", { name: "Terms and Conditions" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms and Conditions");
      await signUpViaApi(page, newPerson("Leaver"));
      await page.goto("/admission/payment");
      await hydrated(page);
      await expect(page.getByTestId("test-card-form")).toBeVisible();
      await page.locator("footer").getByRole("link", { name: "Privacy Policy" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy Policy");
      await expectNoErrorPage(page);
      expect(crashes).toEqual([]);
    });

    test("/subscribe: after subscribing, / 3 s later without the error page", async ({ page }) => {
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto("/subscribe");
      await freeze(page);
      await page.getByLabel("First Name").fill("Lee");
      await page.getByLabel("Last Name").fill("Fan");
      await page.getByLabel("Email Address").fill(`lee${unique()}@example.com`);
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByTestId("subscribe-result")).toHaveText(SUBSCRIBE_MESSAGES.success);
      await page.clock.runFor(TIMING.subscribeRedirect + 100);
      await expect(page).toHaveURL(/\/$/);
      await expect(welcome(page)).toBeVisible();
      await expectNoErrorPage(page);
      expect(crashes).toEqual([]);
    });

    test("/contact: after sending, / 3.5 s later without the error page", async ({ page }) => {
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto("/contact");
      await freeze(page);
      await page.getByLabel("First name", { exact: true }).fill("Pat");
      await page.getByLabel("Last name", { exact: true }).fill("Fan");
      await page.getByLabel("Email address", { exact: true }).fill(`pat${unique()}@example.com`);
      await page.getByLabel("Subject").selectOption("Comment");
      await page.getByLabel("Message", { exact: true }).fill("Leaving by the timer.");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByTestId("contact-result")).toHaveText(CONTACT_MESSAGES.success);
      await page.clock.runFor(TIMING.contactRedirect + 100);
      await expect(page).toHaveURL(/\/$/);
      await expect(welcome(page)).toBeVisible();
      expect(crashes).toEqual([]);
    });

    for (const [path, ms, to] of [
      ["/no/such/page", TIMING.notFoundRedirect, /\/$/],
      ["/__error-probe", TIMING.errorPageRedirect, /\/$/],
      ["/admission/payment", TIMING.notLoggedInRedirect, /\/login$/],
    ] as const) {
      test(`${path} moves on by itself after ${ms / 1000} s without the error page`, async ({ page }) => {
        const crashes = watchForCrashes(page);
        await installClock(page);
        await page.goto(path);
        await freeze(page);
        await page.clock.runFor(ms);
        await expect(page).toHaveURL(to);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expectNoErrorPage(page);
        expect(crashes).toEqual([]);
      });
    }

    test("/password/request: after the request, / 3 s later", async ({ page }) => {
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto("/password/request");
      await freeze(page);
      await page.getByLabel("Email address", { exact: true }).fill(`nobody${unique()}@example.com`);
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.resetRequested);
      await page.clock.runFor(TIMING.forgotPasswordRedirect + 100);
      await expect(page).toHaveURL(/\/$/);
      await expect(welcome(page)).toBeVisible();
      // The success message belonged to the request page.
      await expect(alertBanner(page)).toHaveCount(0);
      expect(crashes).toEqual([]);
    });

    test("/password/reset: after the reset, /login 3 s later", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Resetter");
      await signUpViaApi(page, p);
      await page.context().clearCookies();
      const asked = await page.request.post("/api/users/request-reset", { data: { emailAddress: p.email } });
      expect(asked.ok()).toBe(true);
      const link = new URL(firstLink((await waitForMail(p.email, "password", 20_000)).text));
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto(link.pathname + link.search);
      await freeze(page);
      await page.getByLabel(/^Enter your new password/).fill("N3wGoldBlack!");
      await page.getByLabel("Confirm your new password").fill("N3wGoldBlack!");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(page.getByTestId("reset-alert")).toHaveText(SERVER_MESSAGES.resetDone);
      await page.clock.runFor(TIMING.resetRedirect + 100);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Member Login");
      expect(crashes).toEqual([]);
    });

    test("/admission: an email in use goes to /login 3.5 s later, and its alert stays behind", async ({ page }) => {
      const p = newPerson("Taken");
      await signUpViaApi(page, p);
      await page.context().clearCookies();
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto("/admission");
      await freeze(page);
      await fillSignUp(page, { ...p, firstName: "Other" });
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.emailTaken);
      await page.clock.runFor(TIMING.signUpFailureRedirect + 100);
      await expect(page).toHaveURL(/\/login$/);
      await expect(alertBanner(page)).toHaveCount(0);
      expect(crashes).toEqual([]);
    });
  });

  test.describe(`alerts end with their page (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("'Welcome back' stays on /login: not on /, /about or /contact", async ({ page }) => {
      const p = newPerson("Welcome");
      await signUpViaApi(page, p);
      await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
      await page.context().clearCookies();
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto("/login");
      await freeze(page);
      await submitLogin(page, p.email, p.password);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginSuccess(p.firstName));
      await page.clock.runFor(TIMING.loginSuccessRedirect + 100);
      await expect(page).toHaveURL(/\/$/);
      await expect(welcome(page)).toContainText(p.firstName.toUpperCase());
      await expect(alertBanner(page)).toHaveCount(0);
      await page.locator("footer").getByRole("link", { name: "Terms and Conditions" }).click();
      await expect(page).toHaveURL(/\/termsandconditions$/);
      await expect(alertBanner(page)).toHaveCount(0);
      await bottomMenu(page).getByRole("link", { name: /^(About|About the Museum)$/ }).click();
      await expect(page).toHaveURL(/\/about$/);
      await expect(alertBanner(page)).toHaveCount(0);
      await bottomMenu(page).getByRole("link", { name: /^(Contact|Contact Us)$/ }).click();
      await expect(page).toHaveURL(/\/contact$/);
      await expect(alertBanner(page)).toHaveCount(0);
      expect(crashes).toEqual([]);
    });

    test("leaving /login before the redirect ends the welcome message too", async ({ page }) => {
      const p = newPerson("Hasty");
      await signUpViaApi(page, p);
      await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
      await page.context().clearCookies();
      await installClock(page);
      await page.goto("/login");
      await freeze(page);
      await submitLogin(page, p.email, p.password);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginSuccess(p.firstName));
      await page.locator("footer").getByRole("link", { name: "Privacy Policy" }).click();
      await expect(page).toHaveURL(/\/privacypolicy$/);
      await expect(alertBanner(page)).toHaveCount(0);
      // The login page's timer went with it: no trip home later.
      await page.clock.runFor(TIMING.loginSuccessRedirect + 100);
      await expect(page).toHaveURL(/\/privacypolicy$/);
    });

    test("the payment success message stays on the payment page", async ({ page }) => {
      await signUpViaApi(page, newPerson("Payer"));
      await installClock(page);
      await page.goto("/admission/payment");
      await freeze(page);
      await fillCard(page);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.paymentSuccess);
      await page.clock.runFor(TIMING.paymentRedirect + 100);
      await expect(page).toHaveURL(/\/$/);
      await expect(alertBanner(page)).toHaveCount(0);
      await page.locator("footer").getByRole("link", { name: "Privacy Policy" }).click();
      await expect(alertBanner(page)).toHaveCount(0);
    });

    test("the unpaid message stays on /login: not on the payment page it leads to", async ({ page }) => {
      await loginUnpaidUntilRedirect(page, "Unpaid");
      await expect(page.getByTestId("test-card-form")).toBeVisible();
      await expect(alertBanner(page)).toHaveCount(0);
    });

    test("an alert raised as a page opens is kept: the logout message on /login", async ({ page }) => {
      const p = newPerson("Leaving");
      await signUpViaApi(page, p);
      await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
      await installClock(page);
      await page.goto("/about");
      await freeze(page);
      await bottomMenu(page).getByRole("button", { name: /^(Logout|Log Out)$/ }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.logout);
      await page.clock.runFor(TIMING.logoutAlert + 100);
      await expect(alertBanner(page)).toHaveCount(0);
    });
  });
}

/**
 * React Router 7.18 ends a navigation that is still discovering its route with the old page's
 * routes when a form's reload of the layout finishes meanwhile: the address bar showed
 * /admission/payment over the login page (CI, twice). Here the reload after the login is held
 * until the payment page's route is asked for, which makes that order certain.
 */
test("a timed redirect waits for the reload after the login: the payment page, not the login page under its address", async ({ page }) => {
  let routeAsked = false;
  let onRouteAsked = () => {};
  const routeAskedFor = new Promise<void>((resolve) => (onRouteAsked = resolve));
  let onReloadAnswered = () => {};
  const reloadAnswered = new Promise<void>((resolve) => (onReloadAnswered = resolve));
  await page.route(/\/login\.data\?_routes=/, async (route) => {
    await Promise.race([routeAskedFor, new Promise((resolve) => setTimeout(resolve, 1500))]);
    await route.fulfill({ response: await route.fetch() });
    setTimeout(onReloadAnswered, 300);
  });
  await page.route(/\/__manifest\?paths=[^&]*admission%2Fpayment/, async (route) => {
    routeAsked = true;
    onRouteAsked();
    await reloadAnswered;
    await route.continue();
  });
  await loginUnpaidUntilRedirect(page, "Slow");
  await expect(page.getByTestId("test-card-form")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Member Login" })).toHaveCount(0);
  expect(routeAsked).toBe(true);
});
