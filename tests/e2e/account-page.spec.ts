/**
 * The account page in Chromium: a member opens it from the greeting and the
 * navigation, reads the ticket in words, opens the receipt of the payment; an unpaid account
 * reaches it and logs out from the top bar; both pages are axe clean, on a phone and a desktop.
 */
import { expect, test } from "./test";
import { expectNoSeriousA11yIssues } from "./helpers";
import { waitForMail } from "./mail-capture";
import { DESKTOP, PHONE, bottomMenu, hydrated, memberViaApi, newPerson, signUpViaApi } from "./visitor-helpers";

test("a member opens the account page from the greeting and reads the receipt of the payment", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const p = newPerson("Mario");
  await memberViaApi(page, p);
  await page.goto("/");
  await hydrated(page);
  await page.getByTestId("greeting").click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByTestId("account-name")).toHaveText(`${p.firstName} ${p.lastName}`);
  await expect(page.getByTestId("account-email")).toHaveText(p.email);
  await expect(page.getByTestId("ticket-status")).toHaveText(/^Your ticket is valid through [A-Z][a-z]+ \d{1,2}, \d{4}: 120 days left\.$/);
  await expect(page.getByTestId("newsletter-status")).toHaveText("You do not receive the museum newsletter.");
  await expectNoSeriousA11yIssues(page);

  // The receipt emailed at payment (real SMTP capture) and the receipt page tell the same payment.
  const mail = await waitForMail(p.email, "receipt");
  const reference = /Payment reference: (\S+)/.exec(mail.text)?.[1];
  expect(reference).toBeTruthy();
  await page.getByRole("link", { name: /^Receipt of / }).click();
  await expect(page).toHaveURL(/\/account\/receipts\/[0-9a-f-]{36}$/);
  const receipt = page.getByTestId("receipt");
  await expect(receipt).toContainText("Pittsburgh Sports Museum & Hall of Fame");
  await expect(page.getByTestId("receipt-amount")).toHaveText("$6.99 USD");
  await expect(page.getByTestId("receipt-card")).toHaveText("Visa ending in 4242");
  await expect(receipt).toContainText(reference!);
  await expect(page.getByTestId("receipt-period")).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4} to [A-Z][a-z]+ \d{1,2}, \d{4}$/);
  await expect(page.getByRole("button", { name: "Print this receipt" })).toBeVisible();
  await expectNoSeriousA11yIssues(page);

  // The Account link of the navigation, and Log out on the page.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole("main").getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
});

test("an unpaid account on a phone finds My Account and Log Out in the menu", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const p = newPerson("Lynn");
  await signUpViaApi(page, p);
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("button", { name: "Menu" }).click();
  const menu = page.getByRole("navigation", { name: "Main (mobile)" });
  await expect(menu.getByRole("link", { name: "Member Login" })).toHaveCount(0);
  await menu.getByRole("link", { name: "My Account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId("ticket-status")).toHaveText("Your ticket is not paid yet.");
  await expect(page.getByText("No payments yet.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Buy your ticket" })).toHaveAttribute("href", "/admission/payment");
  await expect(bottomMenu(page).getByRole("button", { name: "Log Out" })).toBeVisible();
  await expectNoSeriousA11yIssues(page);
  await page.getByRole("button", { name: "Menu" }).click();
  await menu.getByRole("button", { name: "Log Out" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("on a desktop the top bar's links stand on one line for a member and for an unpaid account, Shop included", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const centres = async () =>
    // Where each link's words are drawn (its first line box), not its list item's box.
    page.getByRole("navigation", { name: "Main" }).getByRole("listitem").evaluateAll((items) => items.map((li) => {
      const r = li.querySelector("a, button")!.getClientRects()[0];
      return Math.round(r.top + r.height / 2);
    }));
  await memberViaApi(page, newPerson("Nina"));
  await page.goto("/about");
  const member = await centres();
  expect(member.length).toBeGreaterThan(4);
  const spread = (ys: number[]) => Math.max(...ys) - Math.min(...ys);
  expect(spread(member), `centres ${member.join(", ")}`).toBeLessThanOrEqual(2);

  await page.context().clearCookies();
  await signUpViaApi(page, newPerson("Otto"));
  await page.goto("/about");
  const unpaid = await centres();
  expect(spread(unpaid), `centres ${unpaid.join(", ")}`).toBeLessThanOrEqual(2);
});
