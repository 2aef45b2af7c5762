/**
 * Test mode's 3-D Secure cards (decision 059) through the payment pages' actions, on both
 * databases: each of Stripe's cards that asks for authentication waits for the challenge and pays
 * nothing until it is completed; completing pays once (a double press included) with one receipt;
 * failing, or a decline after a completed challenge, answers Stripe's message and pays nothing;
 * leaving pays nothing. The gift's page shows the challenge itself (it works without JavaScript).
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "~/shared/calendar";
import { SERVER_MESSAGES } from "~/shared/messages";
import { gifts, outbox, payments, users } from "../../server/db/schema";
import { CARD_MESSAGES, testPaymentMethodFor } from "../../server/payments/test-cards.server";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const card = (cardNumber: string) => ({ cardNumber, expiry: "12/40", cvc: "123", zip: "15212" });
const form = (fields: Record<string, string>, cookie?: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});
/** The test mode's payment id: derived from the idempotency key, as the provider does. */
const paymentIdFor = (key: string) => `pi_test_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;

/** Stripe's cards that ask for 3-D Secure on a one-time payment, and what a completed challenge ends in. */
const CHALLENGED = [
  ["4000 0025 0000 3155", "pm_card_authenticationRequiredOnSetup", null],
  ["4000 0027 6000 3184", "pm_card_authenticationRequired", null],
  ["4000 0038 0000 0446", "pm_card_authenticationRequiredSetupForOffSession", null],
  ["4000 0082 6000 3178", "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds", CARD_MESSAGES.insufficientFunds],
  ["4000 0000 0000 3220", "pm_card_threeDSecure2Required", null],
  ["4000 0084 0000 0027", "pm_test_threeDSecure2RequiredUs", null],
  ["4000 0000 0000 3063", "pm_card_threeDSecureRequired", null],
  ["4000 0084 0000 1629", "pm_card_threeDSecureRequiredChargeDeclined", CARD_MESSAGES.declined],
] as const;

describe("the test card table's 3-D Secure cards", () => {
  it.each(CHALLENGED)("%s is Stripe's %s", (number, id) => {
    expect(testPaymentMethodFor(card(number), new Date())).toEqual({ ok: true, paymentMethodId: id });
  });
});

describe.each(drivers)("test-mode 3-D Secure on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  const db = () => server.services.database.db;
  const post = (path: string, fields: Record<string, string>, cookie?: string) => fetch(`${server.url}${path}`, form(fields, cookie));
  const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0];
  const paymentRows = (userId: string) => db().select().from(payments).where(eq(payments.userId, userId));
  const receipts = async (to: string) =>
    db().select().from(outbox).where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'purpose' in ('receipt', 'gift-receipt')`, sql`${outbox.payload}->>'to' = ${to}`));

  /** An account that pressed Authorize Payment with `number`: its answer and its payment's id. */
  async function authorize(number: string) {
    const account = await createSignedInAccount(server.services);
    const attemptId = crypto.randomUUID();
    const res = await post("/admission/payment", { ...card(number), attemptId }, account.cookie);
    return { account, attemptId, res, paymentIntentId: paymentIdFor(`${account.userId}:${attemptId}`) };
  }
  const choose = (a: { account: { cookie: string }; attemptId: string; paymentIntentId: string }, choice: string) =>
    post("/admission/payment", { intent: "authenticate", choice, attemptId: a.attemptId, paymentIntentId: a.paymentIntentId }, a.account.cookie);

  it.each(CHALLENGED)("%s waits for the challenge and pays nothing until it is answered", async (number) => {
    const a = await authorize(number);
    expect(a.res.status).toBe(202);
    // A second press of Authorize Payment is the same payment, still waiting.
    expect((await post("/admission/payment", { ...card(number), attemptId: a.attemptId }, a.account.cookie)).status).toBe(202);
    expect(await server.services.payments.provider.retrieve(a.paymentIntentId)).toMatchObject({ status: "requires_action", cardLast4: number.slice(-4) });
    expect(await paymentRows(a.account.userId)).toHaveLength(0);
    expect((await userRow(a.account.userId)).validThrough).toBeNull();
  });

  it.each(CHALLENGED)("%s completed: pays once under a double press, with one receipt, or declines with Stripe's message", async (number, _id, declined) => {
    const a = await authorize(number);
    const [first, second] = await Promise.all([choose(a, "complete"), choose(a, "complete")]);
    const rows = await paymentRows(a.account.userId);
    if (declined) {
      expect([first.status, second.status]).toEqual([402, 402]);
      expect(await server.services.payments.confirm({ userId: a.account.userId, providerPaymentId: a.paymentIntentId, receiptEmail: a.account.email })).toEqual({ status: "card_error", message: declined });
      expect(rows).toHaveLength(0);
      expect((await userRow(a.account.userId)).validThrough).toBeNull();
      return;
    }
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: "test", providerPaymentId: a.paymentIntentId, cardBrand: "visa", cardLast4: number.slice(-4), amountCents: 699 });
    expect((await userRow(a.account.userId)).validThrough).toBe(addDays(museumToday(), 120));
    expect(await receipts(a.account.email)).toHaveLength(1);
    // Pressing again afterwards changes nothing.
    expect((await choose(a, "complete")).status).toBe(200);
    expect(await paymentRows(a.account.userId)).toHaveLength(1);
  });

  it("a failed challenge answers Stripe's authentication message and pays nothing, even if Complete is pressed after it", async () => {
    const a = await authorize("4000 0027 6000 3184");
    expect((await choose(a, "fail")).status).toBe(402);
    expect(await server.services.payments.confirm({ userId: a.account.userId, providerPaymentId: a.paymentIntentId, receiptEmail: a.account.email })).toEqual({
      status: "card_error",
      message: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
    });
    expect((await choose(a, "complete")).status).toBe(402);
    expect(await paymentRows(a.account.userId)).toHaveLength(0);
    expect(await receipts(a.account.email)).toHaveLength(0);
    // The next try is a new payment, and 4242 pays.
    expect((await post("/admission/payment", { ...card("4242 4242 4242 4242"), attemptId: crypto.randomUUID() }, a.account.cookie)).status).toBe(200);
    expect(await paymentRows(a.account.userId)).toHaveLength(1);
  });

  it("answers each outcome with the spec's messages through the service", async () => {
    const { payments: service } = server.services;
    const account = await createSignedInAccount(server.services);
    const waiting = await service.pay({ userId: account.userId, paymentMethodId: "pm_card_threeDSecure2Required", receiptEmail: account.email, idempotencyKey: "3ds-service-1" });
    expect(waiting).toMatchObject({ status: "requires_action", providerPaymentId: paymentIdFor("3ds-service-1") });
    const done = await service.answerChallenge({ userId: account.userId, receiptEmail: account.email, providerPaymentId: paymentIdFor("3ds-service-1"), choice: "complete" });
    expect(done).toEqual({ status: "succeeded", validThrough: addDays(museumToday(), 120), message: SERVER_MESSAGES.paymentSuccess });
  });

  it("someone else cannot answer a person's challenge, and leaving it pays nothing", async () => {
    const a = await authorize("4000 0000 0000 3220");
    const other = await createSignedInAccount(server.services);
    const res = await post("/admission/payment", { intent: "authenticate", choice: "fail", attemptId: a.attemptId, paymentIntentId: a.paymentIntentId }, other.cookie);
    expect(res.status).toBe(402);
    expect(await server.services.payments.provider.retrieve(a.paymentIntentId)).toMatchObject({ status: "requires_action" });
    // A made-up answer is refused as a bad request.
    expect((await post("/admission/payment", { intent: "authenticate", choice: "maybe", attemptId: a.attemptId, paymentIntentId: a.paymentIntentId }, a.account.cookie)).status).toBe(400);
    expect((await post("/admission/payment", { intent: "authenticate", choice: "complete", attemptId: a.attemptId, paymentIntentId: "pi_other" }, a.account.cookie)).status).toBe(400);
    expect(await paymentRows(a.account.userId)).toHaveLength(0);
    expect(await paymentRows(other.userId)).toHaveLength(0);
  });

  it.each([
    ["4000 0084 0000 1280", 402],
    ["4000 0000 0000 3055", 200],
    ["4000 0000 0000 3097", 200],
    ["3782 822463 10005", 200],
    ["4000 0000 3220 0000", 200],
  ])("%s asks for no challenge (answers %i at once)", async (number, status) => {
    const a = await authorize(number);
    expect(a.res.status).toBe(status);
    expect(await paymentRows(a.account.userId)).toHaveLength(status === 200 ? 1 : 0);
  });

  describe("a gift", () => {
    async function draft() {
      const tag = crypto.randomUUID().slice(0, 8);
      const details = {
        buyerFirstName: "Bea",
        buyerLastName: "Buyer",
        buyerEmail: `bea.${tag}@example.com`,
        recipientFirstName: "Ray",
        recipientLastName: "Recipient",
        recipientEmail: `ray.${tag}@example.com`,
        message: "",
        deliverOn: museumToday(),
      };
      const res = await post("/gift", details);
      expect(res.status).toBe(302);
      const path = res.headers.get("location")!;
      return { id: path.split("/")[2], path, buyerEmail: details.buyerEmail };
    }
    const giftRow = async (id: string) => (await db().select().from(gifts).where(eq(gifts.id, id)))[0];

    it("shows the challenge on its page; completing it (pressed twice) pays once and goes on to /gift/sent", async () => {
      const g = await draft();
      const attemptId = crypto.randomUUID();
      const res = await post(g.path, { ...card("4000 0027 6000 3184"), attemptId });
      expect(res.status).toBe(202);
      const html = await res.text();
      expect(html).toContain("Complete authentication");
      expect(html).toContain("Fail authentication");
      const paymentIntentId = paymentIdFor(`gift:${g.id}:${attemptId}`);
      expect(html).toContain(paymentIntentId);
      expect((await giftRow(g.id)).status).toBe("unpaid");
      const answers = await Promise.all([1, 2].map(() => post(g.path, { intent: "authenticate", choice: "complete", attemptId, paymentIntentId })));
      for (const a of answers) {
        expect(a.status).toBe(302);
        expect(a.headers.get("location")).toBe(`/gift/sent?gift=${g.id}`);
      }
      expect(await giftRow(g.id)).toMatchObject({ status: "paid", providerPaymentId: paymentIntentId, provider: "test" });
      expect(await receipts(g.buyerEmail)).toHaveLength(1);
    });

    it("failing shows Stripe's message with the card form; leaving and coming back shows the same challenge", async () => {
      const g = await draft();
      const attemptId = crypto.randomUUID();
      await post(g.path, { ...card("4000 0025 0000 3155"), attemptId });
      const paymentIntentId = paymentIdFor(`gift:${g.id}:${attemptId}`);
      // Left without choosing: another try, even with another card, meets the same waiting payment.
      const again = await post(g.path, { ...card("4242 4242 4242 4242"), attemptId: crypto.randomUUID() });
      expect(again.status).toBe(202);
      expect(await again.text()).toContain(paymentIntentId);
      const failed = await post(g.path, { intent: "authenticate", choice: "fail", attemptId, paymentIntentId });
      expect(failed.status).toBe(402);
      const html = await failed.text();
      expect(html).toContain("We are unable to authenticate your payment method. Please choose a different payment method and try again.");
      expect(html).toContain('data-testid="test-card-form"');
      expect(html).not.toContain("Complete authentication");
      expect((await giftRow(g.id)).status).toBe("unpaid");
      expect(await receipts(g.buyerEmail)).toHaveLength(0);
      // The failed payment is over: the next card is charged anew.
      const paid = await post(g.path, { ...card("4242 4242 4242 4242"), attemptId: crypto.randomUUID() });
      expect(paid.status).toBe(302);
      expect((await giftRow(g.id)).status).toBe("paid");
    });
  });
});
