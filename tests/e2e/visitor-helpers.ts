/**
 * Helpers of the visitor-path tests: the two screen sizes every point must hold at,
 * accounts made through the API, the collection's ids, a watch for the crash that sent people
 * to the error page, and checks that a message or a field is on screen, clear of the sticky bar.
 */
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { EnshrineeSummary, EnshrineeView, ExhibitView } from "../../app/shared/catalog-types";
import { MESSAGES } from "../../app/shared/messages";
import { freezeClock, waitForHydration } from "./helpers";

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };
export const SCREENS = [
  { name: "phone", viewport: PHONE },
  { name: "desktop", viewport: DESKTOP },
] as const;

/** A form's POST, not the page-view count every shown page sends (decision 060). */
export const isFormPost = (r: { method(): string; url(): string }) => r.method() === "POST" && new URL(r.url()).pathname !== "/api/visits";

export const unique = () => `${Date.now()}${Math.floor(Math.random() * 100000)}`;

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export function newPerson(firstName: string): Person {
  return { firstName, lastName: "Fan", email: `${firstName.toLowerCase()}${unique()}@example.com`, password: "Steel3rs!" };
}

/** Signs up through the JSON API; page.request shares the page's cookies, so the page is signed in (unpaid). */
export async function signUpViaApi(page: Page, p: Person) {
  const response = await page.request.post("/api/users/", {
    data: {
      firstName: p.firstName,
      lastName: p.lastName,
      emailAddress: p.email,
      emailAddressConfirm: p.email,
      password: p.password,
      passwordConfirm: p.password,
      termsAndConditions: true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** A paid member, through the JSON API (Stripe's test payment method id in test mode). */
export async function memberViaApi(page: Page, p: Person) {
  await signUpViaApi(page, p);
  const response = await page.request.post("/api/stripe/payment", { data: { id: "pm_card_visa" } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Types a test card into the payment form and, unless `submit` is false, authorizes the payment. */
export async function fillCard(page: Page, card: { number?: string; expiry?: string } = {}, submit = true) {
  await page.getByLabel("Card number").fill(card.number ?? "4242 4242 4242 4242");
  await page.getByLabel("Expiration date").fill(card.expiry ?? "12/34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("ZIP code").fill("15212");
  if (submit) await page.getByRole("button", { name: "Authorize Payment" }).click();
}

/** The sign-up form's controls, as a person finds them by their labels. */
export const signUpField = {
  firstName: (page: Page) => page.getByLabel("First name", { exact: true }),
  lastName: (page: Page) => page.getByLabel("Last name", { exact: true }),
  email: (page: Page) => page.getByLabel("Email address", { exact: true }),
  confirmEmail: (page: Page) => page.getByLabel("Confirm email address"),
  password: (page: Page) => page.getByLabel(/^Password \(\d+-\d+ characters\)$/),
  confirmPassword: (page: Page) => page.getByLabel("Confirm password"),
  optIn: (page: Page) => page.getByRole("checkbox", { name: /send me emails/ }),
  terms: (page: Page) => page.getByRole("checkbox", { name: /agree to the Terms and Conditions/ }),
  proceed: (page: Page) => page.getByRole("button", { name: "Proceed to Payment" }),
};

/** Fills the sign-up form completely and correctly (the terms box left as it is with `terms: false`). */
export async function fillSignUp(page: Page, p: Person, { terms = true } = {}) {
  await signUpField.firstName(page).fill(p.firstName);
  await signUpField.lastName(page).fill(p.lastName);
  await signUpField.email(page).fill(p.email);
  await signUpField.confirmEmail(page).fill(p.email);
  await signUpField.password(page).fill(p.password);
  await signUpField.confirmPassword(page).fill(p.password);
  if (terms) await signUpField.terms(page).check();
}

/** Fills and sends the login form. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.getByLabel("Email address", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login Now" }).click();
}

export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.ok(), `${url}: ${response.status()}`).toBe(true);
  return (await response.json()) as T;
}

export const allExhibits = (r: APIRequestContext) => getJson<ExhibitView[]>(r, "/api/exhibits/");
export const favoriteStories = (r: APIRequestContext) => getJson<ExhibitView[]>(r, "/api/exhibits/?favoriteStory=true&active=true");

/** An enshrinee with at least one exhibit, and its full record. */
export async function enshrineeWithExhibit(r: APIRequestContext): Promise<EnshrineeView> {
  for (const p of await getJson<EnshrineeSummary[]>(r, "/api/enshrinees/")) {
    const full = await getJson<EnshrineeView>(r, `/api/enshrinees/${p._id}`);
    if (full.exhibits.length > 0) return full;
  }
  throw new Error("the demo collection has no enshrinee with an exhibit");
}

export const alertBanner = (page: Page) => page.getByTestId("alert-banner");
export const bottomMenu = (page: Page) => page.getByRole("navigation", { name: "Bottom menu" });

/**
 * Records what a crashed page looks like: an uncaught page error, or React Router
 * catching a render error (`TypeError: ... is not a function` from an effect's cleanup).
 */
export function watchForCrashes(page: Page): string[] {
  const crashes: string[] = [];
  page.on("pageerror", (e) => crashes.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && /is not a function|caught the following error/i.test(m.text())) crashes.push(`console: ${m.text()}`);
  });
  return crashes;
}

export async function expectNoErrorPage(page: Page) {
  await expect(page.getByRole("heading", { name: MESSAGES.errorHeadline })).toHaveCount(0);
}

/** Installs Playwright's clock before the page loads; call `freeze` once it is there. */
export async function installClock(page: Page) {
  await page.clock.install();
}
export const freeze = freezeClock;

export const hydrated = waitForHydration;

/** `target` is wholly on screen and not under the sticky top bar (navigation and alert). */
export async function expectInClearView(page: Page, target: Locator) {
  await expect(target).toBeInViewport({ ratio: 1 });
  await expect
    .poll(async () => {
      const bar = await page.getByTestId("sticky-top").boundingBox();
      const box = await target.boundingBox();
      return bar && box ? Math.round(box.y - (bar.y + bar.height)) : -1;
    })
    .toBeGreaterThanOrEqual(0);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The field has the focus, is marked invalid with `message` as its description, and is in clear view. */
export async function expectFieldError(page: Page, field: Locator, message: string) {
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
  await expectInClearView(page, field);
}

/** The alert banner says `message`, is announced (role="alert") and is wholly on screen. */
export async function expectAlertInView(page: Page, message: string) {
  const banner = alertBanner(page);
  await expect(banner).toHaveText(message);
  await expect(banner).toHaveAttribute("role", "alert");
  await expect(banner).toBeInViewport({ ratio: 1 });
}

/** Fills the test-mode card form (a card number from the list in docs/using-the-site.md) and presses Authorize Payment. */
export async function payWithTestCard(page: Page, cardNumber = "4242 4242 4242 4242") {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiration date").fill("12/40");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("ZIP code").fill("15212");
  await page.getByRole("button", { name: "Authorize Payment" }).click();
}
