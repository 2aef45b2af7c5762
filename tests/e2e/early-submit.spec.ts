/**
 * The first press of "Send Message" on /contact, of "Login Now" on /login and
 * of "Proceed to Payment" on /admission does its work at once, though the page's scripts wait for a person's first intent (decision
 * 016) and may take a second or more to arrive on a slow device. /subscribe and /password/request
 * load their scripts at once, but a press before they run is the browser's own post all the same;
 * so are the gift form's and the account's forms (plain posts, answered by the page's action). Here they are held back until
 * the test releases them: the form is sent exactly once and its result shown while the scripts
 * are still on their way; the spec's timers count from when the answer was shown (decision 036).
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { ACCOUNT_MESSAGES, CONTACT_MESSAGES, SERVER_MESSAGES, SUBSCRIBE_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { GIFT_MESSAGES } from "../../app/shared/gift-schemas";
import { TIMING } from "../../app/lib/timing";
import { msSincePageShown } from "./helpers";
import { readAllMail } from "./mail-capture";
import { alertBanner, bottomMenu, expectFieldError, fillSignUp, isFormPost, memberViaApi, newPerson, SCREENS, signUpField, signUpViaApi, submitLogin, type Person } from "./visitor-helpers";

/** Holds every script of the site until the returned function is called. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route("**/assets/*.js", async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** Every POST the page makes, as "METHOD path". */
function recordPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on("request", (r) => {
    if (isFormPost(r)) posts.push(new URL(r.url()).pathname);
  });
  return posts;
}

async function fillContact(page: Page, email: string, message: string) {
  await page.getByLabel("First name", { exact: true }).fill("Pat");
  await page.getByLabel("Last name", { exact: true }).fill("Fan");
  await page.getByLabel("Email address", { exact: true }).fill(email);
  await page.getByLabel("Subject").selectOption("Question");
  await page.getByLabel("Message", { exact: true }).fill(message);
}

