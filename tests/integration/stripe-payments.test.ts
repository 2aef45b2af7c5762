/**
 * Stripe through the official SDK against a local stand-in, and the webhook with payloads signed
 * by the SDK itself: charge once per idempotency key, card errors, 3-D Secure, signature checks,
 * replays, 20 parallel deliveries granting once, refunds taking the days back; payments that
 * buy no ticket (another amount or currency, an unknown account) recorded for staff, answered
 * 2xx, and refused alike by the webhook and the browser path.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_MESSAGES } from "~/shared/messages";
import { gifts, outbox, paymentIncidents, payments, processedWebhookEvents, users } from "../../server/db/schema";
import { addDays } from "~/shared/calendar";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startStripeApi } from "../mocks/stripe-api";

const drivers = await availableDrivers();
const WEBHOOK_SECRET = "whsec_test_standin";
const signer = new Stripe("sk_test_signer");

describe.each(drivers)("Stripe on %s", (kind) => {
  let server: TestServer;
  let stripe: Awaited<ReturnType<typeof startStripeApi>>;

  beforeAll(async () => {
    stripe = await startStripeApi();
    server = await startTestServer(kind, {
      STRIPE_SECRET_KEY: "sk_test_standin",
      STRIPE_PUBLISHABLE_KEY: "pk_test_standin",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  const today = () => museumToday(new Date());
  const db = () => server.services.database.db;
  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0];
  const paymentRows = (userId: string) => db().select().from(payments).where(eq(payments.userId, userId));

  function webhook(event: Record<string, unknown>, signature?: string) {
    const payload = JSON.stringify(event);
    const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return fetch(`${server.url}/api/stripe/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": header }, body: payload });
  }
  const succeeded = (eventId: string, pi: string, userId: string, amount = 699, currency = "usd") => ({
    id: eventId,
    object: "event",
    type: "payment_intent.succeeded",
    data: { object: { id: pi, object: "payment_intent", amount, currency, metadata: { userId }, receipt_email: "fan@example.com", latest_charge: null } },
  });
  const incidents = (pi: string) => db().select().from(paymentIncidents).where(eq(paymentIncidents.providerPaymentId, pi));

  it("charges through the SDK with an idempotency key and grants the ticket once", async () => {
    const account = await createSignedInAccount(server.services);
    const first = await post("/api/stripe/payment", { id: "pm_card_visa" }, account.cookie);
    expect(first.status).toBe(200);
    expect((await first.json()).account.validThrough).toBe(addDays(today(), 120));
    const create = stripe.requests.find((r) => r.method === "POST" && r.body.get("metadata[userId]") === account.userId)!;
    expect(create.idempotencyKey).toBeTruthy();
    expect(create.body.get("amount")).toBe("699");
    expect(create.body.get("currency")).toBe("usd");
    expect(create.body.get("confirm")).toBe("true");
    // The same request again: same key, same PaymentIntent, nothing more granted.
    await post("/api/stripe/payment", { id: "pm_card_visa" }, account.cookie);
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), 120));
    const rows = await paymentRows(account.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: "stripe", cardBrand: "visa", cardLast4: "4242" });
  });

  it("shows the card's own message when Stripe declines it", async () => {
    const account = await createSignedInAccount(server.services);
    const res = await post("/api/stripe/payment", { id: "pm_card_chargeDeclined" }, account.cookie);
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ success: false, message: "Your card was declined." });
    expect(await paymentRows(account.userId)).toHaveLength(0);
  });

  it("completes 3-D Secure: action required, then confirmed and granted", async () => {
    const account = await createSignedInAccount(server.services);
    const res = await post("/api/stripe/payment", { id: "pm_card_authenticationRequired" }, account.cookie);
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ requiresAction: true, clientSecret: expect.stringContaining("_secret_") });
    stripe.authenticate(body.paymentIntentId);
    const confirmed = await post("/api/stripe/payment/confirm", { paymentIntentId: body.paymentIntentId }, account.cookie);
    expect(confirmed.status).toBe(200);
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), 120));
    // The webhook for the same payment arrives later: still one grant.
    expect((await webhook(succeeded("evt_3ds", body.paymentIntentId, account.userId))).status).toBe(200);
    expect(await paymentRows(account.userId)).toHaveLength(1);
  });

  it.each([
    ["fails", (id: string) => stripe.failAuthentication(id), "pm_card_authenticationRequired", "We are unable to authenticate your payment method. Please choose a different payment method and try again."],
    ["completes, then is declined", (id: string) => stripe.authenticate(id), "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds", "Your card has insufficient funds."],
  ])("answers Stripe's own message when 3-D Secure %s (decision 059), through the API and the payment page", async (_what, step, method, message) => {
    const account = await createSignedInAccount(server.services);
    const res = await post("/api/stripe/payment", { id: method }, account.cookie);
    expect(res.status).toBe(202);
    const { paymentIntentId } = await res.json();
    step(paymentIntentId);
    const confirmed = await post("/api/stripe/payment/confirm", { paymentIntentId }, account.cookie);
    expect(confirmed.status).toBe(402);
    expect(await confirmed.json()).toMatchObject({ success: false, message });
    const page = await fetch(`${server.url}/admission/payment`, {
      method: "POST",
      headers: { cookie: account.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "confirm", attemptId: randomUUID(), paymentIntentId }).toString(),
    });
    expect(page.status).toBe(402);
    expect(await paymentRows(account.userId)).toHaveLength(0);
    expect((await userRow(account.userId)).validThrough).toBeNull();
  });

  it("the page's 3-D Secure answer carries the PaymentIntent's client secret for stripe.handleNextAction, and a test-mode challenge answer is refused with real keys", async () => {
    const account = await createSignedInAccount(server.services);
    const attemptId = randomUUID();
    const pay = () =>
      fetch(`${server.url}/admission/payment.data`, {
        method: "POST",
        headers: { cookie: account.cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ paymentMethodId: "pm_card_threeDSecure2Required", attemptId }).toString(),
      });
    const res = await pay();
    expect(res.status).toBe(202);
    const body = await res.text();
    const intent = stripe.requests.filter((r) => r.method === "POST" && r.body.get("metadata[userId]") === account.userId);
    expect(intent).toHaveLength(1);
    const created = (await server.services.payments.provider.retrieve(/pi_standin_\d+/.exec(body)![0]))!;
    expect(created.clientSecret).toMatch(/^pi_standin_\d+_secret_/);
    expect(body).toContain(created.clientSecret!);
    // A double press: the same idempotency key, the same PaymentIntent and bank step.
    expect(await (await pay()).text()).toContain(created.clientSecret!);
    const answer = await fetch(`${server.url}/admission/payment`, {
      method: "POST",
      headers: { cookie: account.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "authenticate", choice: "complete", attemptId, paymentIntentId: created.providerPaymentId }).toString(),
    });
    expect(answer.status).toBe(400);
    expect(await paymentRows(account.userId)).toHaveLength(0);
  });

  it("refuses a bad or missing signature with 400 and writes nothing", async () => {
    const account = await createSignedInAccount(server.services);
    const bad = await webhook(succeeded("evt_bad", "pi_bad", account.userId), "t=1,v1=deadbeef");
    expect(bad.status).toBe(400);
    const missing = await fetch(`${server.url}/api/stripe/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(missing.status).toBe(400);
    expect(await paymentRows(account.userId)).toHaveLength(0);
    expect(await db().select().from(processedWebhookEvents).where(eq(processedWebhookEvents.eventId, "evt_bad"))).toHaveLength(0);
  });

  it("grants from payment_intent.succeeded exactly once under 20 parallel deliveries and replays", async () => {
    const account = await createSignedInAccount(server.services);
    const event = succeeded("evt_parallel", "pi_parallel", account.userId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => webhook(event)));
    for (const a of answers) expect(a.status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    expect(await paymentRows(account.userId)).toHaveLength(1);
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), 120));
    expect(await db().select().from(processedWebhookEvents).where(eq(processedWebhookEvents.eventId, "evt_parallel"))).toHaveLength(1);
  });

  it("takes the ticket's days back on charge.refunded, once, by the console's rule: a ticket it started ends at once (decision 023)", async () => {
    const account = await createSignedInAccount(server.services);
    await webhook(succeeded("evt_to_refund", "pi_to_refund", account.userId));
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), 120));
    const refund = (id: string) => ({ id, object: "event", type: "charge.refunded", data: { object: { id: "ch_1", object: "charge", refunded: true, payment_intent: "pi_to_refund" } } });
    expect((await webhook(refund("evt_refund_1"))).status).toBe(200);
    expect((await webhook(refund("evt_refund_2"))).status).toBe(200);
    // Yesterday: the refunded ticket started today, so today goes too, as a console refund's does.
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), -1));
    expect((await server.services.sessions.viewerFor(decodeURIComponent(account.cookie.split("=")[1])))?.member).toBe(false);
    expect((await paymentRows(account.userId))[0].status).toBe("refunded");
  });

  it("refunds from the console through the provider, and ends access as the webhook's refund does (decision 023)", async () => {
    const account = await createSignedInAccount(server.services);
    const paid = await post("/api/stripe/payment", { id: "pm_card_visa" }, account.cookie);
    expect(paid.status).toBe(200);
    const [payment] = await paymentRows(account.userId);
    const done = await server.services.admin.members.refund({ userId: null, email: "admin@museum.test" }, payment.id);
    expect(done).toMatchObject({ ok: true });
    const refunds = stripe.requests.filter((r) => r.path === "/v1/refunds");
    expect(refunds).toHaveLength(1);
    expect(refunds[0].body.get("payment_intent")).toBe(payment.providerPaymentId);
    expect(refunds[0].idempotencyKey).toBe(`museum-refund-${payment.id}`);
    // The same day as a webhook refund leaves: yesterday, so no member content today.
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), -1));
    // Stripe's charge.refunded that follows finds it refunded already and takes nothing more.
    const event = { id: `evt_after_console_${payment.id}`, object: "event", type: "charge.refunded", data: { object: { id: "ch_c", object: "charge", refunded: true, payment_intent: payment.providerPaymentId } } };
    expect((await webhook(event)).status).toBe(200);
    expect((await userRow(account.userId)).validThrough).toBe(addDays(today(), -1));
    expect(await server.services.admin.members.refund({ userId: null, email: "admin@museum.test" }, payment.id)).toEqual({ ok: false, message: "This payment was refunded already." });
  });

  it("answers 200 to a validly signed payment for an unknown account, and records it for staff once", async () => {
    for (const [pi, userId] of [["pi_nobody", randomUUID()], ["pi_not_an_id", "not-a-user-id"]]) {
      const event = succeeded(`evt_${pi}`, pi, userId);
      const first = await webhook(event);
      expect(first.status, pi).toBe(200);
      // Stripe retries and replays: still one record.
      expect((await webhook({ ...event, id: `evt_${pi}_again` })).status).toBe(200);
      const rows = await incidents(pi);
      expect(rows, pi).toHaveLength(1);
      expect(rows[0]).toMatchObject({ provider: "stripe", kind: "unknown_account", details: expect.objectContaining({ userId, amountCents: 699 }) });
      expect(await db().select().from(payments).where(eq(payments.providerPaymentId, pi))).toHaveLength(0);
    }
  });

  it.each([
    [100, "usd"],
    [6990, "usd"],
    [699, "eur"],
  ])("grants nothing from the webhook for %i %s (not the ticket's price), answers 200 and records it", async (amount, currency) => {
    const account = await createSignedInAccount(server.services);
    const pi = `pi_wrong_${amount}_${currency}`;
    expect((await webhook(succeeded(`evt_${pi}`, pi, account.userId, amount, currency))).status).toBe(200);
    expect((await userRow(account.userId)).validThrough).toBeNull();
    expect(await paymentRows(account.userId)).toHaveLength(0);
    const rows = await incidents(pi);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "amount_mismatch", details: expect.objectContaining({ userId: account.userId, amountCents: amount, currency, priceCents: 699 }) });
  });

  it("refuses the same payment by the same rule on the browser path (3-D Secure confirmation) and the webhook", async () => {
    const account = await createSignedInAccount(server.services);
    const res = await post("/api/stripe/payment", { id: "pm_card_authenticationRequired" }, account.cookie);
    const { paymentIntentId } = await res.json();
    stripe.alter(paymentIntentId, { amount: 100 });
    stripe.authenticate(paymentIntentId);
    const confirmed = await post("/api/stripe/payment/confirm", { paymentIntentId }, account.cookie);
    expect(confirmed.status).toBe(503);
    expect(await confirmed.json()).toMatchObject({ success: false, message: SERVER_MESSAGES.paymentNeedsReview });
    expect((await webhook(succeeded(`evt_${paymentIntentId}`, paymentIntentId, account.userId, 100))).status).toBe(200);
    expect((await userRow(account.userId)).validThrough).toBeNull();
    expect(await paymentRows(account.userId)).toHaveLength(0);
    expect(await incidents(paymentIntentId)).toHaveLength(1);
  });

  it("acknowledges events it does not handle", async () => {
    const res = await webhook({ id: "evt_other", object: "event", type: "customer.created", data: { object: { id: "cus_1" } } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ignored: true });
  });

  describe("gift tickets", () => {
    const form = (path: string, fields: Record<string, string>) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(), redirect: "manual" });
    async function draft() {
      const res = await form("/gift", {
        buyerFirstName: "Gus",
        buyerLastName: "Giver",
        buyerEmail: `gus.${randomUUID().slice(0, 8)}@example.com`,
        recipientFirstName: "Rae",
        recipientLastName: "Receiver",
        recipientEmail: `rae.${randomUUID().slice(0, 8)}@example.com`,
        deliverOn: today(),
      });
      expect(res.status).toBe(302);
      return res.headers.get("location")!.split("/")[2];
    }
    const gift = async (id: string) => (await db().select().from(gifts).where(eq(gifts.id, id)))[0];
    const receipts = async (pi: string) =>
      (await db().select().from(outbox).where(eq(outbox.kind, "email"))).filter((r) => {
        const mail = r.payload as { purpose: string; text: string };
        return mail.purpose === "gift-receipt" && mail.text.includes(`Payment reference: ${pi}`);
      });

    it("pays a gift through the SDK with the gift in the metadata; the webhook that follows grants nothing to anyone and records no incident", async () => {
      const id = await draft();
      const paid = await form(`/gift/${id}/pay`, { paymentMethodId: "pm_card_visa", attemptId: randomUUID() });
      expect(paid.status).toBe(302);
      expect(paid.headers.get("location")).toBe(`/gift/sent?gift=${id}`);
      const create = stripe.requests.find((r) => r.method === "POST" && r.body.get("metadata[giftId]") === id)!;
      expect(create.idempotencyKey).toMatch(new RegExp(`^gift:${id}:`));
      const row = await gift(id);
      expect(row.status).toBe("paid");
      const event = { ...succeeded(`evt_gift_${id}`, row.providerPaymentId!, ""), data: { object: { id: row.providerPaymentId, object: "payment_intent", amount: 699, currency: "usd", metadata: { userId: "", giftId: id }, receipt_email: row.buyerEmail, latest_charge: null } } };
      expect((await webhook(event)).status).toBe(200);
      expect(await incidents(row.providerPaymentId!)).toHaveLength(0);
      expect(await db().select().from(payments).where(eq(payments.providerPaymentId, row.providerPaymentId!))).toHaveLength(0);
      expect(await receipts(row.providerPaymentId!)).toHaveLength(1);
    });

    it("marks a gift paid from the webhook alone exactly once under parallel deliveries, and revokes it on charge.refunded", async () => {
      const id = await draft();
      const pi = `pi_gift_${id.slice(0, 8)}`;
      const event = { ...succeeded(`evt_gift_par_${id}`, pi, ""), data: { object: { id: pi, object: "payment_intent", amount: 699, currency: "usd", metadata: { userId: "", giftId: id }, receipt_email: "", latest_charge: null } } };
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => webhook({ ...event, id: `${event.id}_${i}` })));
      for (const a of answers) expect(a.status).toBe(200);
      expect((await gift(id)).status).toBe("paid");
      expect(await receipts(pi)).toHaveLength(1);
      expect(await incidents(pi)).toHaveLength(0);
      const refunded = { id: `evt_gift_refund_${id}`, object: "event", type: "charge.refunded", data: { object: { id: "ch_g", object: "charge", refunded: true, payment_intent: pi } } };
      expect((await webhook(refunded)).status).toBe(200);
      const row = await gift(id);
      expect(row.status).toBe("refunded");
      expect(row.redeemedAt).toBeNull();
    });
  });
});
