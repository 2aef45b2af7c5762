/**
 * On a phone (390x844) and a desktop (1366x900): a connection that drops
 * during 'Authorize Payment' leaves the person on the payment page with a clear message and the
 * form as typed (no error page, no trip home), and pressing the button again sends the same
 * attempt id, so the payment's idempotency key is the same and the ticket is bought once.
 */
import { type Page, type Route } from "@playwright/test";
import { expect, test } from "./test";
import { calendarDateIn, daysUntil } from "../../app/shared/calendar";
import { PAGE_MESSAGES, SERVER_MESSAGES } from "../../app/shared/messages";
import { TIMING } from "../../app/lib/timing";
import { expectNoSeriousA11yIssues } from "./helpers";
import {
  alertBanner,
  expectAlertInView,
  expectNoErrorPage,
  fillCard,
  freeze,
  installClock,
  newPerson,
  SCREENS,
  signUpViaApi,
  watchForCrashes,
} from "./visitor-helpers";

const TICKET_DAYS = 120;
const MUSEUM_TIME_ZONE = "America/New_York";

/**
 * Watches the payment page's form posts: records each body, and gets the first one no answer,
 * either after the server has handled it (`charged`: the answer is lost on the way back) or
 * before it ever reaches the server.
 */
async function dropFirstPaymentPost(page: Page, when: "charged" | "not sent"): Promise<string[]> {
  const bodies: string[] = [];
  await page.route("**/admission/payment.data*", async (route: Route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.fallback();
    bodies.push(request.postData() ?? "");
    if (bodies.length > 1) return route.fallback();
    if (when === "charged") await route.fetch();
    await route.abort("connectionreset");
  });
  return bodies;
}

async function expectCardKept(page: Page) {
  await expect(page.getByTestId("test-card-form")).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await expect(page.getByLabel("Expiration date")).toHaveValue("12/34");
  await expect(page.getByLabel("CVC")).toHaveValue("123");
  await expect(page.getByLabel("ZIP code")).toHaveValue("15212");
}

/** Days of access the account holds from today: one ticket is TICKET_DAYS, two would be twice that. */
async function daysOfAccess(page: Page): Promise<number> {
  const response = await page.request.post("/api/users/relogin");
  expect(response.ok(), await response.text()).toBe(true);
  const { account } = (await response.json()) as { account: { validThrough: string | null } };
  expect(account.validThrough).not.toBeNull();
  return daysUntil(account.validThrough!, calendarDateIn(MUSEUM_TIME_ZONE, new Date()));
}

for (const screen of SCREENS) {
  test.describe(`a dropped connection while paying (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    for (const when of ["charged", "not sent"] as const) {
      test(`no answer (${when === "charged" ? "after the server charged" : "before it reached the server"}): a message, the form kept, one ticket after the retry`, async ({ page }) => {
        await signUpViaApi(page, newPerson("Retry"));
        const bodies = await dropFirstPaymentPost(page, when);
        const crashes = watchForCrashes(page);
        await installClock(page);
        await page.goto("/admission/payment");
        await freeze(page);
        await fillCard(page, {}, false);
        await page.getByRole("button", { name: "Authorize Payment" }).click();

        await expectAlertInView(page, PAGE_MESSAGES.paymentNoAnswer);
        await expectNoErrorPage(page);
        await expectCardKept(page);
        // Neither a timer nor the error page's redirect takes the person away or the message off.
        await page.clock.runFor(TIMING.errorPageRedirect + 1000);
        await expect(page).toHaveURL(/\/admission\/payment$/);
        await expect(alertBanner(page)).toHaveText(PAGE_MESSAGES.paymentNoAnswer);
        await expectCardKept(page);

        await page.getByRole("button", { name: "Authorize Payment" }).click();
        await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.paymentSuccess);
        // The retry was the same payment: same attempt id, hence the same idempotency key.
        const attempts = bodies.map((b) => new URLSearchParams(b).get("attemptId"));
        expect(attempts).toHaveLength(2);
        expect(attempts[0]).toMatch(/^[0-9a-f-]{36}$/);
        expect(attempts[1]).toBe(attempts[0]);
        // And one ticket was granted, not two.
        const days = await daysOfAccess(page);
        expect(days).toBeGreaterThanOrEqual(TICKET_DAYS - 1);
        expect(days).toBeLessThanOrEqual(TICKET_DAYS + 1);

        await page.clock.runFor(TIMING.paymentRedirect + 100);
        await expect(page).toHaveURL(/\/$/);
        expect(crashes).toEqual([]);
      });
    }

    test("the no-answer state passes the accessibility check", async ({ page }) => {
      await signUpViaApi(page, newPerson("Access"));
      await dropFirstPaymentPost(page, "not sent");
      await page.goto("/admission/payment");
      await fillCard(page, {}, false);
      await page.getByRole("button", { name: "Authorize Payment" }).click();
      await expect(alertBanner(page)).toHaveText(PAGE_MESSAGES.paymentNoAnswer);
      await expectNoSeriousA11yIssues(page);
    });
  });
}