for (const screen of SCREENS) {
  test.describe(`the first send on /contact (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("sends exactly once and shows the result before the page's scripts have arrived", async ({ page }) => {
      test.setTimeout(60_000);
      const { release, posts } = await openHeld(page, "/contact");
      const writer = newPerson("Early");
      const message = `Sent before the scripts ran ${writer.email}`;
      await fillContact(page, writer.email, message);
      // Typing started the scripts' download, which is held: they are not running.
      await expect(page.locator("html")).toHaveAttribute("data-hydration", "loading");
      await page.getByRole("button", { name: "Send Message" }).click();
      const result = page.getByTestId("contact-result");
      await expect(result).toHaveText(CONTACT_MESSAGES.success);
      await expect(result).toHaveAttribute("data-alert-type", "success");
      await expect(page.getByTestId("contact-form")).toHaveCount(0);
      expect(posts).toEqual(["/contact"]);
      // Once the scripts arrive, nothing is sent again, and the page goes home as the spec says.
      release();
      await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
      expect(posts).toEqual(["/contact"]);
      await expect.poll(() => readAllMail().filter((m) => m.text.includes(message)).length, { timeout: 15_000 }).toBe(1);
    });

    test("a send the server refuses comes back with the message and everything typed", async ({ page }) => {
      test.setTimeout(60_000);
      await openHeld(page, "/contact");
      const message = "A note with a mistyped address.";
      // The browser takes "sam@example" for an email address; the spec's rule does not.
      await fillContact(page, "sam@example", message);
      await page.getByRole("button", { name: "Send Message" }).click();
      await expect(page.getByTestId("contact-result")).toHaveText(VALIDATION.emailRequired);
      await expect(page.getByLabel("First name", { exact: true })).toHaveValue("Pat");
      await expect(page.getByLabel("Last name", { exact: true })).toHaveValue("Fan");
      await expect(page.getByLabel("Email address", { exact: true })).toHaveValue("sam@example");
      await expect(page.getByLabel("Subject")).toHaveValue("Question");
      await expect(page.getByLabel("Message", { exact: true })).toHaveValue(message);
      await expect(page.getByLabel(/subscribe me/)).toBeChecked();
    });
  });
}

/**
 * Lets `ms` of the answer page's time pass with its scripts held (a slow device), then stops its
 * clock (installed just before the press). Returns how long the answer had been shown when the clock
 * stopped: what its timers have already used once the scripts run.
 */
async function stopClockAfterShown(page: Page, ms: number): Promise<number> {
  await expect.poll(() => msSincePageShown(page), { intervals: [50] }).toBeGreaterThan(ms);
  // A little ahead: the page's clock runs on while the test asks for its time.
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 100);
  return msSincePageShown(page);
}

/** Lets the held scripts in and waits until they run. */
async function runScripts(page: Page, release: () => void) {
  release();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * The answer's timer of `ms`, counted from when it was shown: lets `heldMs` of its time pass with
 * the scripts held (a slow device), runs them and brings its clock to 200 ms before the moment.
 * The function returned moves the clock 100 ms past it.
 */
async function justBeforeTimer(page: Page, release: () => void, ms: number, heldMs = 1000): Promise<() => Promise<void>> {
  const shown = await stopClockAfterShown(page, heldMs);
  await runScripts(page, release);
  await page.clock.runFor(ms - shown - 200);
  return () => page.clock.runFor(300);
}

/**
 * Signed out (unless `signedIn`), its scripts held and its
 * POSTs recorded: `path` opened. A page that loads its scripts at once (`scriptsAtOnce`) never
 * reaches its load event while they are held: it is taken as open once its markup has arrived.
 */
async function openHeld(page: Page, path: string, { scriptsAtOnce = false, signedIn = false } = {}) {
  if (!signedIn) await page.context().clearCookies();
  const release = await holdScripts(page);
  const posts = recordPosts(page);
  await page.goto(path, scriptsAtOnce ? { waitUntil: "commit" } : {});
  if (scriptsAtOnce) await page.locator("#content-end").waitFor({ state: "attached" });
  return { release, posts };
}

/**
 * Signed out, its scripts held: the login form sent with these credentials, the page's clock
 * installed just before the press. The clock's time runs from its install across the navigation,
 * and the answer page reads "since shown" on it: installed before the login page opened, it would
 * count that page's own load and the typing too (over a second on a slow machine).
 */
async function firstLoginPress(page: Page, email: string, password: string) {
  const held = await openHeld(page, "/login");
  await page.getByLabel("Email address", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.clock.install();
  await page.getByRole("button", { name: "Login Now" }).click();
  return held;
}

for (const screen of SCREENS) {
  test.describe(`the first login press (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("a correct login is welcomed before the scripts arrive and goes home 2 s after the answer was shown", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      await memberViaApi(page, p);
      const { release, posts } = await firstLoginPress(page, p.email, p.password);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginSuccess(p.firstName));
      await expect(alertBanner(page)).toHaveAttribute("data-alert-type", "success");
      // Signed in: the session cookie, and the member's menu (no Login, a Logout).
      expect((await page.context().cookies()).map((c) => c.name)).toContain("museum_session");
      await expect(bottomMenu(page)).toContainText("Logout");
      await expect(bottomMenu(page)).not.toContainText("Login");
      expect(posts).toEqual(["/login"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.loginSuccessRedirect, 500);
      await expect(page).toHaveURL(/\/login$/);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginSuccess(p.firstName));
      await pastTimer();
      await expect(page).toHaveURL(/\/$/);
      // One press, one login: nothing was sent again once the scripts ran.
      expect(posts).toEqual(["/login"]);
    });

    test("a wrong password shows the spec's message for 4 s from the answer, the email kept, one attempt sent", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      await signUpViaApi(page, p);
      const { release, posts } = await firstLoginPress(page, p.email, "NotMyPassw0rd");
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginFailed);
      await expect(alertBanner(page)).toHaveAttribute("data-alert-type", "danger");
      const email = page.getByLabel("Email address", { exact: true });
      const password = page.getByLabel("Password", { exact: true });
      await expect(email).toHaveValue(p.email);
      await expectFieldError(page, password, SERVER_MESSAGES.loginFailed);
      expect(posts).toEqual(["/login"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.loginError);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginFailed);
      await pastTimer();
      await expect(alertBanner(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/login$/);
      expect(posts).toEqual(["/login"]);
      // The page's script takes over: the right password now goes through it.
      await password.fill(p.password);
      await page.getByRole("button", { name: "Login Now" }).click();
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginUnpaid);
      expect(posts).toEqual(["/login", "/login.data"]);
    });

    test("an address the spec's pattern refuses is held for the scripts: their message, no request", async ({ page }) => {
      test.setTimeout(60_000);
      const { release, posts } = await openHeld(page, "/login");
      // The browser takes "sam@example" for an email address; the spec's pattern does not.
      await submitLogin(page, "sam@example", "whatever123");
      await expect(page.locator("html")).toHaveAttribute("data-hydration", "loading");
      release();
      await expect(alertBanner(page)).toHaveText(VALIDATION.loginEmailInvalid);
      await expectFieldError(page, page.getByLabel("Email address", { exact: true }), VALIDATION.loginEmailInvalid);
      expect(posts).toEqual([]);
    });
  });
}

