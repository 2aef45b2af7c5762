/**
 * The account page and its receipts, on both databases: every signed-in account
 * (paid, expired, unpaid) sees its own name, email, ticket in words, payments and newsletter
 * preference, never stored or shared; receipts open only for their own account; visitors are
 * sent to sign in; the navigation links the page, and accounts without a ticket get Logout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/shared/calendar";
import { longDate, ticketStatusWords } from "~/shared/ticket-words";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
let seq = 0;


describe("ticket words", () => {
  it("says valid through, days left, last day, expired on and not paid yet", () => {
    expect(ticketStatusWords("2027-03-23", "2026-11-23")).toBe("Your ticket is valid through March 23, 2027: 120 days left.");
    expect(ticketStatusWords("2026-11-24", "2026-11-23")).toBe("Your ticket is valid through November 24, 2026: 1 day left.");
    expect(ticketStatusWords("2026-11-23", "2026-11-23")).toBe("Your ticket is valid through November 23, 2026: today is its last day.");
    expect(ticketStatusWords("2026-11-22", "2026-11-23")).toBe("Your ticket expired on November 22, 2026.");
    expect(ticketStatusWords(null, "2026-11-23")).toBe("Your ticket is not paid yet.");
  });
});

describe.each(drivers)("account page on %s", (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { PAGE_CACHE_SECONDS: "30" });
  });
  afterAll(() => server?.close());

  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const mainOf = (html: string) => html.slice(html.indexOf('<main id="main"'), html.indexOf("</main>"));
  const navOf = (html: string, label: string) => {
    const start = html.indexOf(`aria-label="${label}"`);
    return html.slice(start, html.indexOf("</nav>", start));
  };

  async function pay(userId: string, email: string) {
    const result = await server.services.membership.grantTicket({
      userId,
      provider: "test",
      providerPaymentId: `pi_account_${++seq}_${Date.now()}`,
      amountCents: server.config.TICKET_PRICE_CENTS,
      currency: "usd",
      cardBrand: "visa",
      cardLast4: "4242",
      receiptEmail: email,
    });
    expect(result.granted).toBe(true);
    return result.validThrough!;
  }

  it("sends a visitor to sign in and back", async () => {
    const res = await get("/account");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Faccount");
  });

  it("shows a member their name, email, ticket in words, payments and newsletter, private and not stored", async () => {
    const a = await createSignedInAccount(server.services, { firstName: "Mario", lastName: "Lemieux" });
    const through = await pay(a.userId, a.email);
    for (let i = 0; i < 2; i++) {
      const res = await get("/account", a.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("x-page-cache")).toBeNull();
      const main = mainOf(await res.text());
      expect(main).toContain("Mario Lemieux");
      expect(main).toContain(a.email);
      expect(main).toContain(`Your ticket is valid through ${longDate(through)}: 120 days left.`);
      expect(main).toContain("$6.99");
      expect(main).toContain("You do not receive the museum newsletter.");
    }
    const html = await (await get("/account", a.cookie)).text();
    expect(html).toMatch(/href="\/account\/receipts\/[0-9a-f-]{36}"/);
    // The navigation links the page, and the greeting too.
    expect(navOf(html, "Main")).toContain('href="/account"');
    expect(navOf(html, "Main")).toMatch(/<a[^>]*data-testid="greeting"[^>]*href="\/account"[^>]*>Hello, Mario<\/a>/);
  });

  it("shows a second account with the same first name only its own data", async () => {
    const one = await createSignedInAccount(server.services, { firstName: "Franco", lastName: "Harris" });
    const two = await createSignedInAccount(server.services, { firstName: "Franco", lastName: "Other" });
    await pay(one.userId, one.email);
    await get("/account", one.cookie);
    const main = mainOf(await (await get("/account", two.cookie)).text());
    expect(main).toContain("Franco Other");
    expect(main).not.toContain("Harris");
    expect(main).not.toContain(one.email);
    expect(main).toContain("Your ticket is not paid yet.");
    expect(main).toContain("No payments yet.");
  });

  it("says when an expired ticket ended, and gives accounts without a ticket Account and Logout at the top", async () => {
    const ended = addDays(museumToday(), -3);
    const a = await createSignedInAccount(server.services, { firstName: "Sam", validThrough: ended });
    const html = await (await get("/account", a.cookie)).text();
    expect(mainOf(html)).toContain(`Your ticket expired on ${longDate(ended)}.`);
    const top = navOf(html, "Main");
    expect(top).toContain(">Admission<");
    expect(top).toContain('href="/account"');
    expect(top).toContain(">Logout<");
    expect(top).not.toContain(">Login<");
    expect(navOf(html, "Bottom menu")).toContain(">Logout<");
    // On a stored collection page too (the tier page cache keys the account tier apart from visitors).
    const home = await (await get("/", a.cookie)).text();
    expect(navOf(home, "Main")).toContain(">Logout<");
    const visitorHome = await (await get("/")).text();
    expect(navOf(visitorHome, "Main")).not.toContain(">Logout<");
  });

  it("shows the newsletter preference of the account's address", async () => {
    const a = await createSignedInAccount(server.services, { firstName: "Willie" });
    await server.services.newsletter.record(server.services.database.db, { email: a.email.toUpperCase(), firstName: "Willie", lastName: "Doe", consent: true, source: "subscribe", syncMailchimp: false });
    expect(mainOf(await (await get("/account", a.cookie)).text())).toContain("You receive the museum newsletter.");
  });

  it("opens a printable receipt for the account's own payment only", async () => {
    const a = await createSignedInAccount(server.services, { firstName: "Terry", lastName: "Bradshaw" });
    const b = await createSignedInAccount(server.services, { firstName: "Lynn" });
    const through = await pay(a.userId, a.email);
    const html = await (await get("/account", a.cookie)).text();
    const path = html.match(/href="(\/account\/receipts\/[0-9a-f-]{36})"/)![1];
    const res = await get(path, a.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const receipt = mainOf(await res.text());
    expect(receipt).toContain("Pittsburgh Sports Museum &amp; Hall of Fame");
    expect(receipt).toContain("$6.99 USD");
    expect(receipt).toContain("Visa ending in 4242");
    expect(receipt).toContain(longDate(museumToday()));
    expect(receipt).toContain(`${longDate(museumToday())}<!-- --> to <!-- -->${longDate(through)}`);
    expect(receipt).toContain("Terry Bradshaw");
    // Another account, a visitor, a malformed id: not found or sign in.
    expect((await get(path, b.cookie)).status).toBe(404);
    expect((await get(`${path}.data`, b.cookie)).status).toBe(404);
    expect((await get(path)).status).toBe(302);
    expect((await get("/account/receipts/not-a-uuid", a.cookie)).status).toBe(404);
    expect((await get("/account/receipts/00000000-0000-0000-0000-000000000000", a.cookie)).status).toBe(404);
  });

  it("says a renewal's period starts the day after the previous end", async () => {
    const a = await createSignedInAccount(server.services, { firstName: "Jack" });
    const first = await pay(a.userId, a.email);
    const second = await pay(a.userId, a.email);
    expect(second).toBe(addDays(first, 120));
    const html = await (await get("/account", a.cookie)).text();
    const paths = [...html.matchAll(/href="(\/account\/receipts\/[0-9a-f-]{36})"/g)].map((m) => m[1]);
    expect(paths).toHaveLength(2);
    const receipts = await Promise.all(paths.map(async (p) => mainOf(await (await get(p, a.cookie)).text())));
    expect(receipts.some((r) => r.includes(`${longDate(addDays(first, 1))}<!-- --> to <!-- -->${longDate(second)}`))).toBe(true);
  });
});
