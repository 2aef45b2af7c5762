/**
 * 'Download my data' and 'Delete my account', on both databases: the export holds the
 * profile, payments, subscriptions and contact messages of the account's address and nobody
 * else's; deletion asks the password again, removes the personal data and every session at
 * once, keeps the payments anonymized, removes the subscription and queues the Mailchimp
 * removal, and frees the address for a new sign-up.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { contactMessages, emailChangeTokens, outbox, passwordResetTokens, payments, sessions, subscribers, users } from "../../server/db/schema";
import { createMailchimpSync } from "../../server/newsletter/mailchimp";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
let seq = 0;
const PASSWORD = "Steel3rs!";

describe("Mailchimp removal", () => {
  it("archives the member, and takes 404 as done", async () => {
    const calls: { url: string; method: string }[] = [];
    let status = 204;
    const sync = createMailchimpSync({ apiKey: "k-us1", serverPrefix: "us1", audienceId: "aud", apiBase: "http://mc.test" }, (async (url: string, init: RequestInit) => {
      calls.push({ url, method: String(init.method) });
      return new Response(null, { status });
    }) as typeof fetch);
    await sync({ email: " Ada@Example.com ", firstName: "", lastName: "", consent: false, unsubscribe: true });
    const md5 = createHash("md5").update("ada@example.com").digest("hex");
    expect(calls[0]).toEqual({ url: `http://mc.test/3.0/lists/aud/members/${md5}`, method: "DELETE" });
    status = 404;
    await sync({ email: "ada@example.com", firstName: "", lastName: "", consent: false, unsubscribe: true });
    status = 500;
    await expect(sync({ email: "ada@example.com", firstName: "", lastName: "", consent: false, unsubscribe: true })).rejects.toThrow(/500/);
  });
});

describe.each(drivers)("account data on %s", (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  const db = () => server.services.database.db;
  const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("museum_session="))!.split(";")[0];
  const json = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  async function signUp(firstName: string, email = `data${++seq}.${Date.now()}@example.com`, emailOptIn = true) {
    const res = await json("/api/users/", { firstName, lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true, emailOptIn });
    expect(res.status).toBe(201);
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    return { email, cookie: cookieOf(res), userId: row.id };
  }
  async function pay(userId: string, email: string) {
    const r = await server.services.membership.grantTicket({ userId, provider: "test", providerPaymentId: `pi_data_${++seq}_${Date.now()}`, amountCents: 699, currency: "usd", cardBrand: "visa", cardLast4: "4242", receiptEmail: email });
    expect(r.granted).toBe(true);
  }
  const post = (path: string, cookie: string, fields: Record<string, string>) =>
    fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: new URLSearchParams(fields).toString() });

  it("downloads the profile, payments, subscriptions and the contact messages of the address only", async () => {
    const a = await signUp("Ada");
    const b = await signUp("Bea");
    await pay(a.userId, a.email);
    await pay(b.userId, b.email);
    await db().insert(contactMessages).values([
      { firstName: "Ada", lastName: "Fan", email: a.email.toUpperCase(), subject: "Question", message: "Hello from Ada", subscribe: false },
      { firstName: "Bea", lastName: "Fan", email: b.email, subject: "Question", message: "Hello from Bea", subscribe: false },
    ]);
    const res = await fetch(`${server.url}/account/data`, { headers: { cookie: a.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="museum-account-data.json"');
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = await res.json();
    expect(body.profile).toMatchObject({ firstName: "Ada", lastName: "Fan", emailAddress: a.email, newsletterAtSignUp: true });
    expect(body.payments).toHaveLength(1);
    expect(body.payments[0]).toMatchObject({ amountCents: 699, cardLast4: "4242", receiptEmail: a.email, daysGranted: 120 });
    expect(body.subscriptions).toEqual([expect.objectContaining({ emailAddress: a.email, consent: true, source: "signup" })]);
    expect(body.contactMessages).toEqual([expect.objectContaining({ message: "Hello from Ada" })]);
    const text = JSON.stringify(body);
    expect(text).not.toContain(b.email);
    expect(text).not.toContain("password");
    // A visitor is sent to sign in.
    expect((await fetch(`${server.url}/account/data`, { redirect: "manual" })).status).toBe(302);
  });

  it("deletes the account after the password, keeps payments anonymized, and frees the address", async () => {
    const a = await signUp("Cal");
    await pay(a.userId, a.email);
    const otherSession = cookieOf(await json("/api/users/login", { emailAddress: a.email, password: PASSWORD }));
    await json("/api/users/request-reset", { emailAddress: a.email });
    for (let i = 0; i < 20 && (await server.services.outbox.runOnce()) > 0; i++);
    expect((await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, a.userId))).length).toBe(1);

    let res = await post("/account/delete", a.cookie, { currentPassword: "" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.currentPasswordRequired);
    res = await post("/account/delete", a.cookie, { currentPassword: "wrong-one1" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.wrongPassword);
    expect((await db().select().from(users).where(eq(users.id, a.userId))).length).toBe(1);

    res = await post("/account/delete", a.cookie, { currentPassword: PASSWORD });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/account/deleted");
    expect(res.headers.getSetCookie().some((c) => /^museum_session=;/.test(c))).toBe(true);

    expect(await db().select().from(users).where(eq(users.id, a.userId))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, a.userId))).toHaveLength(0);
    expect(await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, a.userId))).toHaveLength(0);
    expect(await db().select().from(emailChangeTokens).where(eq(emailChangeTokens.userId, a.userId))).toHaveLength(0);
    for (const cookie of [a.cookie, otherSession]) expect((await fetch(`${server.url}/account`, { headers: { cookie }, redirect: "manual" })).status).toBe(302);
    expect(await db().select().from(subscribers).where(eq(subscribers.email, a.email))).toHaveLength(0);
    const kept = await queryRows<{ user_id: string | null; receipt_email: string; card_last4: string | null; amount_cents: number; card_brand: string | null }>(
      db(),
      sql`select user_id, receipt_email, card_last4, amount_cents, card_brand from ${payments} where provider_payment_id like 'pi_data_%' and user_id is null`,
    );
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.every((p) => p.receipt_email === "" && p.card_last4 === null && p.amount_cents === 699)).toBe(true);
    const [removal] = await queryRows<{ payload: unknown }>(db(), sql`select payload from ${outbox} where kind = 'mailchimp' and payload->>'unsubscribe' = 'true' and payload->>'email' = ${a.email.toLowerCase()}`);
    expect(removal).toBeTruthy();
    // The page after deletion, and the address is free again.
    expect(await (await fetch(`${server.url}/account/deleted`)).text()).toContain(ACCOUNT_MESSAGES.accountDeleted);
    const again = await signUp("Cal", a.email, false);
    expect(again.userId).not.toBe(a.userId);
    // A refund of the anonymized payment still goes through, and touches no account.
    const [p] = await queryRows<{ provider_payment_id: string }>(db(), sql`select provider_payment_id from ${payments} where user_id is null limit 1`);
    expect(await server.services.membership.revokeTicket(p.provider_payment_id)).toBe(true);
  });

  it("refuses to delete a staff account from the account page", async () => {
    const a = await signUp("Stan");
    await db().update(users).set({ role: "curator" }).where(eq(users.id, a.userId));
    const res = await post("/account/delete", a.cookie, { currentPassword: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.staffCannotDelete);
    expect(await db().select().from(users).where(eq(users.id, a.userId))).toHaveLength(1);
  });
});
