/** Shared browser-test helpers: the accessibility check every page must pass. */
import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { firstLink, mailsMatching, waitForMail } from "./mail-capture";

/**
 * axe over `page`, run in the page itself (the package's legacy mode): by default it opens a
 * blank tab for every check to merge the frames' results, which doubled each check's time for
 * the same findings (docs/benchmarks.md, "CI"). Our pages have no cross-origin frames, the one
 * thing the blank tab is for.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}

export async function expectNoSeriousA11yIssues(page: Page) {
  const results = await axe(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
  ).toEqual([]);
}

/**
 * Waits until React has hydrated the page. A page whose scripts wait for the person's intent
 * (decision 016) gets one first: a Shift key press, as a person's first key would be (harmless
 * on a page already running its scripts).
 */
export async function waitForHydration(page: Page) {
  await page.keyboard.press("Shift");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** How far freezeClock jumps ahead before it stops the clock. */
export const FREEZE_JUMP_MS = 1000;

/**
 * Waits for hydration, then stops the page's clock (installed with page.clock.install() before goto) FREEZE_JUMP_MS ahead
 * of the page's current time, so from then on only page.clock.runFor() moves time and slow test
 * steps can no longer eat into a timer. Timers started after the freeze are measured exactly.
 */
export async function freezeClock(page: Page) {
  await waitForHydration(page);
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + FREEZE_JUMP_MS);
}

/**
 * How long the page has been on screen by its own (frozen) clock: the time a redirect that counts
 * from the first paint (app/lib/use-redirect-after.ts) has already used. Call after freezeClock.
 */
export async function msSincePageShown(page: Page): Promise<number> {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0] ?? performance.getEntriesByName("first-paint")[0];
    return performance.now() - (paint ? paint.startTime : 0);
  });
}

/** Signs in on the login page with `redirectTo` and waits until the browser is at `to`. */
export async function signIn(page: Page, email: string, password: string, to: string) {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await waitForHydration(page);
  await submitLogin(page, email, password);
  await page.waitForURL((url) => url.pathname === to, { timeout: 15_000 });
}

/**
 * Fills and sends the login form on the page; a staff account on a browser it has not signed in
 * on before goes on to its second step (decision 055), passed here with the code emailed to it.
 */
export async function submitLogin(page: Page, email: string, password: string) {
  const codesBefore = mailsMatching(email, "sign-in code").length;
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login Now" }).click();
  await passEmailedStep(page, email, codesBefore);
}

/** On /login/verify after a staff password: enters the code of the email that came after `codesBefore` such emails. */
export async function passEmailedStep(page: Page, email: string, codesBefore: number) {
  await page.waitForURL((url) => url.pathname !== "/login", { timeout: 15_000 }).catch(() => undefined);
  if (new URL(page.url()).pathname !== "/login/verify") return;
  const mail = await waitForMail(email, "sign-in code", 30_000, codesBefore);
  await page.getByLabel("Code from the email").fill(/^(\d{6}) /.exec(mail.subject)![1]);
  await page.getByRole("button", { name: "Verify" }).click();
}

let resetAccounts = 0;
/**
 * A usable password reset link (path and query) for a new account: signed up through the API,
 * the link asked for and read from its email, as a person opening their mail would.
 */
export async function usableResetLink(request: APIRequestContext): Promise<string> {
  const email = `reset-link-${Date.now()}-${++resetAccounts}@example.com`;
  const person = { firstName: "Rita", lastName: "Set", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true };
  expect((await request.post("/api/users/", { data: person })).status()).toBe(201);
  expect((await request.post("/api/users/request-reset", { data: { emailAddress: email } })).status()).toBe(200);
  const link = new URL(firstLink((await waitForMail(email, "password", 20_000)).text));
  return link.pathname + link.search;
}
