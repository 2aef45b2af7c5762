/**
 * Test mode's 3-D Secure (decision 059), on a phone (390x844) and a desktop (1366x900): in the built-in
 * test mode, Stripe's 3-D Secure test cards show a challenge where the person completes or fails
 * the authentication. Completing (with a double click) pays once: the spec's success message, one
 * payment on the account, one receipt, home after 3.5 s. Failing shows Stripe's message at the
 * card number with the card form as it was typed, and nothing is paid; the next card pays. The
 * gift's payment page does the same, with and without JavaScript.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { GIFT_MESSAGES } from "../../app/shared/gift-schemas";
import { SERVER_MESSAGES } from "../../app/shared/messages";
import { TIMING } from "../../app/lib/timing";
import { SITE_SHORT_NAME } from "../../app/shared/site";
import { CARD_MESSAGES } from "../../server/payments/test-cards.server";
import { expectNoSeriousA11yIssues } from "./helpers";
import { mailsMatching, waitForMail } from "./mail-capture";
import { alertBanner, expectAlertInView, expectFieldError, expectNoErrorPage, fillCard, freeze, hydrated, installClock, newPerson, SCREENS, signUpViaApi, watchForCrashes } from "./visitor-helpers";

const challenge = (page: Page) => page.getByTestId("test-challenge");
const cardForm = (page: Page) => page.getByTestId("test-card-form");

/** The challenge is shown in place of the card form, its heading focused. */
async function expectChallenge(page: Page) {
  await expect(challenge(page)).toBeVisible();
  await expect(challenge(page).getByRole("heading", { name: "3-D Secure test" })).toBeFocused();
  await expect(cardForm(page)).toBeHidden();
}

async function expectCardKept(page: Page, number: string) {
  await expect(cardForm(page)).toBeVisible();
  await expect(page.getByLabel("Card number")).toHaveValue(number);
  await expect(page.getByLabel("Expiration date")).toHaveValue("12/34");
  await expect(page.getByLabel("CVC")).toHaveValue("123");
  await expect(page.getByLabel("ZIP code")).toHaveValue("15212");
}

/** A gift draft made through the form's post; returns its payment page. */
async function giftDraft(page: Page, buyerEmail: string): Promise<string> {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const drafted = await page.request.post("/gift", {
    form: { buyerFirstName: "Gina", buyerLastName: "Giver", buyerEmail, recipientFirstName: "Rob", recipientLastName: "Receiver", recipientEmail: `rob.${Date.now()}@example.com`, message: "", deliverOn: today },
    maxRedirects: 0,
  });
  expect(drafted.status()).toBe(302);
  return drafted.headers().location;
}

