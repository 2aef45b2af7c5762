/**
 * Renewal, on both databases: a member can buy another ticket at any time on the
 * payment page, which says the new last day before paying; the ticket extends from the current
 * end (or from today once expired), and the account page lists both payments.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/shared/calendar";
import { longDate } from "~/shared/ticket-words";
import { users } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

describe.each(drivers)("renewal on %s", (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  const page = async (cookie: string) => {
    const res = await fetch(`${server.url}/admission/payment`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(200);
    return res.text();
  };
  const pay = (cookie: string) =>
    fetch(`${server.url}/admission/payment`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123", zip: "15212", attemptId: crypto.randomUUID() }).toString(),
    });
  const validThrough = async (userId: string) => (await server.services.database.db.select().from(users).where(eq(users.id, userId)))[0].validThrough;

  it("tells a member the new last day, counted from the current end, and extends it by paying", async () => {
    const current = addDays(museumToday(), 30);
    const a = await createSignedInAccount(server.services, { firstName: "Mario", validThrough: current });
    const html = await page(a.cookie);
    const expected = addDays(current, 120);
    expect(html).toContain(`Your ticket is valid through ${longDate(current)}; this one adds 120 days after that, so it will be valid through ${longDate(expected)}.`);
    const res = await pay(a.cookie);
    expect(res.status).toBe(200);
    expect(await validThrough(a.userId)).toBe(expected);
    const account = await (await fetch(`${server.url}/account`, { headers: { cookie: a.cookie } })).text();
    expect(account).toContain(`Your ticket is valid through ${longDate(expected)}: 150 days left.`);
    expect(account).toContain("Buy another ticket");
  });

  it("counts from today for an expired ticket and for a first one", async () => {
    const expired = await createSignedInAccount(server.services, { firstName: "Sam", validThrough: addDays(museumToday(), -10) });
    const unpaid = await createSignedInAccount(server.services, { firstName: "Lynn" });
    for (const a of [expired, unpaid]) {
      expect(await page(a.cookie)).toContain(`Your ticket will be valid through ${longDate(addDays(museumToday(), 120))}.`);
      expect((await pay(a.cookie)).status).toBe(200);
      expect(await validThrough(a.userId)).toBe(addDays(museumToday(), 120));
    }
    expect(await (await fetch(`${server.url}/account`, { headers: { cookie: expired.cookie } })).text()).toContain("Buy another ticket");
  });
});
