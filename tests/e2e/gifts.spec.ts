/**
 * Gift tickets in Chromium (decision 018), with the emails read from the real SMTP
 * capture: a signed-out visitor finds "Give a ticket" in the footer, is told what is missing,
 * pays with a test card and gets a receipt; the recipient's email carries the redeem link, which
 * signs them up and adds the ticket; the spent link then says so. Axe clean on every new page.
 */
import { expect, test } from "./test";
import { GIFT_MESSAGES } from "../../app/shared/gift-schemas";
import { expectNoSeriousA11yIssues } from "./helpers";
import { firstLink, waitForMail } from "./mail-capture";
import { DESKTOP, hydrated, newPerson, payWithTestCard, PHONE } from "./visitor-helpers";

test("a visitor gives a ticket; the recipient redeems the emailed link by signing up, once", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const buyer = newPerson("Gail");
  const friend = newPerson("Frank");

  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Give a ticket" }).click();
  await expect(page).toHaveURL(/\/gift$/);
  await hydrated(page);
  await expectNoSeriousA11yIssues(page);
  await page.getByLabel("Your first name").fill(buyer.firstName);
  await page.getByLabel("Your last name").fill(buyer.lastName);
  await page.getByLabel("Your email address").fill(buyer.email);
  await page.getByLabel("Recipient's first name").fill(friend.firstName);
  await page.getByLabel("Recipient's last name").fill(friend.lastName);
  // The recipient's address is missing: the field says so and nothing is kept.
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByTestId("form-outcome")).toHaveText(GIFT_MESSAGES.recipientEmailRequired);
  await expect(page.getByLabel("Recipient's email address")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Recipient's email address")).toBeFocused();
  await page.getByLabel("Recipient's email address").fill(friend.email);
  await page.getByLabel("Message (optional)").fill("Go Steelers!\nEnjoy the museum.");
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveURL(/\/gift\/[0-9a-f-]{36}\/pay$/);
  await expect(page.getByTestId("gift-summary")).toContainText(`for ${friend.firstName} ${friend.lastName}. We will email it to ${friend.email} on `);
  await expectNoSeriousA11yIssues(page);
  await payWithTestCard(page, "4000 0000 0000 0002");
  await expect(page.getByTestId("form-outcome")).toContainText("declined");
  await expect(page.getByTestId("form-outcome")).toBeInViewport();
  await payWithTestCard(page);
  await expect(page).toHaveURL(/\/gift\/sent\?gift=/);
  await expect(page.getByTestId("gift-sent")).toContainText(GIFT_MESSAGES.paid);
  await expectNoSeriousA11yIssues(page);

  const receipt = await waitForMail(buyer.email, "gift ticket receipt");
  expect(receipt.text).toContain(`"${friend.firstName} ${friend.lastName}"`);
  const gift = await waitForMail(friend.email, "You have been given");
  expect(gift.text).toContain(`"${buyer.firstName} ${buyer.lastName}"`);
  expect(gift.text).toContain("> Go Steelers!\n> Enjoy the museum.");
  const link = firstLink(gift.text).replace(/^https?:\/\/[^/]+/, "");
  expect(link).toMatch(/^\/gift\/redeem\/[A-Za-z0-9_-]{43}$/);

  // The recipient, in a browser of their own, signs up on the page the link opens.
  const theirs = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: DESKTOP });
  const recipient = await theirs.newPage();
  await recipient.goto(link);
  await expect(recipient.getByTestId("gift-from")).toHaveText(`${buyer.firstName} ${buyer.lastName} gave you a ticket: 120 days of full access to the museum.`);
  await hydrated(recipient);
  await expectNoSeriousA11yIssues(recipient);
  await expect(recipient.getByLabel("Your email address", { exact: true })).toHaveValue(friend.email);
  await recipient.getByLabel("Choose a password").fill(friend.password);
  await recipient.getByLabel("Confirm your password").fill(friend.password);
  await recipient.getByLabel("I agree to the Terms and Conditions").check();
  await recipient.getByRole("button", { name: "Create my account and redeem" }).click();
  await expect(recipient).toHaveURL(/\/account\?gift=redeemed$/);
  await expect(recipient.getByTestId("account-notice")).toHaveText(GIFT_MESSAGES.redeemed);
  await expect(recipient.getByTestId("ticket-status")).toContainText("120 days left.");

  // The link is spent, for them and for anyone else.
  await recipient.goto(link);
  await expect(recipient.getByTestId("form-outcome")).toHaveText(GIFT_MESSAGES.linkRedeemed);
  await page.goto(link);
  await expect(page.getByTestId("form-outcome")).toHaveText(GIFT_MESSAGES.linkRedeemed);
  await theirs.close();
});

test("on a phone, a long unbroken message and a long address stay inside the screen on every gift page", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  const buyer = newPerson("Lena");
  // A long address (a 64-character local part, the most an address may have) and a message
  // with a word longer than the screen is wide: each must wrap, not widen the page.
  const friendEmail = `${"l".repeat(50)}${Date.now()}@example.com`;
  const word = "Pittsburgh".repeat(12);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const drafted = await page.request.post("/gift", {
    form: { buyerFirstName: buyer.firstName, buyerLastName: buyer.lastName, buyerEmail: buyer.email, recipientFirstName: "Lou", recipientLastName: "Long", recipientEmail: friendEmail, message: `Enjoy! ${word}`, deliverOn: today },
    maxRedirects: 0,
  });
  expect(drafted.status()).toBe(302);
  const payPath = drafted.headers().location;
  const fitsTheScreen = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  await page.goto(payPath);
  await expect(page.getByTestId("gift-summary")).toContainText(friendEmail);
  await fitsTheScreen();
  await payWithTestCard(page);
  await expect(page.getByTestId("gift-sent")).toContainText(GIFT_MESSAGES.paid);
  await fitsTheScreen();

  const gift = await waitForMail(friendEmail, "You have been given");
  await page.goto(firstLink(gift.text).replace(/^https?:\/\/[^/]+/, ""));
  await expect(page.getByText(word)).toBeVisible();
  await fitsTheScreen();
});
