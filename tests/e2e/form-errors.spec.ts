/**
 * On a phone (390x844) and a desktop (1366x900). A refused form shows
 * its error where the person is looking: the alert is on screen and announced (role="alert"),
 * focus is on the first invalid field, which is in view (not under the sticky bar), marked
 * aria-invalid and described by its message. And a failed submission keeps what was typed, on
 * every form, including when no answer comes back at all (a dropped connection).
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { CONTACT_MESSAGES, PAGE_MESSAGES, SERVER_MESSAGES, SUBSCRIBE_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { CARD_MESSAGES } from "../../server/payments/test-cards.server";
import { expectNoSeriousA11yIssues, usableResetLink, waitForHydration } from "./helpers";

/** axe needs timers: the paused clock runs meanwhile (the fields stay marked), then stops again. */
async function a11yCheck(page: Page) {
  await page.clock.resume();
  await expectNoSeriousA11yIssues(page);
  await freeze(page);
}
import {
  alertBanner,
  expectAlertInView,
  expectFieldError,
  expectInClearView,
  expectNoErrorPage,
  fillSignUp,
  freeze,
  installClock,
  newPerson,
  SCREENS,
  signUpField,
  signUpViaApi,
  unique,
} from "./visitor-helpers";

/** Page forms post to `<path>.data`; this makes the first such POST get no answer at all. */
async function dropFirstFormPost(page: Page, path: string) {
  let dropped = false;
  await page.route(`**${path}.data*`, async (route) => {
    if (route.request().method() !== "POST" || dropped) return route.fallback();
    dropped = true;
    await route.abort("connectionreset");
  });
}

/** Opens `path` with the clock paused after hydration, so no alert timer runs out mid-test. */
async function open(page: Page, path: string) {
  await installClock(page);
  await page.goto(path);
  await freeze(page);
}

