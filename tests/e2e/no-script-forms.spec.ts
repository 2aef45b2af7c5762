/**
 * Forms posted by the browser itself, with no script running (JavaScript off, scripts that
 * failed to load, or a press before they arrive on a page that loads them on intent; decision
 * 016): Chromium sends such a post with the Origin the page's Referrer-Policy allows, and React
 * Router refuses an action whose Origin is not the page's own ("Bad Request"). Each form must
 * answer as it does with scripts: its messages, or the next page.
 */
import { expect, test } from "./test";
import { GIFT_MESSAGES } from "../../app/shared/gift-schemas";
import { CONTACT_MESSAGES, SERVER_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { alertBanner, DESKTOP, fillSignUp, newPerson, signUpViaApi, submitLogin } from "./visitor-helpers";

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

test("without JavaScript the sign-up form marks every field with the spec's messages, keeps the entries but the passwords, then goes on to payment", async ({ page }) => {
  await page.goto("/admission");
  const proceed = page.getByRole("button", { name: "Proceed to Payment" });
  await proceed.click();
  await expect(alertBanner(page)).toHaveText(VALIDATION.firstNameRequired);
  const firstName = page.getByLabel("First name", { exact: true });
  await expect(firstName).toBeFocused();
  await expect(firstName).toHaveAccessibleDescription(VALIDATION.firstNameRequired);
  await expect(page.getByLabel("Last name", { exact: true })).toHaveAccessibleDescription(VALIDATION.lastNameRequired);
  await expect(page.getByLabel("Email address", { exact: true })).toHaveAccessibleDescription(VALIDATION.emailRequired);
  await expect(page.getByLabel("Confirm email address")).toHaveAccessibleDescription(VALIDATION.emailConfirmRequired);
  await expect(page.getByLabel(/^Password \(\d+-\d+ characters\)$/)).toHaveAccessibleDescription(VALIDATION.passwordRequired);
  await expect(page.getByLabel("Confirm password")).toHaveAccessibleDescription(VALIDATION.passwordConfirmRequired);
  await expect(page.getByRole("checkbox", { name: /agree to the Terms and Conditions/ })).toHaveAccessibleDescription(VALIDATION.termsRequired);

  const p = newPerson("Noor");
  await fillSignUp(page, p);
  await page.getByLabel("Confirm email address").fill(`x${p.email}`);
  await proceed.click();
  await expect(alertBanner(page)).toHaveText(VALIDATION.emailsMismatch);
  await expect(page.getByLabel("Confirm email address")).toBeFocused();
  await expect(page.getByLabel("First name", { exact: true })).toHaveValue(p.firstName);
  await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(p.email);
  await expect(page.getByLabel("Confirm password")).toHaveValue("");
  await expect(page.getByRole("checkbox", { name: /agree to the Terms and Conditions/ })).toBeChecked();

  await fillSignUp(page, p);
  await proceed.click();
  await expect(page).toHaveURL(/\/admission\/payment$/);
  await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
});
