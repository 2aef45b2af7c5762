/** Contact and Subscribe in a real browser: fields, messages, spinner, timers (clock), failure, opt-in. */
import { expect, test } from "./test";
import { CONTACT_MESSAGES, CONTACT_SUBJECTS, SUBSCRIBE_MESSAGES, VALIDATION } from "../../app/shared/messages";
import { TIMING } from "../../app/lib/timing";
import { expectNoSeriousA11yIssues, freezeClock, waitForHydration } from "./helpers";
import { isFormPost } from "./visitor-helpers";

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

test.describe("contact", () => {
  test("has every field, the seven subjects in order and consent checked by default", async ({ page }) => {
    await page.goto("/contact");
    for (const label of ["First name", "Last name", "Email address", "Subject", "Message"]) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    const options = await page.getByLabel("Subject").locator("option:not([disabled])").allTextContents();
    expect(options).toEqual([...CONTACT_SUBJECTS]);
    await expect(page.getByLabel(/subscribe me/)).toBeChecked();
    await expectNoSeriousA11yIssues(page);
  });

  test("names each missing field with the spec's message", async ({ page }) => {
    await page.goto("/contact");
    // Pressed at once, before the page's scripts are running: the send waits for them and is
    // checked with the spec's messages, never the browser's own.
    await page.getByRole("button", { name: "Send Message" }).click();
    const message = (label: string) => page.getByLabel(label, { exact: true }).evaluate((el) => (el as HTMLInputElement).validationMessage);
    await expect.poll(() => message("First name")).toBe(VALIDATION.firstNameRequired);
    expect(await message("Last name")).toBe(VALIDATION.lastNameRequired);
    expect(await message("Email address")).toBe(VALIDATION.emailRequired);
    expect(await message("Subject")).toBe(VALIDATION.subjectRequired);
    expect(await message("Message")).toBe(VALIDATION.messageRequired);
  });

  test("sends, hides the form with the green message and goes home after 3.5 s", async ({ page }) => {
    await page.clock.install();
    await page.goto("/contact");
    await freezeClock(page);
    // The calls below are the page script's (spec section 7): a send before the scripts run goes
    // to the server's action instead (decision 036).
    await waitForHydration(page);
    const calls: string[] = [];
    page.on("request", (r) => {
      if (isFormPost(r) && r.url().includes("/api/")) calls.push(new URL(r.url()).pathname);
    });
    await page.getByLabel("First name", { exact: true }).fill("Pat");
    await page.getByLabel("Last name", { exact: true }).fill("Fan");
    await page.getByLabel("Email address", { exact: true }).fill(`pat${unique()}@example.com`);
    await page.getByLabel("Subject").selectOption("I have an item for your museum");
    await page.getByLabel("Message", { exact: true }).fill("I have a 1960 World Series program signed by Bill Mazeroski.");
    await page.getByRole("button", { name: "Send Message" }).click();
    const result = page.getByTestId("contact-result");
    await expect(result).toHaveText(CONTACT_MESSAGES.success);
    await expect(result).toHaveAttribute("data-alert-type", "success");
    await expect(page.getByTestId("contact-form")).toHaveCount(0);
    await expect.poll(() => calls.slice(0, 2)).toEqual(["/api/email/contact", "/api/contact"]);
    await expect.poll(() => [...calls].sort()).toEqual(["/api/contact", "/api/email/contact", "/api/mc/subscribe", "/api/subscribes"]);
    await page.clock.runFor(TIMING.contactRedirect - 100);
    await expect(page).toHaveURL(/\/contact$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/$/);
  });

  test("shows the red failure text and the form again when sending fails", async ({ page }) => {
    await page.route("**/api/email/contact", (route) => route.abort());
    await page.goto("/contact");
    await waitForHydration(page);
    await page.getByLabel("First name", { exact: true }).fill("Pat");
    await page.getByLabel("Last name", { exact: true }).fill("Fan");
    await page.getByLabel("Email address", { exact: true }).fill(`pat${unique()}@example.com`);
    await page.getByLabel("Subject").selectOption("Comment");
    await page.getByLabel("Message", { exact: true }).fill("Great museum.");
    await page.getByRole("button", { name: "Send Message" }).click();
    const result = page.getByTestId("contact-result");
    await expect(result).toHaveText(CONTACT_MESSAGES.failure);
    await expect(result).toHaveAttribute("data-alert-type", "danger");
    await expect(page.getByTestId("contact-form")).toBeVisible();
  });
});

