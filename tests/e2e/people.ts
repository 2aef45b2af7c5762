/**
 * The people of the browser tests: the first admin signed in (with admin:create's link) and a
 * visitor who becomes a member (signs up and pays in the page's cookie jar).
 */
import { expect, type Browser, type Cookie, type Page } from "@playwright/test";
import { submitLogin, waitForHydration } from "./helpers";
import { setFirstAdminPassword } from "./staff-helpers";

export const ADMIN_EMAIL = "e2e-admin@museum.example";
export const PASSWORD = "Console-1!";

/** The device cookie of the admin's first browser (one test worker: kept across its spec files). */
let knownDevice: Cookie | undefined;

/** Set by the first signedInAdmin of this worker (the link's page says when an earlier worker had used it). */
let adminPasswordSet = false;

/** The first admin: sets the password with admin:create's link if it is still unused (this file alone), then signs in on the plain login form. */
export async function signedInAdmin(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  // The admin's browser, known to the account after its first sign-in (decision 055): its later
  // sign-ins ask for no emailed code, as on a museum's own computer. tests/e2e/staff-sign-in.spec.ts
  // and the first sign-in here go through the code.
  if (knownDevice) await context.addCookies([knownDevice]);
  const page = await context.newPage();
  // The one-time link works once; a later call (or a retry's new worker) would only load its spent page.
  if (!adminPasswordSet) await setFirstAdminPassword(page, PASSWORD);
  adminPasswordSet = true;
  // The ordinary login form, no redirectTo: staff land in the console, not on "YOUR CARD WILL BE CHARGED".
  await page.goto("/login");
  await waitForHydration(page);
  await submitLogin(page, ADMIN_EMAIL, PASSWORD);
  await page.waitForURL((url) => url.pathname === "/admin", { timeout: 15_000 });
  knownDevice ??= (await context.cookies()).find((c) => c.name === "museum_device");
  await expect(page.getByText("What needs doing")).toBeVisible();
  await expect(page.getByText(/will be charged/i)).toHaveCount(0);
  return page;
}

const unique = () => `${Date.now()}${Math.floor(Math.random() * 100000)}`;

/** Signs up and pays in the page's cookie jar, so the page (and page.request) is a member. */
export async function becomeMember(page: Page, firstName = "Mia") {
  const email = `member${unique()}@example.com`;
  const signUp = await page.request.post("/api/users/", {
    data: {
      firstName,
      lastName: "Member",
      emailAddress: email,
      emailAddressConfirm: email,
      password: "goSteelers1",
      passwordConfirm: "goSteelers1",
      termsAndConditions: true,
    },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const payment = await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
  expect(payment.ok(), await payment.text()).toBe(true);
}