for (const screen of SCREENS) {
  test.describe(`errors are shown where the person is looking (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("sign-up: a missing terms box, pressed at the bottom of the form, is shown and focused", async ({ page }) => {
      await open(page, "/admission");
      await fillSignUp(page, newPerson("Terms"), { terms: false });
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expectAlertInView(page, VALIDATION.termsRequired);
      await expectFieldError(page, signUpField.terms(page), VALIDATION.termsRequired);
      // Ticking the box clears its mark.
      await signUpField.terms(page).check();
      await expect(signUpField.terms(page)).not.toHaveAttribute("aria-invalid", "true");
      await expect(page).toHaveURL(/\/admission$/);
    });

    test("sign-up: an empty form marks every field and focuses the first", async ({ page }) => {
      await open(page, "/admission");
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expectAlertInView(page, VALIDATION.firstNameRequired);
      await expectFieldError(page, signUpField.firstName(page), VALIDATION.firstNameRequired);
      await expect(signUpField.lastName(page)).toHaveAccessibleDescription(VALIDATION.lastNameRequired);
      await expect(signUpField.terms(page)).toHaveAttribute("aria-invalid", "true");
      await a11yCheck(page);
    });

    test("sign-up: mismatched passwords are shown on the confirm field", async ({ page }) => {
      await open(page, "/admission");
      const p = newPerson("Mismatch");
      await fillSignUp(page, p, { terms: false });
      await signUpField.confirmPassword(page).fill(`${p.password}x`);
      await signUpField.terms(page).check();
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expectAlertInView(page, VALIDATION.passwordsMismatch);
      await expectFieldError(page, signUpField.confirmPassword(page), VALIDATION.passwordsMismatch);
    });

    test("login: an invalid email, then a wrong password", async ({ page }) => {
      const p = newPerson("Login");
      await signUpViaApi(page, p);
      await page.context().clearCookies();
      await open(page, "/login");
      const email = page.getByLabel("Email address", { exact: true });
      const password = page.getByLabel("Password", { exact: true });
      await email.fill("not-an-email");
      await password.fill("whatever123");
      await page.getByRole("button", { name: "Login Now" }).click();
      await expectAlertInView(page, VALIDATION.loginEmailInvalid);
      await expectFieldError(page, email, VALIDATION.loginEmailInvalid);
      await email.fill(p.email);
      await expect(email).not.toHaveAttribute("aria-invalid", "true");
      await password.fill("NotMyPassw0rd");
      await page.getByRole("button", { name: "Login Now" }).click();
      await expectAlertInView(page, SERVER_MESSAGES.loginFailed);
      await expectFieldError(page, password, SERVER_MESSAGES.loginFailed);
      // What was typed is still there.
      await expect(email).toHaveValue(p.email);
      await expect(password).toHaveValue("NotMyPassw0rd");
    });

    test("forgot password: an empty email", async ({ page }) => {
      await open(page, "/password/request");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expectAlertInView(page, VALIDATION.forgotEmailRequired);
      await expectFieldError(page, page.getByLabel("Email address", { exact: true }), VALIDATION.forgotEmailRequired);
      await a11yCheck(page);
    });

    test("reset password: mismatched and too short passwords", async ({ page, request }) => {
      await open(page, await usableResetLink(request));
      const password = page.getByLabel(/^Enter your new password/);
      const confirm = page.getByLabel("Confirm your new password");
      await password.fill("GoodPassw0rd");
      await confirm.fill("OtherPassw0rd");
      await page.getByRole("button", { name: "Submit Request" }).click();
      const box = page.getByTestId("reset-alert").getByRole("alert");
      await expect(box).toHaveText(VALIDATION.resetPasswordsMismatch);
      await expect(box).toBeInViewport({ ratio: 1 });
      await expectFieldError(page, confirm, VALIDATION.resetPasswordsMismatch);
      await password.fill("short");
      await confirm.fill("short");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(box).toHaveText(VALIDATION.resetPasswordLength);
      await expectFieldError(page, password, VALIDATION.resetPasswordLength);
    });

    test("contact: the spec's message on each missing field, the first focused", async ({ page }) => {
      await open(page, "/contact");
      await page.getByLabel("Email address", { exact: true }).fill(`pat${unique()}@example.com`);
      await page.getByRole("button", { name: "Send Message" }).click();
      await expectAlertInView(page, VALIDATION.firstNameRequired);
      const firstName = page.getByLabel("First name", { exact: true });
      await expectFieldError(page, firstName, VALIDATION.firstNameRequired);
      await expect(page.getByLabel("Last name", { exact: true })).toHaveAccessibleDescription(VALIDATION.lastNameRequired);
      await expect(page.getByLabel("Subject")).toHaveAccessibleDescription(VALIDATION.subjectRequired);
      await expect(page.getByLabel("Message", { exact: true })).toHaveAccessibleDescription(VALIDATION.messageRequired);
      // The browser's own validity keeps the spec's words too.
      expect(await firstName.evaluate((el) => (el as HTMLInputElement).validationMessage)).toBe(VALIDATION.firstNameRequired);
      await a11yCheck(page);
      // Filling everything but the message: the message box is the one shown.
      await firstName.fill("Pat");
      await page.getByLabel("Last name", { exact: true }).fill("Fan");
      await page.getByLabel("Subject").selectOption("Comment");
      await page.getByRole("button", { name: "Send Message" }).click();
      await expectAlertInView(page, VALIDATION.messageRequired);
      await expectFieldError(page, page.getByLabel("Message", { exact: true }), VALIDATION.messageRequired);
      await expect(page.getByTestId("contact-form")).toBeVisible();
    });

    test("subscribe: an unticked consent box", async ({ page }) => {
      await open(page, "/subscribe");
      await page.getByLabel("First Name").fill("Lee");
      await page.getByLabel("Last Name").fill("Fan");
      await page.getByLabel("Email Address").fill(`lee${unique()}@example.com`);
      const consent = page.getByRole("checkbox", { name: /receive emails/ });
      await consent.uncheck();
      await page.getByRole("button", { name: "Submit" }).click();
      await expectAlertInView(page, VALIDATION.subscribeConsentRequired);
      await expectFieldError(page, consent, VALIDATION.subscribeConsentRequired);
      // Ticking it ends both the mark and the alert.
      await consent.check();
      await expect(consent).not.toHaveAttribute("aria-invalid", "true");
      await expect(alertBanner(page)).toHaveCount(0);
    });

    test("payment: empty card fields, then a card error on the expiration date", async ({ page }) => {
      await signUpViaApi(page, newPerson("Card"));
      await open(page, "/admission/payment");
      await page.getByRole("button", { name: "Authorize Payment" }).click();
      await expectAlertInView(page, PAGE_MESSAGES.cardNumberRequired);
      await expectFieldError(page, page.getByLabel("Card number"), PAGE_MESSAGES.cardNumberRequired);
      await expect(page.getByLabel("ZIP code")).toHaveAccessibleDescription(PAGE_MESSAGES.cardZipRequired);
      await a11yCheck(page);
      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByLabel("Expiration date").fill("01/20");
      await page.getByLabel("CVC").fill("123");
      await page.getByLabel("ZIP code").fill("15212");
      await page.getByRole("button", { name: "Authorize Payment" }).click();
      await expectAlertInView(page, CARD_MESSAGES.expiryInPast);
      await expectFieldError(page, page.getByLabel("Expiration date"), CARD_MESSAGES.expiryInPast);
      await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
    });
  });

  test.describe(`a failure keeps what was typed (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("contact: a failed send brings the form back as it was", async ({ page }) => {
      await page.route("**/api/email/contact", (route) => route.abort());
      await page.goto("/contact");
      // The failure is the page script's call (a send before the scripts run goes to the server).
      await waitForHydration(page);
      const email = `pat${unique()}@example.com`;
      const message = "I have a 1960 World Series program signed by Bill Mazeroski.\nIs it of interest?";
      await page.getByLabel("First name", { exact: true }).fill("Pat");
      await page.getByLabel("Last name", { exact: true }).fill("Fan");
      await page.getByLabel("Email address", { exact: true }).fill(email);
      await page.getByLabel("Subject").selectOption("I have an item for your museum");
      await page.getByLabel("Message", { exact: true }).fill(message);
      await page.getByLabel(/subscribe me/).uncheck();
      await page.getByRole("button", { name: "Send Message" }).click();
      const result = page.getByTestId("contact-result");
      await expect(result).toHaveText(CONTACT_MESSAGES.failure);
      await expect(result).toHaveAttribute("role", "alert");
      await expectInClearView(page, result);
      await expect(page.getByLabel("First name", { exact: true })).toHaveValue("Pat");
      await expect(page.getByLabel("Last name", { exact: true })).toHaveValue("Fan");
      await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(email);
      await expect(page.getByLabel("Subject")).toHaveValue("I have an item for your museum");
      await expect(page.getByLabel("Message", { exact: true })).toHaveValue(message);
      await expect(page.getByLabel(/subscribe me/)).not.toBeChecked();
    });

    test("subscribe: a failed call brings the form back as it was", async ({ page }) => {
      await page.route("**/api/subscribes", (route) => route.fulfill({ status: 500, body: "{}" }));
      await open(page, "/subscribe");
      const email = `lee${unique()}@example.com`;
      await page.getByLabel("First Name").fill("Lee");
      await page.getByLabel("Last Name").fill("Fan");
      await page.getByLabel("Email Address").fill(email);
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByTestId("subscribe-result")).toHaveText(SUBSCRIBE_MESSAGES.failure("info@pittsburghsportsmuseum.example"));
      await expect(page.getByLabel("First Name")).toHaveValue("Lee");
      await expect(page.getByLabel("Last Name")).toHaveValue("Fan");
      await expect(page.getByLabel("Email Address")).toHaveValue(email);
    });

    test("sign-up: no answer keeps the form, with a message on the page", async ({ page }) => {
      await dropFirstFormPost(page, "/admission");
      await open(page, "/admission");
      const p = newPerson("Dropped");
      await fillSignUp(page, p, { terms: false });
      await signUpField.terms(page).check();
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expectAlertInView(page, PAGE_MESSAGES.noAnswer);
      await expectNoErrorPage(page);
      await expect(page).toHaveURL(/\/admission$/);
      await expect(signUpField.email(page)).toHaveValue(p.email);
      await expect(signUpField.password(page)).toHaveValue(p.password);
      await expect(signUpField.terms(page)).toBeChecked();
      // Trying again works.
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expect(page).toHaveURL(/\/admission\/payment$/);
    });

    test("login: no answer keeps the form, with a message on the page", async ({ page }) => {
      const p = newPerson("Offline");
      await signUpViaApi(page, p);
      await page.context().clearCookies();
      await dropFirstFormPost(page, "/login");
      await open(page, "/login");
      await page.getByLabel("Email address", { exact: true }).fill(p.email);
      await page.getByLabel("Password", { exact: true }).fill(p.password);
      await page.getByRole("button", { name: "Login Now" }).click();
      await expectAlertInView(page, PAGE_MESSAGES.noAnswer);
      await expectNoErrorPage(page);
      await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(p.email);
      await expect(page.getByLabel("Password", { exact: true })).toHaveValue(p.password);
      await page.getByRole("button", { name: "Login Now" }).click();
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginUnpaid);
    });

    test("forgot and reset password: no answer keeps the form", async ({ page, request }) => {
      await dropFirstFormPost(page, "/password/request");
      await open(page, "/password/request");
      const email = `someone${unique()}@example.com`;
      await page.getByLabel("Email address", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expectAlertInView(page, PAGE_MESSAGES.noAnswer);
      await expectNoErrorPage(page);
      await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(email);

      const link = await usableResetLink(request);
      await dropFirstFormPost(page, "/password/reset");
      await page.goto(link);
      await page.getByLabel(/^Enter your new password/).fill("GoodPassw0rd");
      await page.getByLabel("Confirm your new password").fill("GoodPassw0rd");
      await page.getByRole("button", { name: "Submit Request" }).click();
      await expect(page.getByTestId("reset-alert")).toHaveText(PAGE_MESSAGES.noAnswer);
      await expectNoErrorPage(page);
      await expect(page.getByLabel(/^Enter your new password/)).toHaveValue("GoodPassw0rd");
    });
  });
}
