/**
 * Forms posted by the browser itself, with no script running (JavaScript off, scripts that
 * failed to load, or a press before they arrive on a page that loads them on intent; decision
 * 016): Chromium sends such a post with the Origin the page's Referrer-Policy allows, and React
 * Router refuses an action whose Origin is not the page's own ("Bad Request"). Each form must
 * answer as it does with scripts: its messages, or the next page.
 */
import { expect, test } from "@playwright/test";
import { GIFT_MESSAGES } from "../../app/shared/gift-schemas";
import { CONTACT_MESSAGES, SERVER_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { alertBanner, DESKTOP, newPerson, signUpViaApi, submitLogin } from "./visitor-helpers";

test.use({ javaScriptEnabled: false, viewport: DESKTOP });

test("without JavaScript the gift form answers with its messages, then goes on to payment", async ({ page }) => {
  await page.goto("/gift");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(VALIDATION.firstNameRequired);
  await expect(page.getByText(GIFT_MESSAGES.recipientEmailRequired).first()).toBeVisible();

  const buyer = newPerson("Nora");
  await page.getByLabel("Your first name").fill(buyer.firstName);
  await page.getByLabel("Your last name").fill(buyer.lastName);
  await page.getByLabel("Your email address").fill(buyer.email);
  await page.getByLabel("Recipient's first name").fill("Sam");
  await page.getByLabel("Recipient's last name").fill("Script-Free");
  await page.getByLabel("Recipient's email address").fill(newPerson("Sam").email);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/gift\/[0-9a-f-]{36}\/pay$/);
  await expect(page.getByTestId("gift-summary")).toContainText("for Sam Script-Free.");
});

test("without JavaScript the contact form answers with the spec's messages, and says when the message was sent", async ({ page }) => {
  await page.goto("/contact");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByTestId("contact-result")).toHaveText(VALIDATION.firstNameRequired);

  const writer = newPerson("Wes");
  await page.getByLabel("First name").fill(writer.firstName);
  await page.getByLabel("Last name").fill(writer.lastName);
  await page.getByLabel("Email address").fill(writer.email);
  await page.getByLabel("Subject").selectOption("Question");
  await page.getByLabel("Message").fill("Sent from a browser without JavaScript.");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByTestId("contact-result")).toHaveText(CONTACT_MESSAGES.success);
  await expect(page.getByTestId("contact-form")).toHaveCount(0);
});

test("without JavaScript the login form answers with the page's messages, keeps the email and signs in", async ({ page }) => {
  const p = newPerson("Lena");
  await signUpViaApi(page, p);
  await page.context().clearCookies();
  await page.goto("/login");
  await submitLogin(page, "sam@example", "whatever123");
  await expect(alertBanner(page)).toHaveText(VALIDATION.loginEmailInvalid);
  await expect(page.getByLabel("Email address", { exact: true })).toHaveValue("sam@example");
  await submitLogin(page, p.email, "NotMyPassw0rd");
  await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginFailed);
  await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(p.email);
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await submitLogin(page, p.email, p.password);
  await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginUnpaid);
  expect((await page.context().cookies()).map((c) => c.name)).toContain("museum_session");
});