test.describe("subscribe", () => {
  test("subscribes, hides the form, shows the green message and goes home after 3 s", async ({ page }) => {
    await page.clock.install();
    await page.goto("/subscribe");
    await freezeClock(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SUBSCRIBE_MESSAGES.headline);
    await expect(page.getByTestId("bot-check-notice")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: /receive emails/ })).toBeChecked();
    const calls: string[] = [];
    page.on("request", (r) => {
      if (isFormPost(r) && r.url().includes("/api/")) calls.push(new URL(r.url()).pathname);
    });
    await page.getByLabel("First Name").fill("Lee");
    await page.getByLabel("Last Name").fill("Fan");
    await page.getByLabel("Email Address").fill(`lee${unique()}@example.com`);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByTestId("subscribe-result")).toHaveText(SUBSCRIBE_MESSAGES.success);
    await expect(page.getByTestId("subscribe-form")).toHaveCount(0);
    expect(calls).toEqual(["/api/subscribes", "/api/mc/subscribe"]);
    await page.clock.runFor(TIMING.subscribeRedirect - 100);
    await expect(page).toHaveURL(/\/subscribe$/);
    await page.clock.runFor(200);
    await expect(page).toHaveURL(/\/$/);
  });

  test("asks for every field and for the consent box", async ({ page }) => {
    await page.goto("/subscribe");
    await expectNoSeriousA11yIssues(page);
    await page.getByRole("checkbox", { name: /receive emails/ }).uncheck();
    await page.getByRole("button", { name: "Submit" }).click();
    const message = (el: ReturnType<typeof page.getByLabel>) => el.evaluate((e) => (e as HTMLInputElement).validationMessage);
    expect(await message(page.getByLabel("First Name"))).toBe(VALIDATION.firstNameRequired);
    expect(await message(page.getByLabel("Last Name"))).toBe(VALIDATION.lastNameRequired);
    expect(await message(page.getByLabel("Email Address"))).toBe(VALIDATION.emailRequired);
    expect(await message(page.getByRole("checkbox", { name: /receive emails/ }))).toBe(VALIDATION.subscribeConsentRequired);
  });

  test("shows the red failure text with the museum's address when the call fails", async ({ page }) => {
    await page.route("**/api/subscribes", (route) => route.fulfill({ status: 500, body: "{}" }));
    await page.goto("/subscribe");
    await page.getByLabel("First Name").fill("Lee");
    await page.getByLabel("Last Name").fill("Fan");
    await page.getByLabel("Email Address").fill(`lee${unique()}@example.com`);
    await page.getByRole("button", { name: "Submit" }).click();
    const result = page.getByTestId("subscribe-result");
    await expect(result).toHaveText(SUBSCRIBE_MESSAGES.failure("info@pittsburghsportsmuseum.example"));
    await expect(page.getByTestId("subscribe-form")).toBeVisible();
  });

  test("signing up with the email opt-in sends the subscription too", async ({ page }) => {
    const email = `optin${unique()}@example.com`;
    await page.goto("/admission");
    await page.getByLabel("First name").fill("Opal");
    await page.getByLabel("Last name").fill("Fan");
    await page.getByLabel("Email address", { exact: true }).fill(email);
    await page.getByLabel("Confirm email address").fill(email);
    await page.getByLabel(/^Password/).fill("Pirates1979");
    await page.getByLabel("Confirm password").fill("Pirates1979");
    await page.getByRole("checkbox", { name: /emails and announcements/ }).check();
    await page.getByRole("checkbox", { name: /Terms and Conditions/ }).check();
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(page).toHaveURL(/\/admission\/payment$/);
    // The row itself is checked in tests/integration/accounts.test.ts; here the API accepts the same address again.
    const again = await page.request.post("/api/subscribes", { data: { firstName: "Opal", lastName: "Fan", emailAddress: email.toUpperCase(), subscribe: true } });
    expect(again.status()).toBe(200);
  });
});
