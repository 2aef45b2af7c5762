/**
 * Visit counts that respect visitors (decision 060), on both databases: a page shown counts one
 * view by its own small request, whether the page came from a render, the site's stored pages or
 * the deployment guide's nginx cache; bots, prefetches, HEAD, the console and addresses that are
 * no page count nothing; no cookie is set and no address or identifier is kept (the tables'
 * columns and rows are read); searches with and without results and the steps to a paid ticket
 * are counted; and the Overview's figures equal the database's, after purchases, refunds and
 * gifts made through the services and pages.
 */
import { and, eq, gte, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/shared/calendar";
import { exhibitPath, favoriteStoryPath } from "~/shared/exhibit-links";
import { gifts, payments, searchCounts, users, visitCounts, visitDays, visitMonths } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { createStaffAccount } from "../helpers/admin-fixtures";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { call, findNginx } from "../helpers/instances";
import { nginxInFront } from "../helpers/nginx-in-front";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const nginxMissing = findNginx() ? null : "nginx is not installed (apt-get install -y nginx)";
if (nginxMissing && process.env.CI) throw new Error(`the visit-count test needs nginx in CI: ${nginxMissing}`);

describe.each(drivers)("visit counts on %s", (kind) => {
  let server: TestServer;
  let port: number;
  const db = () => server.services.database.db;
  const today = () => museumToday();

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true });
    port = Number(new URL(server.url).port);
  }, 120_000);
  afterAll(() => server?.close());

  /** What the page's beacon sends (app/lib/visit-beacon.js), as a browser sends it: no cookie, our Origin. */
  const beacon = (body: Record<string, unknown>, headers: Record<string, string> = {}, to = port) =>
    call(to, "/api/visits", { body, headers: { "user-agent": CHROME, origin: `http://127.0.0.1:${to}`, ...headers } });
  /** The views of `address` today, once every counted view is written. */
  const viewsOf = async (address: string) => {
    await server.services.visits.flush();
    const [row] = await db().select().from(visitCounts).where(and(eq(visitCounts.day, today()), eq(visitCounts.path, address)));
    return row?.views ?? 0;
  };

  it("counts a page once per showing, rendered or stored, and the page's own answer counts nothing", async () => {
    const first = await call(port, "/about", { headers: { "user-agent": CHROME } });
    const stored = await call(port, "/about", { headers: { "user-agent": CHROME } });
    for (const page of [first, stored]) {
      expect(page.status).toBe(200);
      expect(page.text).toContain("/api/visits");
      expect(page.headers["set-cookie"]).toBeUndefined();
    }
    // Two page answers and a HEAD, no beacon yet: nothing counted.
    await call(port, "/about", { method: "HEAD", headers: { "user-agent": CHROME } });
    expect(await viewsOf("/about")).toBe(0);
    for (let i = 0; i < 2; i++) {
      const answer = await beacon({ path: "/about", search: "" });
      expect(answer.status).toBe(204);
      expect(answer.headers["set-cookie"]).toBeUndefined();
    }
    expect(server.services.visits.pending().views).toBe(2);
    expect(await viewsOf("/about")).toBe(2);
    // Written once: a second flush adds nothing, and later views add to the same row.
    expect(await viewsOf("/about")).toBe(2);
    await beacon({ path: "/about/" });
    expect(await viewsOf("/about")).toBe(3);
  });

  it("counts nothing for bots, prefetches, the console, a token's page or an address that is no page", async () => {
    const before = await viewsOf("/about");
    for (const agent of ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Mozilla/5.0 (compatible; bingbot/2.0)", "some-crawler/1.0", "FooSpider", ""]) {
      expect((await beacon({ path: "/about" }, { "user-agent": agent })).status).toBe(204);
    }
    expect((await beacon({ path: "/about" }, { "sec-purpose": "prefetch" })).status).toBe(204);
    expect((await beacon({ path: "/about" }, { "sec-purpose": "prefetch;prerender" })).status).toBe(204);
    expect(await viewsOf("/about")).toBe(before);
    for (const address of ["/admin", "/admin/exhibits", "/account", "/login", "/gift/redeem/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "/teams/no-such-team", "/no-such-page", "about"]) {
      // Answered as a counted view (the page reads no answer), and not counted.
      const answer = await beacon({ path: address });
      expect(answer.status, address).toBe(204);
      expect(answer.text).toBe("");
    }
    expect((await beacon({ path: 42 })).status).toBe(400);
    // Another site's page cannot count views here.
    expect((await beacon({ path: "/about" }, { origin: "https://elsewhere.example" })).status).toBe(403);
    await server.services.visits.flush();
    const rows = await db().select().from(visitCounts);
    expect(rows.map((r) => r.path).filter((p) => p.startsWith("/admin") || p.startsWith("/account") || p.startsWith("/gift/redeem") || p === "/no-such-page")).toEqual([]);
  });

  it("counts an exhibit under its team address whichever address it was shown at", async () => {
    const [exhibit] = await server.services.catalog.listExhibits({ favoriteStory: true }, false);
    const own = exhibitPath(exhibit);
    const before = await viewsOf(own);
    expect((await beacon({ path: own })).status).toBe(204);
    expect((await beacon({ path: favoriteStoryPath(exhibit._id) })).status).toBe(204);
    expect((await beacon({ path: own.toUpperCase() })).status).toBe(204);
    expect(await viewsOf(own)).toBe(before + 3);
    const figures = await server.services.admin.overview.figures(7, { money: false });
    expect(figures.mostViewed.exhibits[0]).toEqual({ name: exhibit.title, path: own, views: before + 3 });
    // Two months ago, as the counter writes a day (its row, its month's): a long period reads whole
    // months from visit_months and the days around them from visit_counts, and says the same.
    const earlier = addDays(today(), -60);
    await db().insert(visitCounts).values({ day: earlier, path: own, views: 40 });
    await db().insert(visitMonths).values({ month: `${earlier.slice(0, 7)}-01`, path: own, views: 40 }).onConflictDoUpdate({ target: [visitMonths.month, visitMonths.path], set: { views: sql`${visitMonths.views} + 40` } });
    for (const period of [7, 30, 90, 365] as const) {
      const from = addDays(today(), -(period - 1));
      const [direct] = await db().select({ n: sql<number>`coalesce(sum(${visitCounts.views}), 0)`.mapWith(Number) }).from(visitCounts).where(and(eq(visitCounts.path, own), gte(visitCounts.day, from)));
      const listed = (await server.services.admin.overview.figures(period, { money: false })).mostViewed.exhibits.find((e) => e.path === own);
      expect(listed?.views, `${period} days`).toBe(direct.n);
    }
  });

  it("keeps no cookie, address, user agent or identifier: the tables hold a day, a page or search words, and how many", async () => {
    await beacon({ path: "/", search: "" });
    await beacon({ path: "/search", search: "?q=zzyzx+qwv", results: 0 });
    await server.services.visits.flush();
    const columns = await db().execute<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns where table_name in ('visit_counts', 'visit_days', 'visit_months', 'search_counts') order by table_name, ordinal_position`,
    );
    const rowsOf = (r: unknown) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as { table_name: string; column_name: string }[];
    expect(rowsOf(columns).map((c) => `${c.table_name}.${c.column_name}`)).toEqual([
      "search_counts.day",
      "search_counts.found",
      "search_counts.query",
      "search_counts.searches",
      "visit_counts.day",
      "visit_counts.path",
      "visit_counts.views",
      "visit_days.day",
      "visit_days.views",
      "visit_months.month",
      "visit_months.path",
      "visit_months.views",
    ]);
    const everything = JSON.stringify([await db().select().from(visitCounts), await db().select().from(visitDays), await db().select().from(visitMonths), await db().select().from(searchCounts)]);
    for (const trace of ["127.0.0.1", "::1", "Chrome", "Mozilla", "museum_session"]) expect(everything).not.toContain(trace);
    // And the privacy policy says what is counted, in the museum's own section.
    const policy = (await call(port, "/privacypolicy")).text;
    expect(policy).toContain("Visit counts");
    expect(policy).toContain("It carries no cookie, and we keep no IP address, browser details or anything else that could tell one visitor from another");
  });

  it("counts searches with and without results, keeping only the words of those that found nothing (searched again to be sure)", async () => {
    const found = async () => (await db().select({ n: sql<number>`coalesce(sum(${searchCounts.searches}), 0)`.mapWith(Number) }).from(searchCounts).where(and(eq(searchCounts.day, today()), eq(searchCounts.found, true))))[0].n;
    const before = await found();
    await beacon({ path: "/search", search: "?q=Steelers", results: 12 });
    await beacon({ path: "/search", search: "?q=Steelers&page=2", results: 12 });
    await beacon({ path: "/search", search: "", results: 0 });
    // Said to have found nothing, but a visitor's search finds something: counted as found, words not kept.
    await beacon({ path: "/search", search: "?q=steelers", results: 0 });
    await beacon({ path: "/search", search: "?q=Nothing%20Like%20%20This%20Zq", results: 0 });
    await beacon({ path: "/search", search: "?q=nothing+like+this+zq", results: 0 });
    await server.services.visits.flush();
    expect(await found()).toBe(before + 2);
    const missing = await db().select().from(searchCounts).where(and(eq(searchCounts.day, today()), eq(searchCounts.found, false)));
    expect(missing.map((r) => [r.query, r.searches]).sort()).toEqual([["nothing like this zq", 2], ["zzyzx qwv", 1]]);
    const figures = await server.services.admin.overview.figures(30, { money: false });
    expect(figures.searches).toMatchObject({ found: before + 2, notFound: 3 });
    expect(figures.searches.notFoundQueries).toEqual([{ query: "nothing like this zq", searches: 2 }, { query: "zzyzx qwv", searches: 1 }]);
    expect(figures.business).toBeNull();
  });

  it("writes what it counted when it stops", async () => {
    await beacon({ path: "/termsandconditions" });
    await server.services.visits.stop();
    expect(server.services.visits.pending().views).toBe(0);
    expect(await viewsOf("/termsandconditions")).toBe(1);
  });

  it("the Overview's figures equal the database's: views per day, sales and refunds per week, members, gifts and the steps to a paid ticket", async () => {
    const admin = await createStaffAccount(server.services, "admin");
    const actor = { userId: admin.userId, email: admin.email };
    for (let i = 0; i < 3; i++) await beacon({ path: "/admission" });
    await beacon({ path: "/admission/payment" });
    await beacon({ path: "/admission/payment" });
    // Two tickets paid, one refunded; members: one with a ticket ending in 10 days, one lapsed.
    const buyers = [await createSignedInAccount(server.services, { firstName: "Pat" }), await createSignedInAccount(server.services, { firstName: "Lee" })];
    for (const [i, b] of buyers.entries()) {
      await server.services.membership.grantTicket({ userId: b.userId, provider: "test", providerPaymentId: `pi_visits_${kind}_${i}`, amountCents: 699, currency: "usd", cardBrand: "visa", cardLast4: "4242", receiptEmail: b.email });
    }
    const [refundable] = await db().select().from(payments).where(eq(payments.providerPaymentId, `pi_visits_${kind}_1`));
    expect((await server.services.admin.members.refund(actor, refundable.id)).ok).toBe(true);
    await createSignedInAccount(server.services, { firstName: "Soon", validThrough: addDays(today(), 10) });
    await createSignedInAccount(server.services, { firstName: "Gone", validThrough: addDays(today(), -3) });
    // A gift bought through its pages, then refunded.
    const giftForm = { buyerFirstName: "Bea", buyerLastName: "Buyer", buyerEmail: "bea.visits@example.com", recipientFirstName: "Ray", recipientLastName: "R", recipientEmail: "ray.visits@example.com", message: "", deliverOn: addDays(today(), 3) };
    const draft = await call(port, "/gift", { form: giftForm, headers: { origin: server.url } });
    const payPath = String(draft.headers.location);
    const paid = await call(port, payPath, { form: { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123", zip: "15212", attemptId: crypto.randomUUID() }, headers: { origin: server.url } });
    expect(paid.status).toBe(302);
    expect((await server.services.gifts.refund(actor, payPath.split("/")[2])).ok).toBe(true);
    await server.services.visits.flush();

    const f = await server.services.admin.overview.figures(7, { money: true });
    const from = addDays(today(), -6);
    expect(f.from).toBe(from);
    expect(f.to).toBe(today());
    expect(f.viewsPerDay).toHaveLength(7);
    const [dbViews] = await db().select({ n: sql<number>`coalesce(sum(${visitCounts.views}), 0)`.mapWith(Number) }).from(visitCounts).where(gte(visitCounts.day, from));
    expect(f.totalViews).toBe(dbViews.n);
    expect(f.viewsPerDay.at(-1)!.views).toBe(dbViews.n);
    const [dayTotal] = await db().select().from(visitDays).where(eq(visitDays.day, today()));
    expect(dayTotal.views).toBe(dbViews.n);
    const b = f.business!;
    const allPayments = await db().select().from(payments);
    const refunded = allPayments.filter((p) => p.status === "refunded");
    const allGifts = await db().select().from(gifts);
    const paidGifts = allGifts.filter((g) => g.paidAt);
    const sum = (rows: { amountCents: number }[]) => rows.reduce((a, r) => a + r.amountCents, 0);
    const weeks = b.salesPerWeek;
    expect(weeks).toHaveLength(1);
    expect(weeks[0]).toEqual({
      week: from,
      tickets: allPayments.length,
      ticketCents: sum(allPayments),
      gifts: paidGifts.length,
      giftCents: sum(paidGifts),
      refunds: refunded.length + allGifts.filter((g) => g.refundedAt).length,
      refundCents: sum(refunded) + sum(allGifts.filter((g) => g.refundedAt)),
    });
    expect(weeks[0]).toMatchObject({ tickets: 2, ticketCents: 1398, gifts: 1, giftCents: 699, refunds: 2, refundCents: 1398 });
    const members = await db().select().from(users).where(sql`${users.validThrough} is not null`);
    expect(b.members).toEqual({
      active: members.filter((m) => m.validThrough! >= today()).length,
      expiringIn30Days: members.filter((m) => m.validThrough! >= today() && m.validThrough! <= addDays(today(), 30)).length,
      lapsed: members.filter((m) => m.validThrough! < today()).length,
    });
    // Gone's ticket ended 3 days ago; Lee's only ticket was refunded, which ended it.
    expect(b.members.lapsed).toBe(2);
    expect(b.gifts).toEqual({ bought: 1, boughtCents: 699, redeemed: 0, refunded: 1 });
    expect(b.funnel).toEqual({ admissionViews: 3, paymentViews: 2, paid: 2 });

    // The page shows them to an admin, the CSV says the same; a curator sees no money.
    const page = await call(port, "/admin?period=7", { cookie: admin.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain("How the museum is doing");
    expect(page.text).toContain("$13.98");
    const csv = await call(port, "/admin/overview/export?period=7", { cookie: admin.cookie });
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.text).toContain(`tickets sold (week from),${from},,2,13.98\r\n`);
    expect(csv.text).toContain("admission page viewed,,,3,\r\n");
    expect(csv.text).toContain(`page views,${today()},,${dbViews.n},\r\n`);
    const curator = await createStaffAccount(server.services, "curator");
    const curatorPage = await call(port, "/admin?period=7", { cookie: curator.cookie });
    expect(curatorPage.text).toContain("Page views per day");
    expect(curatorPage.text).not.toContain("Sales and refunds per week");
    expect((await call(port, "/admin/overview/export?period=7", { cookie: curator.cookie })).text).not.toContain("tickets sold");
  });

  describe.skipIf(nginxMissing !== null)("behind the deployment guide's nginx with its cache", () => {
    const nginx = nginxInFront(() => port, "museum-nginx-visits-");

    it("counts each showing of a page nginx answered from its cache once", async () => {
      const before = await viewsOf("/privacypolicy");
      await call(nginx.port(), "/privacypolicy");
      for (let i = 0; i < 3; i++) {
        const page = await call(nginx.port(), "/privacypolicy", { headers: { "user-agent": CHROME } });
        expect(page.headers["x-cache-status"]).toMatch(/HIT|UPDATING/);
        expect(page.text).toContain("/api/visits");
        expect((await beacon({ path: "/privacypolicy" }, { origin: new URL(server.config.PUBLIC_URL).origin }, nginx.port())).status).toBe(204);
      }
      expect(await viewsOf("/privacypolicy")).toBe(before + 3);
    });
  });
});
