/**
 * The console's payments list (decision 062), on both databases: ticket payments, renewals and
 * gifts bought and refunded through the services show as rows whose figures and totals equal
 * what was done; the period, kind, status and search filters; custom dates refused with a
 * message; the CSV in Stripe's export columns with quotes, commas and a formula neutralized; the
 * Overview's payments line opening the list with the same figures; admins only. And a refund's
 * message, true for a ticket the refund ended; a payment that bought nothing listed with its
 * reason until the provider refunds it.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/shared/calendar";
import { gifts, outbox, payments, users } from "../../server/db/schema";
import type { EmailJob } from "../../server/outbox/outbox";
import { createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const PRICE = "$6.99";
const money = (n: number) => `$${((n * 699) / 100).toFixed(2)}`;

describe.each(drivers)("the payments list on %s", (kind) => {
  let server: TestServer;
  let admin: StaffAccount;
  let curator: StaffAccount;
  const tag = `pl${crypto.randomUUID().slice(0, 6)}`;
  const db = () => server.services.database.db;
  const call = (cookie: string | undefined, p: string) => fetch(`${server.url}${p}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const page = async (p: string) => (await (await call(admin.cookie, p)).text()).replaceAll("<!-- -->", "");
  const totalsOf = (html: string) => ({
    payments: /data-testid="totals-payments">([^<]*)</.exec(html)?.[1],
    refunds: /data-testid="totals-refunds">([^<]*)</.exec(html)?.[1],
    net: /data-testid="totals-net">([^<]*)</.exec(html)?.[1],
  });
  const actor = () => ({ userId: admin.userId, email: admin.email });
  const ids: Record<string, string> = {};

  async function member(name: string) {
    const account = await createStaffAccount(server.services, "member", { firstName: name });
    const email = `${tag}-${name.toLowerCase()}@fans.example`;
    await db().update(users).set({ email }).where(eq(users.id, account.userId));
    return { ...account, email };
  }
  async function pay(userId: string, email: string) {
    const paid = await server.services.payments.pay({ userId, paymentMethodId: "pm_card_visa", receiptEmail: email, idempotencyKey: crypto.randomUUID() });
    expect(paid.status).toBe("succeeded");
    const [row] = await db().select().from(payments).where(eq(payments.userId, userId)).orderBy(sql`${payments.createdAt} desc`).limit(1);
    return row;
  }
  async function gift(over: Record<string, string> = {}) {
    const id = await server.services.gifts.createDraft(
      { buyerFirstName: "Bea", buyerLastName: "Buyer", buyerEmail: `${tag}-bea@fans.example`, recipientFirstName: "Ray", recipientLastName: "Recipient", recipientEmail: `ray.${crypto.randomUUID().slice(0, 6)}@example.com`, message: "", deliverOn: museumToday(), ...over },
      null,
    );
    expect((await server.services.gifts.pay({ giftId: id, paymentMethodId: "pm_card_visa", idempotencyKey: crypto.randomUUID() })).status).toBe("succeeded");
    return (await db().select().from(gifts).where(eq(gifts.id, id)))[0];
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await createStaffAccount(server.services, "admin");
    curator = await createStaffAccount(server.services, "curator");

    // Ann buys a ticket, then a renewal, which is refunded: her first ticket still runs.
    const ann = await member("Ann");
    const first = await pay(ann.userId, ann.email);
    const renewal = await pay(ann.userId, ann.email);
    ids.ticket = first.providerPaymentId;
    ids.renewal = renewal.providerPaymentId;
    const annRefund = await server.services.admin.members.refund(actor(), renewal.id);
    expect(annRefund).toMatchObject({ ok: true, message: `Refunded. ${ann.email} is now valid through ${first.validThroughAfter}.` });

    // Ben's only ticket is refunded: it ends, and the message says so (not "valid through" yesterday).
    const ben = await member("Ben");
    const benPaid = await pay(ben.userId, ben.email);
    ids.refunded = benPaid.providerPaymentId;
    const benRefund = await server.services.admin.members.refund(actor(), benPaid.id);
    expect(benRefund).toMatchObject({ ok: true, message: `Refunded. ${ben.email} has no valid ticket now.` });
    expect((await db().select().from(users).where(eq(users.id, ben.userId)))[0].validThrough! < museumToday()).toBe(true);

    // Cid paid 40 days ago (outside the last 30 days, inside the last 90).
    const cid = await member("Cid");
    const old = await pay(cid.userId, cid.email);
    ids.old = old.providerPaymentId;
    const oldAt = new Date(Date.now() - 40 * 86_400_000);
    await db().update(payments).set({ createdAt: oldAt, validThroughAfter: addDays(old.validThroughAfter, -40) }).where(eq(payments.id, old.id));
    ids.oldDay = museumToday(oldAt);

    // A gift whose buyer's name looks like a formula and whose recipient's has a quote and a comma: redeemed, then refunded.
    const g1 = await gift({ buyerFirstName: '=HYPERLINK("http://evil.example","x")', recipientFirstName: "Ray", recipientLastName: 'O"Hara, Jr.', recipientEmail: `${tag}-ray@fans.example` });
    ids.gift = g1.providerPaymentId!;
    while ((await server.services.outbox.runOnce()) > 0);
    const [mail] = (await db().select().from(outbox).where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'purpose' = 'gift'`, sql`${outbox.payload}->>'to' = ${g1.recipientEmail}`))).map((r) => r.payload as EmailJob);
    const token = /\/gift\/redeem\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    const dee = await createSignedInAccount(server.services, { firstName: "Dee" });
    expect((await server.services.gifts.redeem(token, dee.userId)).ok).toBe(true);
    expect(await server.services.gifts.refund(actor(), g1.id)).toMatchObject({ ok: true, message: "Refunded. The redeemer has no valid ticket now." });

    // A gift paid, to be sent in five days.
    ids.scheduled = (await gift({ deliverOn: addDays(museumToday(), 5) })).providerPaymentId!;
  }, 120_000);
  afterAll(() => server?.close());

  it("shows every payment, refund and gift of the period with totals equal to what was bought and refunded", async () => {
    const html = await page(`/admin/payments?q=${tag}`);
    // The last 30 days by default: Ann's two, Ben's, the two gifts; not Cid's of 40 days ago.
    for (const id of [ids.ticket, ids.renewal, ids.refunded, ids.gift, ids.scheduled]) expect(html).toContain(id);
    expect(html).not.toContain(ids.old);
    expect(html).toContain("5 in all");
    expect(totalsOf(html)).toEqual({ payments: `5 · ${money(5)}`, refunds: `3 · ${money(3)}`, net: money(2) });
    expect(html).toContain("Renewal");
    expect(html).toContain("Gift ticket");
    expect(html).toContain("to be sent");
    expect(html).toContain("refunded after redemption");
    expect(html).toContain("visa •••• 4242");
    // Newest activity first: the scheduled gift (paid last) before Ann's first ticket.
    expect(html.indexOf(ids.scheduled)).toBeLessThan(html.indexOf(ids.ticket));

    const year = await page(`/admin/payments?period=90&q=${tag}`);
    expect(year).toContain(ids.old);
    expect(totalsOf(year)).toEqual({ payments: `6 · ${money(6)}`, refunds: `3 · ${money(3)}`, net: money(3) });
  });

  it("filters by kind, status, search and custom dates, and refuses wrong dates with a message", async () => {
    const renewals = await page(`/admin/payments?kind=renewal&q=${tag}`);
    expect(renewals).toContain(ids.renewal);
    expect(renewals).not.toContain(ids.ticket);
    expect(totalsOf(renewals)).toEqual({ payments: `1 · ${PRICE}`, refunds: `1 · ${PRICE}`, net: "$0.00" });
    const tickets = await page(`/admin/payments?period=90&kind=ticket&q=${tag}`);
    for (const id of [ids.ticket, ids.refunded, ids.old]) expect(tickets).toContain(id);
    for (const id of [ids.renewal, ids.gift]) expect(tickets).not.toContain(id);
    const giftsOnly = await page(`/admin/payments?kind=gift&q=${tag}`);
    expect(totalsOf(giftsOnly)).toEqual({ payments: `2 · ${money(2)}`, refunds: `1 · ${PRICE}`, net: PRICE });

    const refunded = await page(`/admin/payments?status=refunded&q=${tag}`);
    for (const id of [ids.renewal, ids.refunded, ids.gift]) expect(refunded).toContain(id);
    for (const id of [ids.ticket, ids.scheduled]) expect(refunded).not.toContain(id);
    const paid = await page(`/admin/payments?status=paid&q=${tag}`);
    expect(totalsOf(paid)).toEqual({ payments: `2 · ${money(2)}`, refunds: `0 · $0.00`, net: money(2) });

    // By payment id, and by a gift recipient's email.
    const one = await page(`/admin/payments?q=${ids.refunded}`);
    expect(one).toContain("1 in all");
    expect(await page(`/admin/payments?q=${tag}-ray`)).toContain(ids.gift);

    const custom = await page(`/admin/payments?period=custom&from=${ids.oldDay}&to=${ids.oldDay}&q=${tag}`);
    expect(custom).toContain(ids.old);
    expect(custom).toContain("1 in all");
    expect(totalsOf(custom)).toEqual({ payments: `1 · ${PRICE}`, refunds: `0 · $0.00`, net: PRICE });

    const backwards = await call(admin.cookie, `/admin/payments?period=custom&from=${museumToday()}&to=${ids.oldDay}`);
    expect(backwards.status).toBe(400);
    expect(await backwards.text()).toContain("The first day (From) must be on or before the last day (To).");
    const missing = await call(admin.cookie, "/admin/payments?period=custom&from=2026-02-30");
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Choose the first day (From) and the last day (To) of the period, as YYYY-MM-DD.");
  });

  it("exports the filtered rows as CSV in Stripe's columns, quoting commas and quotes and neutralizing a formula", async () => {
    const res = await call(admin.cookie, `/admin/payments/export?period=30&q=${tag}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text()).replace(/^\ufeff/, "").split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(
      "id,Created date (UTC),Amount,Amount Refunded,Currency,Captured,Status,Description,Refunded date (UTC),Card Brand,Card Last4,Customer Email,kind (metadata),customer_name (metadata),gift_state (metadata),museum_id (metadata)",
    );
    expect(lines).toHaveLength(6);
    const giftLine = lines.find((l) => l.startsWith(ids.gift))!;
    expect(giftLine).toMatch(new RegExp(`^${ids.gift},\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},6\\.99,6\\.99,usd,true,Refunded,`));
    expect(giftLine).toContain(`,"Pittsburgh Sports Museum gift ticket for Ray O""Hara, Jr. <${tag}-ray@fans.example>, $6.99 USD",`);
    expect(giftLine).toContain(`,Visa,4242,${tag}-bea@fans.example,gift,"'=HYPERLINK(""http://evil.example"",""x"") Buyer",refunded,`);
    const [renewal] = await db().select().from(payments).where(eq(payments.providerPaymentId, ids.renewal));
    expect(lines).toContain(
      `${ids.renewal},${renewal.createdAt.toISOString().slice(0, 19).replace("T", " ")},6.99,6.99,usd,true,Refunded,"Pittsburgh Sports Museum ticket renewal, 120 days",${renewal.refundedAt!.toISOString().slice(0, 19).replace("T", " ")},Visa,4242,${tag}-ann@fans.example,renewal,Ann Staff,,${renewal.id}`,
    );
    expect(lines.find((l) => l.startsWith(ids.ticket))).toContain(",6.99,0.00,usd,true,Paid,");
    // Wrong dates: the message, no file.
    const wrong = await call(admin.cookie, `/admin/payments/export?period=custom&from=x`);
    expect(wrong.status).toBe(400);
  });

  it("the Overview's payments line opens the list of the last 7 days with the same figures", async () => {
    const overview = await page("/admin");
    const line = /href="\/admin\/payments\?period=7"[^>]*>([^<]*)<\/a>/.exec(overview)?.[1];
    expect(line).toBeDefined();
    const week = totalsOf(await page("/admin/payments?period=7"));
    const [pc, pm] = week.payments!.split(" · ");
    const [rc, rm] = week.refunds!.split(" · ");
    expect(line).toBe(`${pc} payment${pc === "1" ? "" : "s"} (${pm}), ${rc} refund${rc === "1" ? "" : "s"} (${rm})`);
    expect(overview).toMatch(/href="\/admin\/payments"[^>]*>Payments<\/a>/);
  });

  it("is refused to members, curators and people signed out", async () => {
    const visitor = await createSignedInAccount(server.services, { firstName: "Vic" });
    for (const path of ["/admin/payments", `/admin/payments/export?q=${tag}`]) {
      expect((await call(curator.cookie, path)).status).toBe(404);
      expect((await call(visitor.cookie, path)).status).toBe(404);
      const out = await call(undefined, path);
      expect(out.status).toBe(302);
      expect(out.headers.get("location")).toMatch(/^\/login/);
    }
    expect(await (await call(curator.cookie, "/admin")).text()).not.toMatch(/href="\/admin\/payments/);
  });

  it("lists a payment that bought nothing with its reason, in the totals, until the provider refunds it", async () => {
    const eve = await member("Eve");
    const grant = (over: { userId: string; providerPaymentId: string; amountCents: number; currency: string; receiptEmail: string }) =>
      server.services.membership.grantTicket({ provider: "test", cardBrand: "visa", cardLast4: "4242", ...over });
    const before = totalsOf(await page(`/admin/payments?q=${tag}`));
    const wrongAmount = `pi_${tag}_wrong_amount`;
    const noAccount = `pi_${tag}_no_account`;
    const euros = `pi_${tag}_euros`;
    expect(await grant({ userId: eve.userId, providerPaymentId: wrongAmount, amountCents: 500, currency: "usd", receiptEmail: eve.email })).toMatchObject({ granted: false, refused: "amount_mismatch" });
    expect(await grant({ userId: "no-such-account", providerPaymentId: noAccount, amountCents: 699, currency: "usd", receiptEmail: `${tag}-ghost@fans.example` })).toMatchObject({ granted: false, refused: "unknown_account" });
    expect(await grant({ userId: eve.userId, providerPaymentId: euros, amountCents: 699, currency: "eur", receiptEmail: eve.email })).toMatchObject({ granted: false, refused: "amount_mismatch" });

    const html = await page(`/admin/payments?q=${tag}&status=unmatched`);
    expect(html).toContain("3 in all");
    for (const id of [wrongAmount, noAccount, euros]) expect(html).toContain(id);
    expect(html).toContain("Bought nothing");
    expect(html).toContain("the amount or currency is not the ticket&#x27;s price; refund it from the payment provider&#x27;s dashboard");
    expect(html).toContain("no account has this payment&#x27;s account id");
    expect(html).toContain(`${tag}-ghost@fans.example`);
    expect(html).toContain("6.99 EUR");
    expect(html).not.toContain("$6.99 EUR");
    expect(html).toContain(`href="/admin/members/${eve.userId}"`);
    // The money held in the ticket's currency counts as payments; the euros are listed, not added up.
    const n = (t: string | undefined) => Number(t!.split(" · ")[0]);
    const cents = (t: string | undefined) => Math.round(Number(t!.split(" · ")[1].replace(/[$,]/g, "")) * 100);
    const after = totalsOf(await page(`/admin/payments?q=${tag}`));
    expect(n(after.payments)).toBe(n(before.payments) + 2);
    expect(cents(after.payments)).toBe(cents(before.payments) + 500 + 699);

    // Refunded in the provider's dashboard (Stripe's charge.refunded): refunded in the list, out of "unmatched".
    expect(await server.services.membership.settleIncident(noAccount)).toBe(true);
    expect(await server.services.membership.settleIncident(noAccount)).toBe(false);
    const open = await page(`/admin/payments?q=${tag}&status=unmatched`);
    expect(open).toContain("2 in all");
    expect(open).not.toContain(noAccount);
    expect(await page(`/admin/payments?q=${tag}&status=refunded`)).toContain(noAccount);
    const csv = await (await call(admin.cookie, `/admin/payments/export?q=${tag}&status=unmatched`)).text();
    expect(csv).toContain(`${wrongAmount},`);
    expect(csv).toMatch(/payment that bought nothing \(amount mismatch\)/);
  });

  it("a control character in a console search is read as a space, not a server error", async () => {
    for (const address of ["/admin/payments?q=%00", "/admin/payments?q=a%00b&status=%1b", "/admin/members?q=%00", "/admin/media?q=%00", "/admin/exhibits?q=a%00b", "/admin/enshrinees?q=%00", "/admin/subscribers?q=%00", "/admin/payments/export?q=%00", "/admin/members/export?q=%00", "/admin/subscribers/export?q=%00"]) {
      expect((await call(admin.cookie, address)).status, address).toBe(200);
    }
  });
});
