/**
 * Ticket reminders in Chromium: the account page says which reminders are sent and
 * turns them off and on; the site's emails arrive at the real SMTP capture with a text and an
 * HTML part. (The reminders themselves, which need the site's clock moved, are read from a real
 * SMTP server in tests/integration/reminders.test.ts.)
 */
import { expect, test } from "./test";
import { ACCOUNT_MESSAGES } from "../../app/shared/messages";
import { expectNoSeriousA11yIssues } from "./helpers";
import { waitForMail } from "./mail-capture";
import { DESKTOP, hydrated, memberViaApi, newPerson } from "./visitor-helpers";

test("a member turns ticket reminders off and on from the account page", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const p = newPerson("Remy");
  await memberViaApi(page, p);
  await page.goto("/account");
  await hydrated(page);
  const status = page.getByTestId("reminders-status");
  await expect(status).toHaveText(ACCOUNT_MESSAGES.remindersOn([14, 7, 1, -1]));
  await expectNoSeriousA11yIssues(page);

  await page.getByRole("button", { name: "Turn ticket reminders off" }).click();
  await expect(page).toHaveURL(/\/account\?changed=reminders$/);
  await expect(page.getByTestId("account-notice")).toHaveText(ACCOUNT_MESSAGES.remindersTurnedOff);
  await expect(status).toHaveText(ACCOUNT_MESSAGES.remindersOff);

  // Still off after a reload; then back on.
  await page.goto("/account");
  await expect(status).toHaveText(ACCOUNT_MESSAGES.remindersOff);
  await hydrated(page);
  await page.getByRole("button", { name: "Turn ticket reminders on" }).click();
  await expect(page.getByTestId("account-notice")).toHaveText(ACCOUNT_MESSAGES.remindersTurnedOn);
  await expect(status).toHaveText(ACCOUNT_MESSAGES.remindersOn([14, 7, 1, -1]));
});

test("the receipt email arrives with a plain-text and an HTML part saying the same", async ({ page }) => {
  const p = newPerson("Hattie");
  await memberViaApi(page, p);
  const mail = await waitForMail(p.email, "receipt");
  expect(mail.text).toContain(`"${p.firstName} ${p.lastName}"`);
  const through = /Your access is valid through (\d{4}-\d{2}-\d{2})\./.exec(mail.text)?.[1];
  expect(through, mail.text).toBeTruthy();
  expect(mail.html).toContain(`Your access is valid through ${through}.`);
  expect(mail.html).toContain("&quot;Hattie Fan&quot;");
  expect(mail.html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/"/);
  expect(mail.listUnsubscribe).toBeUndefined();
});
