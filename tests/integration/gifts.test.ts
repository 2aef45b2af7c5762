/**
 * Gift tickets (decision 018), on both databases, through the real pages: bought by
 * someone signed out, paid exactly once whatever retries, delivered on its date by the outbox
 * (the clock is moved, not waited on), redeemed once by a new account or by an existing one
 * (extending a running ticket), refused to another account, once expired, once revoked by a
 * refund; a refund after redemption takes the days back; bad input is a 400 with the message.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/shared/calendar";
import { longDate } from "~/shared/ticket-words";
import { GIFT_MESSAGES } from "~/shared/gift-schemas";
import { SERVER_MESSAGES, VALIDATION } from "~/shared/messages";
import { auditLog, gifts, outbox, paymentIncidents, users } from "../../server/db/schema";
import type { EmailJob } from "../../server/outbox/outbox";
import { LIMIT_TIERS, limitTierOf } from "../../server/security/limits";
import { availableDrivers } from "../helpers/databases";
import { createStaffAccount } from "../helpers/admin-fixtures";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { routeResolver, startTestServer, type TestServer } from "../helpers/test-server";
import type { PaymentProvider } from "../../server/payments/provider";
import { createTestModeProvider } from "../../server/payments/test-mode-provider";

const drivers = await availableDrivers();
const DAY = 86_400_000;
const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(), redirect: "manual" as const });
const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123", zip: "15212" };

describe.each(drivers)("gift tickets on %s", (kind) => {
  let server: TestServer;
  let clock = Date.now();
  const today = () => museumToday(new Date(clock));

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { now: () => new Date(clock) });
  });
  afterAll(() => server?.close());

  const db = () => server.services.database.db;
  const post = (path: string, fields: Record<string, string>, cookie?: string) => {
    const init = form(fields);
    return fetch(`${server.url}${path}`, cookie ? { ...init, headers: { ...init.headers, cookie } } : init);
  };
  const details = (over: Record<string, string> = {}) => ({
    buyerFirstName: "Bea",
    buyerLastName: "Buyer",
    buyerEmail: `bea.${crypto.randomUUID().slice(0, 8)}@example.com`,
    recipientFirstName: "Ray",
    recipientLastName: "Recipient",
    recipientEmail: `ray.${crypto.randomUUID().slice(0, 8)}@example.com`,
    message: "Happy birthday!\nSee you at the museum.",
    deliverOn: today(),
    ...over,
  });
  const emails = async (purpose: string, to: string) =>
    (await db().select().from(outbox).where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'purpose' = ${purpose}`, sql`${outbox.payload}->>'to' = ${to}`))).map((r) => r.payload as EmailJob);
  const deliverDue = async () => {
    while ((await server.services.outbox.runOnce()) > 0);
  };

  /** Buys a gift through the pages; returns its id and details. */
  async function buy(over: Record<string, string> = {}, cookie?: string) {
    const d = details(over);
    const res = await post("/gift", d, cookie);
    expect(res.status).toBe(302);
    const payPath = res.headers.get("location")!;
    expect(payPath).toMatch(/^\/gift\/[0-9a-f-]{36}\/pay$/);
    const id = payPath.split("/")[2];
    const paid = await post(payPath, { ...CARD, attemptId: crypto.randomUUID() });
    expect(paid.status).toBe(302);
    expect(paid.headers.get("location")).toBe(`/gift/sent?gift=${id}`);
    return { id, ...d };
  }
  /** Delivers what is due and returns the redeem link's token from the recipient's email. */
  async function tokenFor(recipientEmail: string) {
    await deliverDue();
    const [mail] = await emails("gift", recipientEmail);
    expect(mail, "the recipient's email").toBeDefined();
    return /\/gift\/redeem\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  }
  const validThrough = async (userId: string) => (await db().select().from(users).where(eq(users.id, userId)))[0].validThrough;

  it("charges once for the same attempt, sends the buyer one receipt, and tells the buyer what comes next", async () => {
    const d = details();
    const res = await post("/gift", d);
    const payPath = res.headers.get("location")!;
    const id = payPath.split("/")[2];
    const page = await (await fetch(`${server.url}${payPath}`)).text();
    expect(page).toContain(`A gift ticket of 120 days for Ray Recipient. We will email it to ${d.recipientEmail} on ${longDate(today())}.`);
    const attemptId = crypto.randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => post(payPath, { ...CARD, attemptId })));
    expect(answers.map((a) => a.status)).toEqual([302, 302, 302]);
    expect((await post(payPath, { ...CARD, attemptId: crypto.randomUUID() })).status).toBe(302);
    const [gift] = await db().select().from(gifts).where(eq(gifts.id, id));
    expect(gift.status).toBe("paid");
    const receipts = await emails("gift-receipt", d.buyerEmail);
    expect(receipts).toHaveLength(1);
    expect(receipts[0].text).toContain('"Ray Recipient"');
    expect(receipts[0].text).toContain(`Payment reference: ${gift.providerPaymentId}`);
    expect((await db().select().from(outbox).where(and(eq(outbox.kind, "gift-delivery"), sql`${outbox.payload}->>'giftId' = ${id}`))).length).toBe(1);
    const sent = await (await fetch(`${server.url}/gift/sent?gift=${id}`)).text();
    expect(sent).toContain(GIFT_MESSAGES.paid);
    // A paid gift's payment page sends on to the confirmation.
    expect((await fetch(`${server.url}${payPath}`, { redirect: "manual" })).status).toBe(302);
  });

  it("charges a draft once when two pay pages for it are sent at once and the provider answers slowly", async () => {
    // Two tabs, two attempts (two idempotency keys): only the draft's row lock can keep it to one charge.
    const inner = createTestModeProvider();
    const charges: string[] = [];
    const slow: PaymentProvider = {
      ...inner,
      async charge(request) {
        charges.push(request.idempotencyKey);
        await new Promise((resolve) => setTimeout(resolve, 400));
        return inner.charge(request);
      },
    };
    const racing = await startTestServer(kind, {}, { paymentProvider: slow });
    try {
      const d = details();
      const created = await fetch(`${racing.url}/gift`, form(d));
      const payPath = created.headers.get("location")!;
      const id = payPath.split("/")[2];
      const answers = await Promise.all([1, 2].map(() => fetch(`${racing.url}${payPath}`, form({ ...CARD, attemptId: crypto.randomUUID() }))));
      expect(charges).toHaveLength(1);
      expect(answers.map((a) => [a.status, a.headers.get("location")])).toEqual([
        [302, `/gift/sent?gift=${id}`],
        [302, `/gift/sent?gift=${id}`],
      ]);
      const [gift] = await racing.services.database.db.select().from(gifts).where(eq(gifts.id, id));
      expect(gift.status).toBe("paid");
      expect(await racing.services.database.db.select().from(paymentIncidents)).toHaveLength(0);
    } finally {
      await racing.close();
    }
  });

  it("charges a draft once across 3-D Secure: two pay pages sent at once get the same bank step, and pay again only after it failed", async () => {
    // A slow provider whose every charge asks for 3-D Secure, as Stripe does for some cards. The
    // row lock is let go while the buyer is at the bank: only the draft's record of the payment
    // keeps a second pay page from charging again.
    const intents = new Map<string, { status: string; giftId: string | null; amountCents: number }>();
    const charges: string[] = [];
    const bankStep: PaymentProvider = {
      ...createTestModeProvider(),
      async charge(request) {
        charges.push(request.idempotencyKey);
        await new Promise((resolve) => setTimeout(resolve, 400));
        const id = `pi_3ds_${charges.length}`;
        intents.set(id, { status: "requires_action", giftId: request.giftId ?? null, amountCents: request.amountCents });
        return { status: "requires_action", providerPaymentId: id, clientSecret: `${id}_secret_x` };
      },
      async retrieve(id) {
        const intent = intents.get(id);
        if (!intent) return null;
        return {
          providerPaymentId: id,
          status: intent.status,
          amountCents: intent.amountCents,
          currency: "usd",
          userId: null,
          giftId: intent.giftId,
          receiptEmail: null,
          cardBrand: "visa",
          cardLast4: "3184",
          clientSecret: intent.status === "requires_action" ? `${id}_secret_x` : null,
        };
      },
    };
    const racing = await startTestServer(kind, {}, { paymentProvider: bankStep });
    try {
      const d = details();
      const created = await fetch(`${racing.url}/gift`, form(d));
      const payPath = created.headers.get("location")!;
      const id = payPath.split("/")[2];
      const pay = async () => {
        const res = await fetch(`${racing.url}${payPath}`, form({ ...CARD, attemptId: crypto.randomUUID() }));
        return [res.status, (await res.text()).match(/pi_3ds_\d+_secret_x/g)?.[0]];
      };

      // Two tabs at once: one charge, and both show its bank step.
      expect(await Promise.all([pay(), pay()])).toEqual([
        [202, "pi_3ds_1_secret_x"],
        [202, "pi_3ds_1_secret_x"],
      ]);
      expect(charges).toHaveLength(1);
      // A third try while the buyer is still at the bank: the same step, no new charge.
      expect(await pay()).toEqual([202, "pi_3ds_1_secret_x"]);
      expect(charges).toHaveLength(1);

      // The bank refused: the buyer may pay again, which is a new charge.
      intents.set("pi_3ds_1", { ...intents.get("pi_3ds_1")!, status: "requires_payment_method" });
      expect(await pay()).toEqual([202, "pi_3ds_2_secret_x"]);
      expect(charges).toHaveLength(2);

      // The bank accepted the second: a pay page sent meanwhile marks the gift paid and charges nothing.
      intents.set("pi_3ds_2", { ...intents.get("pi_3ds_2")!, status: "succeeded" });
      const late = await fetch(`${racing.url}${payPath}`, form({ ...CARD, attemptId: crypto.randomUUID() }));
      expect([late.status, late.headers.get("location")]).toEqual([302, `/gift/sent?gift=${id}`]);
      // The browser's own confirmation after the bank step finds it paid by that payment.
      const confirmed = await fetch(`${racing.url}${payPath}`, form({ intent: "confirm", paymentIntentId: "pi_3ds_2", attemptId: crypto.randomUUID() }));
      expect([confirmed.status, confirmed.headers.get("location")]).toEqual([302, `/gift/sent?gift=${id}`]);
      expect(charges).toHaveLength(2);

      const [gift] = await racing.services.database.db.select().from(gifts).where(eq(gifts.id, id));
      expect([gift.status, gift.providerPaymentId]).toEqual(["paid", "pi_3ds_2"]);
      expect(await racing.services.database.db.select().from(paymentIncidents)).toHaveLength(0);
    } finally {
      await racing.close();
    }
  });

  it("refuses a declined card, a past or too distant date and missing fields with the message and a 4xx", async () => {
    const declined = await post((await post("/gift", details())).headers.get("location")!, { ...CARD, cardNumber: "4000 0000 0000 0002", attemptId: crypto.randomUUID() });
    expect(declined.status).toBe(402);
    const past = await post("/gift", details({ deliverOn: addDays(today(), -1) }));
    expect(past.status).toBe(400);
    expect(await past.text()).toContain(GIFT_MESSAGES.deliverOnPast);
    const far = await post("/gift", details({ deliverOn: addDays(today(), 400) }));
    expect(far.status).toBe(400);
    expect(await far.text()).toContain(GIFT_MESSAGES.deliverOnTooFar);
    const missing = await post("/gift", details({ recipientEmail: "", buyerFirstName: "" }));
    expect(missing.status).toBe(400);
    const text = await missing.text();
    expect(text).toContain(GIFT_MESSAGES.recipientEmailRequired);
    expect(text).toContain(VALIDATION.firstNameRequired);
    const bad = await post("/gift", details({ recipientEmail: "not-an-email", deliverOn: "2026-02-31" }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(VALIDATION.emailFormat);
    expect((await fetch(`${server.url}/gift/not-a-uuid/pay`)).status).toBe(404);
    // Paying for a gift that does not exist: not found, like its page, and nothing is charged.
    expect((await post(`/gift/${crypto.randomUUID()}/pay`, { ...CARD, attemptId: crypto.randomUUID() })).status).toBe(404);
  });

  it("emails the recipient on the delivery date, not before; a new account redeems it, and no other account can reuse the link", async () => {
    const start = clock;
    try {
      const g = await buy({ deliverOn: addDays(today(), 3) });
      await deliverDue();
      expect(await emails("gift", g.recipientEmail)).toHaveLength(0);
      clock += 2 * DAY;
      await deliverDue();
      expect(await emails("gift", g.recipientEmail)).toHaveLength(0);
      clock += 1 * DAY;
      const token = await tokenFor(g.recipientEmail);
      const [mail] = await emails("gift", g.recipientEmail);
      expect(mail.text).toContain('"Bea Buyer"');
      expect(mail.text).toContain("> Happy birthday!\n> See you at the museum.");
      // The token is stored only as its hash.
      const [row] = await db().select().from(gifts).where(eq(gifts.id, g.id));
      expect(row.tokenHash).not.toContain(token);
      expect(JSON.stringify(row)).not.toContain(token);

      const page = await fetch(`${server.url}/gift/redeem/${token}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Bea Buyer gave you a ticket: 120 days of full access to the museum.");
      // Opening the link twice changes nothing.
      expect((await fetch(`${server.url}/gift/redeem/${token}`)).status).toBe(200);

      const signUp = await post(`/gift/redeem/${token}`, {
        intent: "signup",
        firstName: "Ray",
        lastName: "Recipient",
        emailAddress: g.recipientEmail,
        emailAddressConfirm: g.recipientEmail,
        password: "gift-pass-1",
        passwordConfirm: "gift-pass-1",
        termsAndConditions: "on",
      });
      expect(signUp.status).toBe(302);
      const cookie = signUp.headers.get("set-cookie")!.split(";")[0];
      const through = addDays(today(), 120);
      const account = await (await fetch(`${server.url}${signUp.headers.get("location")}`, { headers: { cookie } })).text();
      expect(account).toContain(GIFT_MESSAGES.redeemed);
      expect(account).toContain(`Your ticket is valid through ${longDate(through)}`);
      const [created] = await db().select().from(users).where(sql`lower(${users.email}) = ${g.recipientEmail.toLowerCase()}`);
      expect(created.validThrough).toBe(through);

      const other = await createSignedInAccount(server.services, { firstName: "Otto" });
      const reuse = await post(`/gift/redeem/${token}`, { intent: "redeem" }, other.cookie);
      expect(reuse.status).toBe(410);
      expect(await reuse.text()).toContain(GIFT_MESSAGES.linkRedeemed);
      expect(await validThrough(other.userId)).toBeNull();
      expect((await fetch(`${server.url}/gift/redeem/${token}`)).status).toBe(410);
      expect((await fetch(`${server.url}/gift/redeem/${"x".repeat(43)}`)).status).toBe(404);
    } finally {
      clock = start;
    }
  });

  it("an existing account redeems while signed in, or by signing in on the page, and its ticket extends from its current end", async () => {
    const running = await createSignedInAccount(server.services, { firstName: "Rita", validThrough: addDays(today(), 30) });
    const g1 = await buy();
    const t1 = await tokenFor(g1.recipientEmail);
    const r1 = await post(`/gift/redeem/${t1}`, { intent: "redeem" }, running.cookie);
    expect(r1.status).toBe(302);
    expect(r1.headers.get("location")).toBe("/account?gift=redeemed");
    expect(await validThrough(running.userId)).toBe(addDays(today(), 150));

    const member = await createStaffAccount(server.services, "member", { validThrough: addDays(today(), 10) });
    const g2 = await buy();
    const t2 = await tokenFor(g2.recipientEmail);
    const wrong = await post(`/gift/redeem/${t2}`, { intent: "signin", emailAddress: member.email, password: "wrong-password" });
    expect(wrong.status).toBe(401);
    const signIn = await post(`/gift/redeem/${t2}`, { intent: "signin", emailAddress: member.email, password: "Curate-2024!" });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("set-cookie")).toMatch(/HttpOnly/);
    expect(await validThrough(member.userId)).toBe(addDays(today(), 130));
    // Signed out, without signing in: nothing is redeemed.
    const g3 = await buy();
    const t3 = await tokenFor(g3.recipientEmail);
    expect((await post(`/gift/redeem/${t3}`, { intent: "redeem" })).status).toBe(401);
    expect((await fetch(`${server.url}/gift/redeem/${t3}`)).status).toBe(200);
  });

  it("refuses an expired link", async () => {
    const g = await buy();
    const token = await tokenFor(g.recipientEmail);
    await db().update(gifts).set({ tokenExpiresAt: new Date(clock - 1000) }).where(eq(gifts.id, g.id));
    const page = await fetch(`${server.url}/gift/redeem/${token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain(GIFT_MESSAGES.linkExpired);
    const someone = await createSignedInAccount(server.services, { firstName: "Ezra" });
    expect((await post(`/gift/redeem/${token}`, { intent: "redeem" }, someone.cookie)).status).toBe(410);
    expect(await validThrough(someone.userId)).toBeNull();
  });

  it("housekeeping purges a draft left unpaid for a week; a payment arriving for it afterwards is kept for staff, not lost", async () => {
    const draft = await post("/gift", details());
    const payPath = draft.headers.get("location")!;
    const id = payPath.split("/")[2];
    await db().update(gifts).set({ createdAt: new Date(clock - 8 * DAY) }).where(eq(gifts.id, id));
    const run = await server.services.housekeeping.runOnce();
    expect(run.ran && run.counts.giftDrafts).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(gifts).where(eq(gifts.id, id))).toHaveLength(0);
    expect((await fetch(`${server.url}${payPath}`)).status).toBe(404);
    // Stripe's webhook (or a 3-D Secure confirmation) for a card charged just before the purge.
    const providerPaymentId = `pi_purged_${crypto.randomUUID()}`;
    expect(await server.services.gifts.markPaid(id, { providerPaymentId, amountCents: 699, currency: "usd", cardBrand: "visa", cardLast4: "4242" })).toMatchObject({ paid: false, refused: true });
    const [incident] = await db().select().from(paymentIncidents).where(eq(paymentIncidents.providerPaymentId, providerPaymentId));
    expect(incident).toMatchObject({ kind: "unknown_gift", details: { giftId: id } });
  });

  it("a refund revokes an unredeemed gift (its link stops working, or it is never sent) and takes a redeemed gift's days back", async () => {
    const admin = await createStaffAccount(server.services, "admin");
    const actor = { userId: admin.userId, email: admin.email };
    const sent = await buy();
    const token = await tokenFor(sent.recipientEmail);
    expect((await server.services.gifts.refund(actor, sent.id)).ok).toBe(true);
    const page = await fetch(`${server.url}/gift/redeem/${token}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain(GIFT_MESSAGES.linkRevoked);

    const later = await buy({ deliverOn: addDays(today(), 5) });
    expect((await server.services.gifts.refund(actor, later.id)).ok).toBe(true);
    const start = clock;
    clock += 6 * DAY;
    await deliverDue();
    clock = start;
    expect(await emails("gift", later.recipientEmail)).toHaveLength(0);

    const member = await createSignedInAccount(server.services, { firstName: "Ruth", validThrough: addDays(today(), 20) });
    const redeemed = await buy();
    const t = await tokenFor(redeemed.recipientEmail);
    expect((await post(`/gift/redeem/${t}`, { intent: "redeem" }, member.cookie)).status).toBe(302);
    expect(await validThrough(member.userId)).toBe(addDays(today(), 140));
    expect((await server.services.gifts.refund(actor, redeemed.id)).ok).toBe(true);
    expect(await validThrough(member.userId)).toBe(addDays(today(), 20));
    expect((await server.services.gifts.refund(actor, redeemed.id)).ok).toBe(false);
  });

  it("shows a signed-in buyer's gifts on the account page, and every gift in the admin console", async () => {
    const buyer = await createSignedInAccount(server.services, { firstName: "Gina" });
    const page = await (await fetch(`${server.url}/gift`, { headers: { cookie: buyer.cookie } })).text();
    expect(page).toContain(`value="${buyer.email}"`);
    const g = await buy({ buyerEmail: buyer.email, recipientFirstName: "Tess", deliverOn: addDays(today(), 2) }, buyer.cookie);
    const account = await (await fetch(`${server.url}/account`, { headers: { cookie: buyer.cookie } })).text();
    expect(account).toContain(`For Tess Recipient, sent on ${longDate(addDays(today(), 2))}: <strong>paid, to be sent</strong>`);
    const admin = await createStaffAccount(server.services, "admin");
    const console = await (await fetch(`${server.url}/admin/gifts`, { headers: { cookie: admin.cookie } })).text();
    expect(console).toContain(g.recipientEmail);
    expect(console).toContain("paid, to be sent");
    // The console's Refund revokes it (audited); a curator and a member get the not-found page.
    const refund = await post("/admin/gifts", { intent: "refund", giftId: g.id, confirm: "yes" }, admin.cookie);
    expect(refund.status).toBe(200);
    expect(await refund.text()).toContain("Refunded. The gift is revoked: its link no longer works.");
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.entityType, "gift"), eq(auditLog.entityId, g.id)));
    expect(audit.summary).toContain(`Refunded and revoked the gift from ${buyer.email} to ${g.recipientEmail}`);
    expect(await (await fetch(`${server.url}/account`, { headers: { cookie: buyer.cookie } })).text()).toContain(": <strong>refunded</strong>");
    for (const role of ["curator", "member"] as const) {
      const other = await createStaffAccount(server.services, role);
      expect((await fetch(`${server.url}/admin/gifts`, { headers: { cookie: other.cookie } })).status).toBe(404);
    }
  });

  it("'Download my data' lists the gifts an account bought and redeemed; deleting the buyer's account takes its details off its gifts", async () => {
    const buyer = await createStaffAccount(server.services, "member", { firstName: "Dora" });
    const g = await buy({ buyerEmail: buyer.email, buyerFirstName: "Dora", deliverOn: addDays(today(), 1) }, buyer.cookie);
    const exported = await server.services.accountLifecycle.exportData(buyer.userId);
    expect(exported?.gifts).toEqual([expect.objectContaining({ role: "bought", to: { firstName: "Ray", lastName: "Recipient", emailAddress: g.recipientEmail }, status: "paid", cardLast4: "4242" })]);
    expect(await server.services.accountLifecycle.deleteAccount(buyer.userId, "Curate-2024!")).toBe("deleted");
    const [row] = await db().select().from(gifts).where(eq(gifts.id, g.id));
    expect({ buyerUserId: row.buyerUserId, buyerFirstName: row.buyerFirstName, buyerEmail: row.buyerEmail, cardLast4: row.cardLast4, status: row.status }).toEqual({ buyerUserId: null, buyerFirstName: "A friend", buyerEmail: "", cardLast4: null, status: "paid" });
  });
});

describe("gift forms' rate limits", () => {
  it("counts /gift and its payment page as forms and the redeem page (passwords) as logins, and answers over the limit with 429 and the message", async () => {
    const routes = await routeResolver();
    const tierFor = (method: string, path: string) => limitTierOf(routes.resolve(method, path));
    expect(tierFor("POST", "/gift")).toBe(LIMIT_TIERS.forms);
    expect(tierFor("POST", "/gift.data")).toBe(LIMIT_TIERS.forms);
    expect(tierFor("POST", `/gift/${crypto.randomUUID()}/pay`)).toBe(LIMIT_TIERS.forms);
    expect(tierFor("POST", `/gift/redeem/${"a".repeat(43)}`)).toBe(LIMIT_TIERS.login);
    const server = await startTestServer(drivers[0], { RATE_LIMIT_RELAXED: "false" }, { seed: false });
    try {
      const send = (path: string) => fetch(`${server.url}${path}`, form({ buyerFirstName: "" }));
      for (let i = 0; i < LIMIT_TIERS.forms.limit; i++) expect((await send("/gift")).status).toBe(400);
      const limited = await send("/gift");
      expect(limited.status).toBe(429);
      expect(await limited.text()).toContain(SERVER_MESSAGES.tooManyRequests);
      const redeem = `/gift/redeem/${"b".repeat(43)}`;
      for (let i = 0; i < LIMIT_TIERS.login.limit; i++) expect((await send(redeem)).status).toBe(401);
      const refused = await send(redeem);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain(SERVER_MESSAGES.loginRateLimited);
    } finally {
      await server.close();
    }
  }, 60_000);
});