for (const screen of SCREENS) {
  test.describe(`3-D Secure test cards (${screen.name})`, () => {
    test.use({ viewport: screen.viewport });

    test("completing the challenge with a double click pays once, says so and goes home after 3.5 s", async ({ page }) => {
      const person = newPerson("Tess");
      await signUpViaApi(page, person);
      const crashes = watchForCrashes(page);
      await installClock(page);
      await page.goto("/admission/payment");
      await freeze(page);
      await hydrated(page);
      await fillCard(page, { number: "4000 0027 6000 3184" });
      await expectChallenge(page);
      await challenge(page).getByRole("button", { name: "Complete authentication" }).dblclick();

      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.paymentSuccess);
      await expect(alertBanner(page)).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your card was charged $6.99");
      await page.clock.runFor(TIMING.paymentRedirect + 100);
      await expect(page).toHaveURL(/\/$/);
      expect(crashes).toEqual([]);

      // Exactly one payment and one receipt.
      await page.goto("/account");
      await expect(page.getByTestId("payments").locator("tbody tr")).toHaveCount(1);
      await waitForMail(person.email, `Your ${SITE_SHORT_NAME} ticket receipt`);
      await page.waitForTimeout(1000);
      expect(mailsMatching(person.email, "ticket receipt")).toHaveLength(1);
    });

    test("failing the challenge shows Stripe's message at the card number with the form kept; nothing is paid and the next card pays", async ({ page }) => {
      const person = newPerson("Fay");
      await signUpViaApi(page, person);
      await page.goto("/admission/payment");
      await hydrated(page);
      await fillCard(page, { number: "4000 0025 0000 3155" });
      await expectChallenge(page);
      await challenge(page).getByRole("button", { name: "Fail authentication" }).click();

      await expectAlertInView(page, CARD_MESSAGES.authenticationFailed);
      await expect(challenge(page)).toHaveCount(0);
      await expectCardKept(page, "4000 0025 0000 3155");
      await expectFieldError(page, page.getByLabel("Card number"), CARD_MESSAGES.authenticationFailed);
      await expectNoErrorPage(page);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your card will be charged $6.99");

      await page.getByLabel("Card number").fill("4242 4242 4242 4242");
      await page.getByRole("button", { name: "Authorize Payment" }).click();
      await expect(alertBanner(page)).toHaveText(SERVER_MESSAGES.paymentSuccess);
      await page.goto("/account");
      await expect(page.getByTestId("payments").locator("tbody tr")).toHaveCount(1);
    });

    test("a card declined after a completed challenge shows Stripe's decline, and leaving a challenge pays nothing", async ({ page }) => {
      await signUpViaApi(page, newPerson("Ned"));
      await page.goto("/admission/payment");
      await hydrated(page);
      await fillCard(page, { number: "4000 0082 6000 3178" });
      await expectChallenge(page);
      await challenge(page).getByRole("button", { name: "Complete authentication" }).click();
      await expectAlertInView(page, CARD_MESSAGES.insufficientFunds);
      await expectCardKept(page, "4000 0082 6000 3178");

      await fillCard(page, { number: "4000 0000 0000 3220" });
      await expectChallenge(page);
      await expectNoSeriousA11yIssues(page);
      await page.goto("/account");
      await expect(page.getByText("No payments yet.")).toBeVisible();
    });

    test("a gift: failing shows Stripe's message with the form kept, completing pays and goes on to /gift/sent", async ({ page }) => {
      const buyer = newPerson("Gina");
      await page.goto(await giftDraft(page, buyer.email));
      await hydrated(page);
      await fillCard(page, { number: "4000 0000 0000 3063" });
      await expectChallenge(page);
      await challenge(page).getByRole("button", { name: "Fail authentication" }).click();
      await expect(page.getByTestId("form-outcome")).toHaveText(CARD_MESSAGES.authenticationFailed);
      await expect(page.getByTestId("form-outcome")).toBeInViewport();
      await expectCardKept(page, "4000 0000 0000 3063");

      await page.getByRole("button", { name: "Authorize Payment" }).click();
      await expectChallenge(page);
      await challenge(page).getByRole("button", { name: "Complete authentication" }).dblclick();
      await expect(page).toHaveURL(/\/gift\/sent\?gift=/);
      await expect(page.getByTestId("gift-sent")).toContainText(GIFT_MESSAGES.paid);
      await waitForMail(buyer.email, "gift ticket receipt");
      await page.waitForTimeout(1000);
      expect(mailsMatching(buyer.email, "gift ticket receipt")).toHaveLength(1);
    });

    test.describe("without JavaScript", () => {
      test.use({ javaScriptEnabled: false });

      test("a gift's challenge is its own page answer: failing says so, completing pays", async ({ page }) => {
        const buyer = newPerson("Nora");
        await page.goto(await giftDraft(page, buyer.email));
        await fillCard(page, { number: "4000 0000 0000 3220" });
        await expect(challenge(page)).toBeVisible();
        await expect(cardForm(page)).toBeHidden();
        await challenge(page).getByRole("button", { name: "Fail authentication" }).click();
        await expect(page.getByTestId("form-outcome")).toHaveText(CARD_MESSAGES.authenticationFailed);
        await expect(cardForm(page)).toBeVisible();

        await fillCard(page, { number: "4000 0000 0000 3220" });
        await challenge(page).getByRole("button", { name: "Complete authentication" }).click();
        await expect(page).toHaveURL(/\/gift\/sent\?gift=/);
        await expect(page.getByTestId("gift-sent")).toContainText(GIFT_MESSAGES.paid);
        await waitForMail(buyer.email, "gift ticket receipt");
        expect(mailsMatching(buyer.email, "gift ticket receipt")).toHaveLength(1);
      });
    });
  });
}