test("an unpaid account's first press: told to pay, sent to payment 7.5 s after the answer was shown", async ({ page }) => {
  test.setTimeout(60_000);
  const p = newPerson("Early");
  await signUpViaApi(page, p);
  const { release } = await firstLoginPress(page, p.email, p.password);
  await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.loginUnpaid);
  await expect(alertBanner(page)).toHaveAttribute("data-alert-type", "warning");
  const pastTimer = await justBeforeTimer(page, release, TIMING.loginUnpaidRedirect);
  await expect(page).toHaveURL(/\/login$/);
  await pastTimer();
  await expect(page).toHaveURL(/\/admission\/payment$/);
  await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
});

/** Signed out, the page's scripts held: the sign-up form filled (the news box ticked) and sent, with the scripts still on their way. */
async function firstSignUpPress(page: Page, p: Person, { change, clock = false }: { change?: (page: Page) => Promise<void>; clock?: boolean } = {}) {
  const { release, posts } = await openHeld(page, "/admission");
  await fillSignUp(page, p);
  await signUpField.optIn(page).check();
  await change?.(page);
  // Typing started the scripts' download, which is held: they are not running.
  await expect(page.locator("html")).toHaveAttribute("data-hydration", "loading");
  // The clock (when asked) from the press on, as in firstLoginPress: the answer's time is not the typing's.
  if (clock) await page.clock.install();
  await signUpField.proceed(page).click();
  return { release, posts };
}

/** The answer page kept what was typed, the passwords excepted (never written into a page). */
async function expectKeptButPasswords(page: Page, p: Person) {
  await expect(signUpField.lastName(page)).toHaveValue(p.lastName);
  await expect(signUpField.email(page)).toHaveValue(p.email);
  await expect(signUpField.confirmEmail(page)).toHaveValue(p.email);
  await expect(signUpField.password(page)).toHaveValue("");
  await expect(signUpField.confirmPassword(page)).toHaveValue("");
  await expect(signUpField.optIn(page)).toBeChecked();
  await expect(signUpField.terms(page)).toBeChecked();
}

