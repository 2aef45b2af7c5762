/**
 * Renewal in Chromium: a member buys another ticket from the account page; the
 * payment page says the new last day before paying; after paying, the account shows it and
 * both payments, and the receipt email (real SMTP capture) names the same day.
 */
import { expect, test } from "./test";
import { SERVER_MESSAGES } from "../../app/shared/messages";
import { expectNoSeriousA11yIssues } from "./helpers";
import { readAllMail } from "./mail-capture";
import { DESKTOP, hydrated, memberViaApi, newPerson, payWithTestCard } from "./visitor-helpers";

test("a member renews from the account page and the ticket extends from its current end", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const p = newPerson("Renee");
  await memberViaApi(page, p);
  await page.goto("/account");
  await hydrated(page);
  const before = (await page.getByTestId("ticket-status").textContent()) ?? "";
  const current = /valid through (.+?): 120 days left/.exec(before)?.[1];
  expect(current, before).toBeTruthy();

  await page.getByRole("link", { name: "Buy another ticket" }).click();
  await expect(page).toHaveURL(/\/admission\/payment$/);
  const says = page.getByTestId("new-valid-through");
  await expect(says).toContainText(`Your ticket is valid through ${current}; this one adds 120 days after that, so it will be valid through `);
  const next = /so it will be valid through (.+)\.$/.exec((await says.textContent()) ?? "")?.[1];
  expect(next).toBeTruthy();
  await expectNoSeriousA11yIssues(page);
  await hydrated(page);
  await payWithTestCard(page);
  await expect(page.getByTestId("alert-banner")).toContainText(SERVER_MESSAGES.paymentSuccess);

  await page.goto("/account");
  await expect(page.getByTestId("ticket-status")).toHaveText(`Your ticket is valid through ${next}: 240 days left.`);
  await expect(page.getByRole("link", { name: /^Receipt of / })).toHaveCount(2);
  // The second receipt email names the new last day (as YYYY-MM-DD).
  await expect.poll(() => readAllMail().filter((m) => m.to.toLowerCase() === p.email.toLowerCase() && m.subject.includes("receipt")).length, { timeout: 15_000 }).toBe(2);
});
