/**
 * The payments list (decision 062) in Chromium, at desktop size and on a 390 x 844 phone: a
 * member's ticket and renewal and a gift bought in the browser show in the list the Overview's
 * payments line opens; a refund from the member's page says the ticket still runs and moves the
 * totals; the filters narrow the rows and the totals; the page never scrolls sideways.
 */
import { type Page } from "@playwright/test";
import { expect, test } from "./test";
import { expectNoSeriousA11yIssues, waitForHydration } from "./helpers";
import { signedInAdmin } from "./people";
import { memberViaApi, payWithTestCard } from "./visitor-helpers";

test.describe.configure({ mode: "serial" });

const stamp = `pay${Date.now().toString(36)}`;

async function expectNoSidewaysScroll(page: Page) {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll).toBeLessThanOrEqual(width);
}

async function filter(page: Page, choices: { q?: string; kind?: string; status?: string; period?: string }) {
  if (choices.period) await page.getByLabel("Period").selectOption(choices.period);
  if (choices.kind !== undefined) await page.getByLabel("Kind").selectOption(choices.kind);
  if (choices.status !== undefined) await page.getByLabel("Status").selectOption(choices.status);
  if (choices.q !== undefined) await page.getByLabel("Email (beginning) or payment id").fill(choices.q);
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/admin/payments" && (choices.q === undefined || url.searchParams.get("q") === choices.q));
}

test("a ticket, a renewal and a gift show with their totals; a refund moves them; filters narrow them (desktop)", async ({ browser }) => {
  test.setTimeout(120_000);
  // A member pays twice (a ticket, then a renewal); a buyer pays for a gift on the gift page.
  const buyer = await (await browser.newContext()).newPage();
  await memberViaApi(buyer, { firstName: "Ann", lastName: "Fan", email: `${stamp}-ann@example.com`, password: "Steel3rs!" });
  // A second payment of its own (another idempotency key: not a replay of the first).
  expect((await buyer.request.post("/api/stripe/payment", { data: { id: "pm_card_visa", idempotencyKey: `${stamp}-renewal` } })).status()).toBe(200);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
  const drafted = await buyer.request.post("/gift", {
    form: { buyerFirstName: "Bea", buyerLastName: "Buyer", buyerEmail: `${stamp}-bea@example.com`, recipientFirstName: "Ray", recipientLastName: "Recipient", recipientEmail: `ray.${stamp}@example.com`, message: "", deliverOn: today },
    maxRedirects: 0,
  });
  await buyer.goto(drafted.headers().location);
  await waitForHydration(buyer);
  await payWithTestCard(buyer);
  await buyer.waitForURL((url) => url.pathname === "/gift/sent", { timeout: 20_000 });

  const admin = await signedInAdmin(browser);
  // The Overview's payments line opens the list of the last 7 days.
  await admin.getByRole("link", { name: /payments? \(\$/ }).click();
  await admin.waitForURL((url) => url.pathname === "/admin/payments" && url.searchParams.get("period") === "7");
  await waitForHydration(admin);
  await expect(admin.getByRole("heading", { name: "Payments" })).toBeVisible();
  await filter(admin, { q: stamp });
  const table = admin.getByRole("region", { name: "Payments" });
  await expect(table.getByRole("row")).toHaveCount(4);
  await expect(table).toContainText("Renewal");
  await expect(table).toContainText("Gift ticket");
  await expect(admin.getByTestId("totals-payments")).toHaveText("3 · $20.97");
  await expect(admin.getByTestId("totals-refunds")).toHaveText("0 · $0.00");
  await expect(admin.getByTestId("totals-net")).toHaveText("$20.97");
  await expectNoSidewaysScroll(admin);
  await expectNoSeriousA11yIssues(admin);

  // The renewal is refunded from the member's page: her first ticket still runs, and the message says so.
  await table.getByRole("link", { name: `Ann Fan <${stamp}-ann@example.com>` }).first().click();
  await admin.waitForURL(/\/admin\/members\/[0-9a-f-]{36}$/);
  await waitForHydration(admin);
  await admin.getByText(/^Refund/).first().click();
  await admin.getByRole("checkbox", { name: /^Yes, refund/ }).first().check();
  await admin.getByRole("button", { name: /^Confirm the refund/ }).first().click();
  await expect(admin.getByTestId("console-notice")).toHaveText(new RegExp(`^Refunded\\. ${stamp}-ann@example\\.com is now valid through \\d{4}-\\d{2}-\\d{2}\\.$`));

  await admin.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Payments" }).click();
  await admin.waitForURL((url) => url.pathname === "/admin/payments");
  await waitForHydration(admin);
  await filter(admin, { q: stamp });
  await expect(admin.getByTestId("totals-payments")).toHaveText("3 · $20.97");
  await expect(admin.getByTestId("totals-refunds")).toHaveText("1 · $6.99");
  await expect(admin.getByTestId("totals-net")).toHaveText("$13.98");
  await expect(table.getByRole("row").nth(1)).toContainText("Refunded");

  await filter(admin, { kind: "renewal" });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(admin.getByTestId("totals-payments")).toHaveText("1 · $6.99");
  await filter(admin, { kind: "", status: "paid" });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(admin.getByTestId("totals-refunds")).toHaveText("0 · $0.00");
  await expectNoSidewaysScroll(admin);
});

test("on a 390 px phone the rows are cards, the filters and totals fit, and nothing scrolls sideways", async ({ browser }) => {
  test.setTimeout(90_000);
  const phone = await signedInAdmin(browser, { width: 390, height: 844 });
  await phone.goto(`/admin/payments?period=30&q=${stamp}`);
  await waitForHydration(phone);
  await expect(phone.getByTestId("totals-payments")).toHaveText("3 · $20.97");
  await expectNoSidewaysScroll(phone);
  await expectNoSeriousA11yIssues(phone);
  const region = phone.getByRole("region", { name: "Payments" });
  expect((await region.boundingBox())!.width).toBeLessThanOrEqual(390);
  // Each row a card: its cells labelled and stacked, not side by side.
  const firstRow = region.getByRole("row").nth(1);
  await expect(firstRow).toBeVisible();
  const cells = firstRow.getByRole("cell");
  const [a, b] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
  expect(b!.y).toBeGreaterThan(a!.y);
  await filter(phone, { status: "refunded" });
  await expect(phone.getByTestId("totals-refunds")).toHaveText("1 · $6.99");
  await expect(region.getByRole("row")).toHaveCount(2);
  await expectNoSidewaysScroll(phone);
  // A wrong custom period: the message, still no sideways scrolling.
  await phone.goto(`/admin/payments?period=custom&from=2026-11-20&to=2026-11-01`);
  await expect(phone.getByTestId("payments-error")).toHaveText("The first day (From) must be on or before the last day (To).");
  await expectNoSidewaysScroll(phone);
});
