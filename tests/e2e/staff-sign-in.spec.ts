/**
 * Staff sign-in's second step in Chromium (decision 055), at desktop and phone sizes: a
 * new curator sets up an authenticator app with a code the test computes, signs in with it on a
 * second browser (a phone), uses a recovery code once and is refused it the second time, is
 * refused past five wrong codes, sees both sessions and signs the other browser out; an owner who
 * requires a second step leads a new curator through its setup before anything else.
 */
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./test";
import * as OTPAuth from "otpauth";
import { SIGN_IN_MESSAGES } from "../../app/shared/staff-sign-in-words";
import { STAFF_MESSAGES } from "../../app/shared/staff-messages";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";
import { acceptStaffInvitation, inviteStaff } from "./staff-helpers";

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const PASSWORD = "Second-step-1";
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e5)}`;

/** The app's code for the 30-second step after the current one (the current one may be spent). */
const nextCode = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + 30_000 });
const currentCode = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();

/** A new staff member, invited by the signed-in `admin`, with a password chosen in their own browser (which the link makes known). */
async function newStaff(browser: Browser, admin: Page, role: "curator" | "admin", viewport = DESKTOP) {
  const email = `${role}.${unique()}@museum.example`;
  const link = await inviteStaff(admin, { email, firstName: "Sam", lastName: "Second", role });
  const page = await (await browser.newContext({ viewport })).newPage();
  await acceptStaffInvitation(page, link, PASSWORD);
  return { email, page };
}

/** Sets up the app on Sign-in and security; answers its secret and the recovery codes shown. */
async function setUpApp(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.goto("/admin/security");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  const secret = (await page.getByTestId("app-secret").textContent())!.trim();
  await page.getByLabel("Code from the app").fill(currentCode(secret));
  await page.getByRole("button", { name: "Turn on the app" }).click();
  const shown = page.getByTestId("recovery-codes");
  await expect(shown).toBeVisible();
  const codes = (await shown.getByRole("listitem").allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await expect(page.getByTestId("app-status")).toHaveText("On. 10 of 10 recovery codes left.");
  return { secret, codes };
}

/** Email and password typed and sent on the login page of `page`. */
async function typePassword(page: Page, email: string) {
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Login Now" }).click();
}

/** The password on the login page of `page`; it is then on the second step. */
async function passwordOnly(page: Page, email: string) {
  await typePassword(page, email);
  await page.waitForURL((url) => url.pathname === "/login/verify");
  await waitForHydration(page);
}

/** Types a code on the second step and waits for the server's answer to it. */
async function enterCode(page: Page, code: string) {
  await page.getByLabel("Code from your authenticator app, or a recovery code").fill(code);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/login/verify") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Verify" }).click();
  await answered;
}

test("an authenticator app, recovery codes once each, the limit on wrong codes, and sessions ended from the other browser", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await signedInAdmin(browser, DESKTOP);
  const { email, page: desk } = await newStaff(browser, admin, "curator");
  const { secret, codes } = await setUpApp(desk);
  await expectNoSeriousA11yIssues(desk);

  // A phone: the password, then the app's code.
  const phone = await (await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })).newPage();
  await passwordOnly(phone, email);
  await expectNoSeriousA11yIssues(phone);
  await enterCode(phone, nextCode(secret));
  await phone.waitForURL((url) => url.pathname === "/admin");

  // Both sessions are listed on the desktop, each with its browser; the phone is signed out from there.
  await desk.goto("/admin/security");
  await waitForHydration(desk);
  const sessions = desk.getByTestId("sessions").getByRole("listitem");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: "This browser" })).toHaveCount(1);
  await desk.getByRole("button", { name: "Log out everywhere else" }).click();
  await expect(desk.getByText("You are logged out everywhere else.")).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await phone.goto("/admin");
  await phone.waitForURL((url) => url.pathname === "/login");

  // A recovery code signs in once; the same code again is refused.
  await passwordOnly(phone, email);
  await enterCode(phone, codes[0]);
  await phone.waitForURL((url) => url.pathname === "/admin");
  await phone.context().clearCookies();
  await passwordOnly(phone, email);
  await enterCode(phone, codes[0]);
  await expect(phone.getByTestId("form-outcome")).toHaveText(SIGN_IN_MESSAGES.wrongCode);
  // Five wrong codes end the step (that was the first): the password is asked again.
  for (let i = 0; i < 3; i++) {
    await enterCode(phone, `00000${i}`);
    await expect(phone.getByTestId("form-outcome")).toHaveText(SIGN_IN_MESSAGES.wrongCode);
  }
  await enterCode(phone, "000009");
  await expect(phone.getByTestId("form-outcome")).toHaveText(SIGN_IN_MESSAGES.stepEnded);
  await expect(phone.getByRole("link", { name: "Back to the login page" })).toBeVisible();

  await desk.reload();
  await expect(desk.getByTestId("app-status")).toHaveText("On. 9 of 10 recovery codes left.");
});

test("when the owner requires an app or a passkey, a staff member without one sets it up before anything else", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await signedInAdmin(browser, DESKTOP);
  const { page: owner } = await newStaff(browser, admin, "admin");
  await owner.goto("/admin/staff");
  await waitForHydration(owner);
  await owner.getByRole("button", { name: "Require an app or a passkey for every staff account" }).click();
  await expect(owner.getByText(STAFF_MESSAGES.factorsOwnFirst)).toBeVisible();
  await setUpApp(owner);
  await owner.goto("/admin/staff");
  await waitForHydration(owner);
  await owner.getByRole("button", { name: "Require an app or a passkey for every staff account" }).click();
  await expect(owner.getByText(STAFF_MESSAGES.factorsRequired)).toBeVisible();
  try {
    // A new curator signing in on a phone: led to the setup, held there, then let through.
    const email = `curator.${unique()}@museum.example`;
    const link = await inviteStaff(owner, { email, firstName: "Cleo", lastName: "Second", role: "curator" });
    const curator = await (await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true })).newPage();
    // Choosing the password opens the console, which leads to the setup first.
    await acceptStaffInvitation(curator, link, PASSWORD, "/admin/security");
    await curator.goto("/admin/exhibits");
    await curator.waitForURL((url) => url.pathname === "/admin/security");
    await expect(curator.getByTestId("setup-first")).toHaveText(SIGN_IN_MESSAGES.setUpFirst);
    await setUpApp(curator);
    await curator.goto("/admin/exhibits");
    await expect(curator).toHaveURL(/\/admin\/exhibits$/);
  } finally {
    await owner.goto("/admin/staff");
    await waitForHydration(owner);
    await owner.getByRole("button", { name: "Stop requiring an app or a passkey" }).click();
    await expect(owner.getByText(STAFF_MESSAGES.factorsOptional)).toBeVisible();
  }
});
