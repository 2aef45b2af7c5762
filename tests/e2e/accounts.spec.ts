/**
 * Accounts in a real browser: sign-up, test-mode payment, member pages, logout, login, password
 * reset by email (captured by tests/e2e/mail-capture.ts), every timed message and redirect
 * (Playwright clock), validation, card errors, and accessibility of the account pages.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { SERVER_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { TIMING } from "../../app/lib/timing";
import { CARD_MESSAGES } from "../../server/payments/test-cards.server";
import { expectNoSeriousA11yIssues, freezeClock, msSincePageShown } from "./helpers";
import { firstLink, waitForMail } from "./mail-capture";
import { fillCard, fillSignUp, isFormPost, memberViaApi, newPerson, signUpViaApi, submitLogin } from "./visitor-helpers";

const alertBanner = (page: Page) => page.getByTestId("alert-banner");
const bottomMenu = (page: Page) => page.getByRole("navigation", { name: "Bottom menu" });

/**
 * Installs Playwright's fake clock, paused: the page's timers then run only through
 * page.clock.runFor, so "not yet at ms - 100, done at ms + 100" does not depend on how long the
 * browser took. (install() alone lets the fake time flow with real time.)
 */
/**
 * Opens `path` with the page's clock installed, waits until its scripts run, then stops the clock:
 * from then on only page.clock.runFor() moves time, so the timers a form's answer starts are
 * measured exactly. Acting before the scripts run would post the form natively, and that answer's
 * timers count from the new page's first paint instead (a busy machine paints late).
 */
async function openWithPausedClock(page: Page, path: string) {
  await page.clock.install();
  await page.goto(path);
  await freezeClock(page);
}

async function logOutWithBottomMenu(page: Page) {
  await bottomMenu(page).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe("membership journey", () => {
  test("sign up, pay, read a biography, log out and in, reset the password by email", async ({ page }) => {
    test.setTimeout(120_000);
    const p = newPerson("Roberto");
    const newPassword = "N3wGoldBlack!";

    // Admission: price and validity, live match icons, terms.
    await openWithPausedClock(page, "/admission");
    await expect(page.getByTestId("price")).toContainText("$6.99");
    await expect(page.getByTestId("price")).toContainText("120 days");
    await page.getByLabel("First name", { exact: true }).fill(p.firstName);
    await page.getByLabel("Last name", { exact: true }).fill(p.lastName);
    await page.getByLabel("Email address", { exact: true }).fill(p.email);
    await page.getByLabel("Confirm email address").fill(`x${p.email}`);
    const emailsDiffer = page.getByRole("img", { name: "Email addresses do not match", exact: true });
    await expect(emailsDiffer).toHaveText("⊘");
    await expect(emailsDiffer).toHaveAttribute("data-status", "block");
    await page.getByLabel("Confirm email address").fill(p.email);
    const emailsMatch = page.getByRole("img", { name: "Email addresses match", exact: true });
    await expect(emailsMatch).toHaveText("✓");
    await expect(emailsMatch).toHaveAttribute("data-status", "ok");
    await expect(emailsDiffer).toHaveCount(0);
    await page.getByLabel(/^Password \(\d+-\d+ characters\)$/).fill(p.password);
    await page.getByLabel("Confirm password").fill(`${p.password}x`);
    const passwordsDiffer = page.getByRole("img", { name: "Passwords do not match", exact: true });
    await expect(passwordsDiffer).toHaveText("⊘");
    await page.getByLabel("Confirm password").fill(p.password);
    const passwordsMatch = page.getByRole("img", { name: "Passwords match", exact: true });
    await expect(passwordsMatch).toHaveText("✓");
    await expect(passwordsDiffer).toHaveCount(0);
    await page.getByRole("checkbox", { name: /agree to the Terms and Conditions/ }).check();
    await page.getByRole("button", { name: "Proceed to Payment" }).click();

    // Payment: greeting, price, test card, success, / after 3.5 s.
    await expect(page).toHaveURL(/\/admission\/payment$/);
    await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("$6.99");
    await fillCard(page, { number: "4242 4242 4242 4242" });
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.paymentSuccess);
    await page.clock.runFor(TIMING.paymentRedirect - 100);
    await expect(page).toHaveURL(/\/admission\/payment$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("welcome")).toContainText(p.firstName.toUpperCase());
    await expect(page.getByTestId("greeting")).toHaveText(`Hello, ${p.firstName}`);

    // A member reads a biography.
    await page.goto("/enshrinees");
    await page.getByTestId("enshrinee-list").getByRole("link").first().click();
    await expect(page).toHaveURL(/\/enshrinees\/[^/]+\/[^/]+$/);
    const enshrineeUrl = page.url();
    await expect(page.getByTestId("biography")).toBeVisible();
    await expect(page.getByTestId("ticket-banner")).toHaveCount(0);

    // Logout: /login with the alert for 4.5 s.
    await logOutWithBottomMenu(page);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.logout);
    await page.clock.runFor(TIMING.logoutAlert - 100);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.logout);
    await page.clock.runFor(200);
    await expect(alertBanner(page)).toHaveCount(0);

    // A visitor again: the ticket banner instead of the biography.
    await page.goto(enshrineeUrl);
    await expect(page.getByTestId("ticket-banner")).toBeVisible();
    await expect(page.getByTestId("biography")).toHaveCount(0);

    // Login: the welcome-back message, / after 2 s.
    await page.goto("/login");
    await submitLogin(page, p.email, p.password);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginSuccess(p.firstName));
    await page.clock.runFor(TIMING.loginSuccessRedirect - 100);
    await expect(page).toHaveURL(/\/login$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("greeting")).toHaveText(`Hello, ${p.firstName}`);
    await logOutWithBottomMenu(page);

    // Forgot password: the same answer for everyone, / after 3 s.
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/password\/request$/);
    await page.getByLabel("Email address", { exact: true }).fill(p.email);
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.resetRequested);
    await page.clock.runFor(TIMING.forgotPasswordRedirect - 100);
    await expect(page).toHaveURL(/\/password\/request$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/$/);

    // The reset email's link, on this test server.
    const mail = await waitForMail(p.email, "password", 20_000);
    const link = new URL(firstLink(mail.text));
    expect(link.pathname).toBe("/password/reset");
    expect(link.searchParams.get("token")).toBeTruthy();
    await page.goto(link.pathname + link.search);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reset your account password");
    await page.getByLabel(/^Enter your new password/).fill(newPassword);
    await page.getByLabel("Confirm your new password").fill(newPassword);
    await page.getByRole("button", { name: "Submit Request" }).click();
    await expect(page.getByTestId("reset-alert")).toHaveText(SERVER_MESSAGES.resetDone);
    await page.clock.runFor(TIMING.resetRedirect - 100);
    await expect(page).toHaveURL(/\/password\/reset\?token=/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/login$/);

    // The new password works, the old one no longer does.
    await submitLogin(page, p.email, newPassword);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginSuccess(p.firstName));
    await page.clock.runFor(TIMING.loginSuccessRedirect + 100);
    await expect(page).toHaveURL(/\/$/);
    await logOutWithBottomMenu(page);
    await submitLogin(page, p.email, p.password);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginFailed);
  });
});

