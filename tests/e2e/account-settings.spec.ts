/**
 * Name, email and password changes in Chromium, with the emails read from the real
 * SMTP capture: the email change waits for the link sent to the new address and the old one is
 * told; the password change ends the other sessions; bad input is shown by the field; axe clean.
 */
import { expect, test } from "./test";
import { ACCOUNT_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { expectNoSeriousA11yIssues } from "./helpers";
import { firstLink, waitForMail } from "./mail-capture";
import { DESKTOP, hydrated, newPerson, signUpViaApi, unique } from "./visitor-helpers";

test("the email changes once the link sent to the new address is opened; the old address is told", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const p = newPerson("Chuck");
  await signUpViaApi(page, p);
  await page.goto("/account");
  await hydrated(page);
  await page.getByRole("link", { name: "Change email address" }).click();
  await expect(page).toHaveURL(/\/account\/email$/);
  await expectNoSeriousA11yIssues(page);

  // Bad input first: a malformed address and a wrong password are shown, nothing is sent.
  await page.getByLabel("New email address").fill("not-an-email");
  await page.getByLabel("Current password").fill(p.password);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(VALIDATION.emailFormat);
  const newEmail = `chuck.new${unique()}@example.com`;
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByLabel("Current password").fill("wrong-password1");
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.wrongPassword);
  await page.getByLabel("New email address").fill(newEmail);
  await page.getByLabel("Current password").fill(p.password);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.emailChangeSent(newEmail));

  const notice = await waitForMail(p.email, "was requested");
  expect(notice.text).toContain(newEmail);
  const confirm = await waitForMail(newEmail, "Confirm your new");
  // Not changed yet.
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(p.email);

  await page.goto(firstLink(confirm.text).replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByTestId("new-email")).toHaveText(newEmail);
  await expectNoSeriousA11yIssues(page);
  await page.getByRole("button", { name: "Confirm new address" }).click();
  await expect(page).toHaveURL(/\/account\?changed=email$/);
  await expect(page.getByTestId("account-notice")).toHaveText(ACCOUNT_MESSAGES.emailChanged(newEmail));
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);
  await waitForMail(p.email, "was changed");

  // The link is spent.
  await page.goto(firstLink(confirm.text).replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.emailLinkInvalid);
});

test("the name and the password change; the password change signs out the other browser", async ({ page, browser }) => {
  await page.setViewportSize(DESKTOP);
  const p = newPerson("Joe");
  await signUpViaApi(page, p);
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const otherLogin = await other.request.post("/api/users/login", { data: { emailAddress: p.email, password: p.password } });
  expect(otherLogin.status()).toBe(200);

  await page.goto("/account/name");
  await hydrated(page);
  await page.getByLabel("First name").fill("");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(VALIDATION.firstNameRequired);
  await page.getByLabel("First name").fill("Joseph");
  await page.getByLabel("Last name").fill("Greene");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.nameChanged);
  await expectNoSeriousA11yIssues(page);

  await page.goto("/account/password");
  await hydrated(page);
  await page.getByLabel("Current password").fill(p.password);
  await page.getByLabel("New password (8 to 16 characters)").fill("Greene75!");
  await page.getByLabel("Confirm new password").fill("Greene75!");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.passwordChanged);
  await expectNoSeriousA11yIssues(page);

  await page.goto("/account");
  await expect(page.getByTestId("account-name")).toHaveText("Joseph Greene");
  const otherAccount = await other.request.get("/account", { maxRedirects: 0 });
  expect(otherAccount.status()).toBe(302);
  await other.close();
});
