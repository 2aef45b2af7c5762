/**
 * Passkeys in Chromium (decision 056) with its virtual authenticator (DevTools'
 * WebAuthn domain: a platform authenticator that keeps discoverable credentials and verifies
 * the person). The site is opened on `localhost`: an IP address is never a passkey's relying
 * party. A member adds one on the account page (after a wrong and then the right password),
 * signs in with it from the login page, removes it and is then refused; a curator adds one on
 * Sign-in and security at phone size, finishes a password sign-in with it instead of an
 * emailed code, and signs in with it alone.
 */
import { type Browser, type BrowserContext, type Page } from "@playwright/test";
import { expect, test } from "./test";
import { SIGN_IN_MESSAGES } from "../../app/shared/staff-sign-in-words";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { mailsMatching, waitForMail } from "./mail-capture";
import { becomeMember, signedInAdmin } from "./people";
import { acceptStaffInvitation, inviteStaff } from "./staff-helpers";

const PORT = Number(process.env.E2E_PORT ?? 4319);
const LOCAL = `http://localhost:${PORT}`;
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e5)}`;

/** A browser on `localhost` with a virtual authenticator that verifies the person at once. */
async function withAuthenticator(browser: Browser, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: LOCAL, viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { context, page };
}

async function logOut(page: Page) {
  await page.goto("/account");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL((url) => url.pathname === "/login");
}

async function signOutOfConsole(page: Page) {
  await page.getByTestId("console").getByRole("button", { name: "Logout", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/admin"));
}

test("a member adds a passkey, signs in with it, removes it and is then refused", async ({ browser }) => {
  const { context, page } = await withAuthenticator(browser, DESKTOP);
  await page.goto("/");
  await becomeMember(page, "Pia");
  await page.goto("/account");
  await waitForHydration(page);
  const section = page.getByTestId("passkeys");
  await expect(section).toContainText("No passkeys yet.");
  await section.getByLabel("Name of the new passkey").fill("Home laptop");
  await section.getByLabel("Your password").fill("notTheRightOne1");
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(section.getByRole("alert")).toHaveText(SIGN_IN_MESSAGES.passkeyPassword);
  await section.getByLabel("Your password").fill("goSteelers1");
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(section.getByRole("status")).toHaveText(SIGN_IN_MESSAGES.passkeyAdded);
  await expect(section.getByRole("listitem")).toHaveCount(1);
  await expect(section.getByRole("listitem")).toContainText("Home laptop");
  await expect(section.getByRole("listitem")).toContainText("not used yet");
  await expectNoSeriousA11yIssues(page);

  // Signed out, the login page's passkey button signs the member in (a paid ticket: home).
  await logOut(page);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.goto("/account");
  await expect(page.getByTestId("passkeys").getByRole("listitem")).toContainText("last used");

  // Removed, the same passkey no longer signs in.
  await page.getByRole("button", { name: "Remove the passkey Home laptop" }).click();
  await expect(page.getByText(SIGN_IN_MESSAGES.passkeyRemoved)).toBeVisible();
  await expect(page.getByTestId("passkeys")).toContainText("No passkeys yet.");
  await logOut(page);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("alert").filter({ hasText: SIGN_IN_MESSAGES.passkeyFailed })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/login");
  await context.close();
});

test("a curator adds a passkey at phone size, finishes a password sign-in with it, and signs in with it alone", async ({ browser }) => {
  const admin = await signedInAdmin(browser);
  const email = `passkey.${unique()}@museum.example`;
  const link = await inviteStaff(admin, { email, firstName: "Pat", lastName: "Key", role: "curator" });
  const { context, page } = await withAuthenticator(browser, PHONE);
  const password = "Passkey-step-1";
  await acceptStaffInvitation(page, link.replace(/^http:\/\/127\.0\.0\.1:/, "http://localhost:"), password);

  const noticesBefore = mailsMatching(email, "Security notice").length;
  await page.goto("/admin/security");
  await waitForHydration(page);
  const section = page.getByTestId("passkeys");
  await expect(section.getByLabel("Your password")).toHaveCount(0);
  await section.getByLabel("Name of the new passkey").fill("Work phone");
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(section.getByRole("status")).toHaveText(SIGN_IN_MESSAGES.passkeyAdded);
  await expect(section.getByRole("listitem")).toContainText("Work phone");
  expect((await waitForMail(email, "Security notice", 30_000, noticesBefore)).text).toContain('A passkey named "Work phone" was added');
  await expectNoSeriousA11yIssues(page);

  // A password sign-in now asks for the passkey, not an emailed code.
  await signOutOfConsole(page);
  await page.goto("/login?redirectTo=%2Fadmin%2Fsecurity");
  await waitForHydration(page);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login Now" }).click();
  await page.waitForURL((url) => url.pathname === "/login/verify");
  await expect(page.getByLabel("Code from the email")).toHaveCount(0);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await page.waitForURL((url) => url.pathname === "/admin/security");

  // And the passkey alone signs in from the login page, on to the console.
  await signOutOfConsole(page);
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await page.waitForURL((url) => url.pathname === "/admin");
  await context.close();
});