test.describe("payment card errors", () => {
  const cases: { label: string; number: string; expiry?: string; message: string }[] = [
    { label: "a declined card", number: "4000 0000 0000 0002", message: CARD_MESSAGES.declined },
    { label: "insufficient funds", number: "4000 0000 0000 9995", message: CARD_MESSAGES.insufficientFunds },
    { label: "an expired card", number: "4000 0000 0000 0069", message: CARD_MESSAGES.expiredCard },
    // Stripe's other declining test cards (server/payments/test-cards.server.ts).
    { label: "a lost card", number: "4000 0000 0000 9987", message: CARD_MESSAGES.declined },
    { label: "a stolen card", number: "4000 0000 0000 9979", message: CARD_MESSAGES.declined },
    { label: "an incorrect security code", number: "4000 0000 0000 0127", message: CARD_MESSAGES.incorrectCvc },
    { label: "a failing CVC check", number: "4000 0000 0000 0101", message: CARD_MESSAGES.incorrectCvc },
    { label: "a processing error", number: "4000 0000 0000 0119", message: CARD_MESSAGES.processingError },
    { label: "a card that fails once attached", number: "4000 0000 0000 0341", message: CARD_MESSAGES.declined },
    { label: "a number failing the Luhn check", number: "4242 4242 4242 4241", message: CARD_MESSAGES.invalidNumber },
    { label: "an expiry date in the past", number: "4242 4242 4242 4242", expiry: "01/20", message: CARD_MESSAGES.expiryInPast },
  ];
  for (const c of cases) {
    test(`${c.label} shows its message for 3.5 s and charges nothing`, async ({ page }) => {
      const p = newPerson("Card");
      await signUpViaApi(page, p);
      await openWithPausedClock(page, "/admission/payment");
      await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
      await fillCard(page, c);
      await expect(alertBanner(page)).toHaveText(c.message);
      await expect(alertBanner(page)).toHaveAttribute("data-alert-type", "danger");
      await page.clock.runFor(TIMING.paymentCardError - 100);
      await expect(alertBanner(page)).toHaveText(c.message);
      await page.clock.runFor(200);
      await expect(alertBanner(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/admission\/payment$/);
      await expect(page.getByTestId("test-card-form")).toBeVisible();
    });
  }
});

test.describe("login", () => {
  test("an invalid email is refused in the browser for 3.5 s without a request", async ({ page }) => {
    await openWithPausedClock(page, "/login");
    const posts: string[] = [];
    page.on("request", (r) => {
      if (isFormPost(r)) posts.push(r.url());
    });
    await submitLogin(page, "not-an-email", "whatever123");
    await expect(alertBanner(page)).toHaveText(VALIDATION.loginEmailInvalid);
    await page.clock.runFor(TIMING.invalidEmail - 100);
    await expect(alertBanner(page)).toHaveText(VALIDATION.loginEmailInvalid);
    await page.clock.runFor(200);
    await expect(alertBanner(page)).toHaveCount(0);
    expect(posts).toEqual([]);
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password shows the server's message for 4 s", async ({ page }) => {
    const p = newPerson("Wrong");
    await signUpViaApi(page, p);
    await page.context().clearCookies();
    await openWithPausedClock(page, "/login");
    await submitLogin(page, p.email, "NotMyPassw0rd");
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginFailed);
    await page.clock.runFor(TIMING.loginError - 100);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginFailed);
    await page.clock.runFor(200);
    await expect(alertBanner(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test("an unpaid account is told to pay and sent to payment after 7.5 s", async ({ page }) => {
    const p = newPerson("Unpaid");
    await signUpViaApi(page, p);
    await page.context().clearCookies();
    await openWithPausedClock(page, "/login");
    await submitLogin(page, p.email, p.password);
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginUnpaid);
    await page.clock.runFor(TIMING.loginUnpaidRedirect - 100);
    await expect(page).toHaveURL(/\/login$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/admission\/payment$/);
    await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
  });
});

test.describe("sign-up validation", () => {
  test("an empty form asks for the first name; the alert clears after 4 s", async ({ page }) => {
    await openWithPausedClock(page, "/admission");
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(alertBanner(page)).toHaveText(VALIDATION.firstNameRequired);
    await page.clock.runFor(TIMING.signUpAlert - 100);
    await expect(alertBanner(page)).toHaveText(VALIDATION.firstNameRequired);
    await page.clock.runFor(200);
    await expect(alertBanner(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/admission$/);
  });

  test("an email already in use is refused, then /login after 3.5 s", async ({ page }) => {
    const p = newPerson("Taken");
    await signUpViaApi(page, p);
    await page.context().clearCookies();
    await openWithPausedClock(page, "/admission");
    await fillSignUp(page, { ...p, firstName: "Other" });
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.emailTaken);
    await page.clock.runFor(TIMING.signUpFailureRedirect - 100);
    await expect(page).toHaveURL(/\/admission$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("access", () => {
  test("payment without an account says to log in, then /login after 5 s", async ({ page }) => {
    await page.clock.install();
    await page.goto("/admission/payment");
    await expect(page.getByTestId("not-logged-in")).toHaveText(SERVER_MESSAGES.notLoggedInForPayment);
    await expect(page.getByTestId("test-card-form")).toHaveCount(0);
    await freezeClock(page);
    // The timer counts from the first paint, not from the scripts (on a busy machine they run later): run to 100 ms before it is due.
    await page.clock.runFor(TIMING.notLoggedInRedirect - (await msSincePageShown(page)) - 100);
    await expect(page).toHaveURL(/\/admission\/payment$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a member opening /login or /admission is sent home", async ({ page }) => {
    const p = newPerson("Member");
    await memberViaApi(page, p);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("greeting")).toHaveText(`Hello, ${p.firstName}`);
    await page.goto("/admission");
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("accessibility of the account pages", () => {
  for (const path of ["/admission", "/login", "/password/request", "/password/reset?token=x"]) {
    test(`${path} has no serious accessibility issues`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoSeriousA11yIssues(page);
    });
  }

  test("/admission/payment (signed in) has no serious accessibility issues", async ({ page }) => {
    const p = newPerson("Access");
    await signUpViaApi(page, p);
    await page.goto("/admission/payment");
    await expect(page.getByTestId("test-card-form")).toBeVisible();
    await expectNoSeriousA11yIssues(page);
  });
});