for (const screen of SCREENS) {
  test.describe(`the first sign-up press (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("goes on to payment at once, signed in, before the scripts arrive; sent once", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      const { release, posts } = await firstSignUpPress(page, p);
      await expect(page).toHaveURL(/\/admission\/payment$/);
      await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
      expect((await page.context().cookies()).map((c) => c.name)).toContain("museum_session");
      expect(posts).toEqual(["/admission"]);
      await runScripts(page, release);
      await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
      expect(posts).toEqual(["/admission"]);
    });

    test("an address already signed up: the server's message on the email field, the rest kept, /login 3.5 s after the answer was shown", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      await signUpViaApi(page, p);
      const { release, posts } = await firstSignUpPress(page, p, { clock: true });
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.emailTaken);
      await expect(alertBanner(page)).toHaveAttribute("data-alert-type", "danger");
      await expectFieldError(page, signUpField.email(page), SERVER_MESSAGES.emailTaken);
      await expect(signUpField.firstName(page)).toHaveValue(p.firstName);
      await expectKeptButPasswords(page, p);
      expect(posts).toEqual(["/admission"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.signUpFailureRedirect);
      await expect(page).toHaveURL(/\/admission$/);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.emailTaken);
      await pastTimer();
      await expect(page).toHaveURL(/\/login$/);
      expect(posts).toEqual(["/admission"]);
    });

    test("a name the browser lets through and the spec's rule does not: marked with its message for 4 s, the rest kept; the scripts then take over", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      // Only spaces: the browser's `required` is met, the spec's 'Please enter your first name' is not.
      const { release, posts } = await firstSignUpPress(page, p, { clock: true, change: (page) => signUpField.firstName(page).fill("   ") });
      await expect(alertBanner(page)).toHaveText(VALIDATION.firstNameRequired);
      await expectFieldError(page, signUpField.firstName(page), VALIDATION.firstNameRequired);
      await expect(signUpField.lastName(page)).not.toHaveAttribute("aria-invalid", "true");
      await expectKeptButPasswords(page, p);
      expect(posts).toEqual(["/admission"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.signUpAlert);
      await expect(alertBanner(page)).toHaveText(VALIDATION.firstNameRequired);
      await pastTimer();
      await expect(alertBanner(page)).toHaveCount(0);
      await page.clock.resume();
      // The page's script takes over: the name and the passwords typed again go through it.
      await signUpField.firstName(page).fill(p.firstName);
      await expect(signUpField.firstName(page)).not.toHaveAttribute("aria-invalid", "true");
      await signUpField.password(page).fill(p.password);
      await signUpField.confirmPassword(page).fill(p.password);
      await signUpField.proceed(page).click();
      await expect(page).toHaveURL(/\/admission\/payment$/);
      await expect(page.getByText(`Hello, ${p.firstName}!`)).toBeVisible();
      expect(posts).toEqual(["/admission", "/admission.data"]);
    });

    test("mismatched passwords are held for the scripts: their message, both passwords kept, no request", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      const { release, posts } = await firstSignUpPress(page, p, { change: (page) => signUpField.confirmPassword(page).fill(`${p.password}x`) });
      release();
      await expect(alertBanner(page)).toHaveText(VALIDATION.passwordsMismatch);
      await expectFieldError(page, signUpField.confirmPassword(page), VALIDATION.passwordsMismatch);
      await expect(signUpField.password(page)).toHaveValue(p.password);
      await expect(signUpField.confirmPassword(page)).toHaveValue(`${p.password}x`);
      expect(posts).toEqual([]);
    });
  });
}

/** The subscribe form filled with `email` and sent, the consent box left ticked; the page's clock installed just before the press when asked (see firstLoginPress). */
async function submitSubscribe(page: Page, email: string, { clock = false } = {}) {
  await page.getByLabel("First Name").fill("Sub");
  await page.getByLabel("Last Name").fill("Scriber");
  await page.getByLabel("Email Address").fill(email);
  if (clock) await page.clock.install();
  await page.getByRole("button", { name: "Submit" }).click();
}

/** The reset request form sent for `email`; the page's clock installed just before the press when asked (see firstLoginPress). */
async function submitResetRequest(page: Page, email: string, { clock = false } = {}) {
  await page.getByLabel("Email address", { exact: true }).fill(email);
  if (clock) await page.clock.install();
  await page.getByRole("button", { name: "Submit Request" }).click();
}

for (const screen of SCREENS) {
  test.describe(`the first press on /subscribe and /password/request (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("subscribe: the green message before the scripts arrive, one POST, / 3 s after the answer was shown", async ({ page }) => {
      test.setTimeout(60_000);
      const { release, posts } = await openHeld(page, "/subscribe", { scriptsAtOnce: true });
      await submitSubscribe(page, newPerson("Early").email, { clock: true });
      const result = page.getByTestId("subscribe-result");
      await expect(result).toHaveText(SUBSCRIBE_MESSAGES.success);
      await expect(result).toHaveAttribute("data-alert-type", "success");
      await expect(page.getByTestId("subscribe-form")).toHaveCount(0);
      expect(posts).toEqual(["/subscribe"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.subscribeRedirect);
      await expect(page).toHaveURL(/\/subscribe$/);
      await pastTimer();
      await expect(page).toHaveURL(/\/$/);
      // One press, one subscription: nothing was sent again once the scripts ran.
      expect(posts).toEqual(["/subscribe"]);
    });

    test("subscribe: an address that is not email-shaped gets the field's own message, the rest kept, no redirect", async ({ page }) => {
      test.setTimeout(60_000);
      const { release, posts } = await openHeld(page, "/subscribe", { scriptsAtOnce: true });
      // The browser takes "sam@example" for an email address; the spec's rule does not.
      await submitSubscribe(page, "sam@example", { clock: true });
      const email = page.getByLabel("Email Address");
      await expect(alertBanner(page)).toHaveText(VALIDATION.emailRequired);
      await expectFieldError(page, email, VALIDATION.emailRequired);
      await expect(email).toHaveValue("sam@example");
      await expect(page.getByLabel("First Name")).toHaveValue("Sub");
      await expect(page.getByLabel("Last Name")).toHaveValue("Scriber");
      await expect(page.getByRole("checkbox", { name: /receive emails/ })).toBeChecked();
      await expect(page.getByText("There was an issue subscribing")).toHaveCount(0);
      expect(posts).toEqual(["/subscribe"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.subscribeRedirect);
      await pastTimer();
      await expect(page).toHaveURL(/\/subscribe$/);
      await expect(alertBanner(page)).toHaveText(VALIDATION.emailRequired);
      expect(posts).toEqual(["/subscribe"]);
    });

    test("subscribe: an empty first name gets the spec's message on its field, not the browser's; one POST", async ({ page }) => {
      test.setTimeout(60_000);
      const { posts } = await openHeld(page, "/subscribe", { scriptsAtOnce: true });
      await page.getByLabel("Last Name").fill("Scriber");
      await page.getByLabel("Email Address").fill(newPerson("Empty").email);
      await page.getByRole("button", { name: "Submit" }).click();
      const first = page.getByLabel("First Name");
      await expectFieldError(page, first, VALIDATION.firstNameRequired);
      await expect(first).toBeFocused();
      await expect(page.getByLabel("Last Name")).toHaveValue("Scriber");
      expect(posts).toEqual(["/subscribe"]);
    });

    test("password request: the spec's answer before the scripts arrive, one POST, one mail, / 3 s after the answer was shown", async ({ page }) => {
      test.setTimeout(60_000);
      const p = newPerson("Early");
      await signUpViaApi(page, p);
      const { release, posts } = await openHeld(page, "/password/request", { scriptsAtOnce: true });
      await submitResetRequest(page, p.email, { clock: true });
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.resetRequested);
      await expect(alertBanner(page)).toHaveAttribute("data-alert-type", "success");
      await expect(page.getByLabel("Email address", { exact: true })).toHaveValue(p.email);
      expect(posts).toEqual(["/password/request"]);
      const pastTimer = await justBeforeTimer(page, release, TIMING.forgotPasswordRedirect);
      await expect(page).toHaveURL(/\/password\/request$/);
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.resetRequested);
      await pastTimer();
      await expect(page).toHaveURL(/\/$/);
      expect(posts).toEqual(["/password/request"]);
      await expect.poll(() => readAllMail().filter((m) => m.to.includes(p.email) && /password/i.test(m.subject)).length, { timeout: 15_000 }).toBe(1);
    });

    test("password request: an address the spec's pattern refuses is marked with its message and kept; one POST", async ({ page }) => {
      test.setTimeout(60_000);
      const { posts } = await openHeld(page, "/password/request", { scriptsAtOnce: true });
      await submitResetRequest(page, "sam@example");
      const email = page.getByLabel("Email address", { exact: true });
      await expect(alertBanner(page)).toHaveText(VALIDATION.forgotEmailRequired);
      await expectFieldError(page, email, VALIDATION.forgotEmailRequired);
      await expect(email).toHaveValue("sam@example");
      expect(posts).toEqual(["/password/request"]);
    });
  });
}

