/**
 * The people of the browser tests: the first admin signed in (with admin:create's link) and a
 * visitor who becomes a member (signs up and pays in the page's cookie jar).
 */
import { expect, type Browser, type Page } from "@playwright/test";
import { waitForHydration } from "./helpers";
import { setFirstAdminPassword } from "./staff-helpers";

export const ADMIN_EMAIL = "e2e-admin@museum.example";
export const PASSWORD = "Console-1!";

/** The first admin: sets the password with admin:create's link if it is still unused (this file alone), then signs in on the plain login form. */
export async function signedInAdmin(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await (await browser.newContext(viewport ? { viewport } : {})).newPage();
  await setFirstAdminPassword(page, PASSWORD);
  // The ordinary login form, no redirectTo: staff land in the console, not on "YOUR CARD WILL BE CHARGED".
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email address").fill(ADMIN_EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Login Now" }).click();
  await page.waitForURL((url) => url.pathname === "/admin", { timeout: 15_000 });
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