/** The gift form filled in for `recipientEmail` (and `recipientFirstName`) and sent. */
async function submitGift(page: Page, buyer: Person, recipientEmail: string, recipientFirstName = "Frank") {
  await page.getByLabel("Your first name").fill(buyer.firstName);
  await page.getByLabel("Your last name").fill(buyer.lastName);
  await page.getByLabel("Your email address").fill(buyer.email);
  await page.getByLabel("Recipient's first name").fill(recipientFirstName);
  await page.getByLabel("Recipient's last name").fill("Friend");
  await page.getByLabel("Recipient's email address").fill(recipientEmail);
  await page.getByLabel("Message (optional)").fill("Go Steelers!");
  await page.getByRole("button", { name: "Continue to payment" }).click();
}

/** A paid member, signed in, on `path` with its scripts held (the account's pages load them at once). */
async function memberOnHeld(page: Page, path: string) {
  const p = newPerson("Early");
  await memberViaApi(page, p);
  return { p, ...(await openHeld(page, path, { scriptsAtOnce: true, signedIn: true })) };
}

for (const screen of SCREENS) {
  test.describe(`the first press on the gift and account forms (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("gift: on to payment before the scripts arrive, one POST", async ({ page }) => {
      test.setTimeout(60_000);
      const { posts } = await openHeld(page, "/gift", { scriptsAtOnce: true });
      await submitGift(page, newPerson("Early"), newPerson("Friend").email);
      await expect(page).toHaveURL(/\/gift\/[0-9a-f-]{36}\/pay$/);
      await expect(page.getByTestId("gift-summary")).toContainText("for Frank Friend.");
      expect(posts).toEqual(["/gift"]);
    });

    test("gift: refused fields are marked, the first focused, everything typed kept, before the scripts arrive", async ({ page }) => {
      test.setTimeout(60_000);
      const buyer = newPerson("Early");
      const { release, posts } = await openHeld(page, "/gift", { scriptsAtOnce: true });
      // The browser takes "sam@example" for an email address and spaces for a name; the site's rules do not.
      await submitGift(page, buyer, "sam@example", "   ");
      const name = page.getByLabel("Recipient's first name");
      const address = page.getByLabel("Recipient's email address");
      await expect(page.getByTestId("form-outcome")).toHaveText(GIFT_MESSAGES.recipientFirstNameRequired);
      await expectFieldError(page, name, GIFT_MESSAGES.recipientFirstNameRequired);
      await expect(address).toHaveAttribute("aria-invalid", "true");
      await expect(address).toHaveAccessibleDescription(VALIDATION.emailFormat);
      // One autofocus per page, as HTML asks.
      await expect(page.locator("[autofocus]")).toHaveCount(1);
      await expect(address).toHaveValue("sam@example");
      await expect(page.getByLabel("Your email address")).toHaveValue(buyer.email);
      await expect(page.getByLabel("Recipient's last name")).toHaveValue("Friend");
      await expect(page.getByLabel("Message (optional)")).toHaveValue("Go Steelers!");
      expect(posts).toEqual(["/gift"]);
      // The scripts take over with the focus where it was.
      await runScripts(page, release);
      await expect(name).toBeFocused();
      await expect(page.getByTestId("form-outcome")).toHaveText(GIFT_MESSAGES.recipientFirstNameRequired);
    });

    test("account name: a name of spaces is marked and focused, the other name kept as typed", async ({ page }) => {
      test.setTimeout(60_000);
      const { posts } = await memberOnHeld(page, "/account/name");
      await page.getByLabel("First name").fill("   ");
      await page.getByLabel("Last name").fill("Newname");
      await page.getByRole("button", { name: "Save name" }).click();
      await expect(page.getByTestId("form-outcome")).toHaveText(VALIDATION.firstNameRequired);
      await expectFieldError(page, page.getByLabel("First name"), VALIDATION.firstNameRequired);
      await expect(page.getByLabel("Last name")).toHaveValue("Newname");
      expect(posts).toEqual(["/account/name"]);
    });

    test("account email: the link sent before the scripts arrive, one POST, one mail to each address; a wrong password keeps the address typed", async ({ page }) => {
      test.setTimeout(60_000);
      const { p, posts } = await memberOnHeld(page, "/account/email");
      const newEmail = newPerson("Moved").email;
      const email = page.getByLabel("New email address");
      const password = page.getByLabel("Current password");
      await email.fill(newEmail);
      await password.fill("wrong-password1");
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.wrongPassword);
      await expectFieldError(page, password, ACCOUNT_MESSAGES.wrongPassword);
      await expect(email).toHaveValue(newEmail);
      await expect(password).toHaveValue("");
      await password.fill(p.password);
      await page.getByRole("button", { name: "Send the link" }).click();
      await expect(page.getByTestId("form-outcome")).toHaveText(ACCOUNT_MESSAGES.emailChangeSent(newEmail));
      expect(posts).toEqual(["/account/email", "/account/email"]);
      await expect.poll(() => readAllMail().filter((m) => m.to.includes(newEmail)).length, { timeout: 15_000 }).toBe(1);
      await expect.poll(() => readAllMail().filter((m) => m.to.includes(p.email) && m.text.includes(newEmail)).length, { timeout: 15_000 }).toBe(1);
    });
  });
}
