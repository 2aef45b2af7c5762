/**
 * The account calls of spec section 7 through HTTP on both databases: sign-up, login outcomes,
 * relogin and Bearer tokens, logout, test-mode payments exactly once under concurrency, password
 * reset (emailed link, expiry, reuse, no enumeration), bad bodies, Origin check. Login
 * throttling: login-throttling.test.ts; reset requests in depth: password-reset.test.ts.
 */
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SERVER_MESSAGES, TEXT_RULE_MESSAGES, VALIDATION } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { outbox, passwordResetTokens, payments, subscribers, users } from "../../server/db/schema";
import { addDays } from "~/shared/calendar";
import { CARD_MESSAGES } from "../../server/payments/test-cards.server";
import { availableDrivers } from "../helpers/databases";
import { museumToday } from "../helpers/fixtures";
import { serverForSuite } from "../helpers/test-server";

const drivers = await availableDrivers();
let seq = 0;

describe.each(drivers)("accounts on %s", (kind) => {
  const suite = serverForSuite(kind);
  const { clock, post } = suite;
  const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];
  const today = () => museumToday(clock.now);
  /** Runs the outbox worker until nothing is due. */
  async function drainOutbox() {
    for (let i = 0; i < 50 && (await suite.server.services.outbox.runOnce()) > 0; i++);
  }

  function newPerson(overrides: Record<string, unknown> = {}) {
    const email = `fan${++seq}.${Date.now()}@example.com`;
    return {
      firstName: "Terry",
      lastName: "Fan",
      emailAddress: email,
      emailAddressConfirm: email,
      password: "Steel3rs!",
      passwordConfirm: "Steel3rs!",
      termsAndConditions: true,
      emailOptIn: false,
      ...overrides,
    };
  }
  async function signUp(overrides: Record<string, unknown> = {}) {
    const person = newPerson(overrides);
    const res = await post("/api/users/", person);
    expect(res.status).toBe(201);
    return { person, cookie: cookieOf(res), body: await res.json() };
  }

  it("signs up: account stored with a hashed password, signed in, no ticket yet", async () => {
    const { person, cookie, body } = await signUp();
    expect(body).toMatchObject({ success: true, message: SERVER_MESSAGES.signUpSuccess, account: { firstName: "Terry", emailAddress: person.emailAddress, validThrough: null } });
    expect(cookie).toMatch(/^museum_session=/);
    const [row] = await suite.server.services.database.db.select().from(users).where(eq(users.email, person.emailAddress));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.passwordHash).not.toContain(person.password);
    const relogin = await post("/api/users/relogin", {}, { cookie });
    expect(await relogin.json()).toMatchObject({ token: expect.any(String), account: { emailAddress: person.emailAddress } });
  });

  it("refuses a second account for the same email in any letter case", async () => {
    const { person } = await signUp();
    const again = newPerson({ emailAddress: person.emailAddress.toUpperCase(), emailAddressConfirm: person.emailAddress.toUpperCase() });
    const res = await post("/api/users/", again);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ success: false, message: SERVER_MESSAGES.emailTaken });
  });

  it("records the newsletter opt-in once per email, with a Mailchimp job", async () => {
    const { person } = await signUp({ emailOptIn: true });
    const rows = await suite.server.services.database.db.select().from(subscribers).where(eq(subscribers.email, person.emailAddress.toLowerCase()));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ consent: true, source: "signup" });
    const jobs = await queryRows<{ n: number }>(suite.server.services.database.db, sql`select count(*)::int as n from ${outbox} where kind = 'mailchimp' and payload->>'email' = ${person.emailAddress}`);
    expect(jobs[0].n).toBe(1);
  });

  it.each([
    [{ firstName: "" }, VALIDATION.firstNameRequired],
    [{ lastName: " " }, VALIDATION.lastNameRequired],
    [{ emailAddress: "nope", emailAddressConfirm: "nope" }, VALIDATION.emailFormat],
    [{ emailAddressConfirm: "other@example.com" }, VALIDATION.emailsMismatch],
    [{ password: "short", passwordConfirm: "short" }, VALIDATION.passwordLength],
    [{ password: "x".repeat(17), passwordConfirm: "x".repeat(17) }, VALIDATION.passwordLength],
    [{ passwordConfirm: "Different1" }, VALIDATION.passwordsMismatch],
    [{ termsAndConditions: false }, VALIDATION.termsRequired],
  ])("answers sign-up %j with 400 and the spec's message", async (overrides, message) => {
    const res = await post("/api/users/", newPerson(overrides));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, message });
  });

  it("refuses control characters in sign-up names with 400 and a message naming the field", async () => {
    const forged = "Terry\r\n\r\nWe have refunded your ticket. Confirm your card at https://evil.example";
    for (const [field, label, value] of [
      ["firstName", "First name", forged],
      ["lastName", "Last name", "Fan\u0000"],
      ["firstName", "First name", "Terry\u2028Fan"],
    ] as const) {
      const res = await post("/api/users/", newPerson({ [field]: value }));
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(await res.json()).toEqual({ success: false, message: TEXT_RULE_MESSAGES.controlCharacters(label) });
    }
  });

  it("answers malformed bodies with 400, never 500", async () => {
    for (const path of ["/api/users/", "/api/users/login", "/api/users/request-reset", "/api/users/reset-password"]) {
      const broken = await fetch(`${suite.server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
      expect(broken.status, path).toBe(400);
      expect((await broken.json()).message).toBeTruthy();
      const wrongTypes = await post(path, { emailAddress: 42, password: [], token: {} });
      expect(wrongTypes.status, path).toBe(400);
    }
    const huge = await post("/api/users/", { ...newPerson(), firstName: "x".repeat(100_000) });
    expect(huge.status).toBe(413);
  });

  it("separates paid, expired and unpaid logins; wrong password and unknown email look the same", async () => {
    const { person } = await signUp();
    const unpaid = await post("/api/users/login", { emailAddress: person.emailAddress, password: person.password });
    expect(await unpaid.json()).toMatchObject({ login: false, expired: false, unpaid: true, message: SERVER_MESSAGES.loginUnpaid });
    const db = suite.server.services.database.db;
    await db.update(users).set({ validThrough: addDays(today(), -1) }).where(eq(users.email, person.emailAddress));
    const expired = await post("/api/users/login", { emailAddress: person.emailAddress, password: person.password });
    expect(await expired.json()).toMatchObject({ login: false, expired: true, unpaid: false, message: SERVER_MESSAGES.loginExpired });
    await db.update(users).set({ validThrough: today() }).where(eq(users.email, person.emailAddress));
    const paid = await post("/api/users/login", { emailAddress: person.emailAddress.toUpperCase(), password: person.password });
    expect(await paid.json()).toMatchObject({ login: true, expired: false, unpaid: false, message: SERVER_MESSAGES.loginSuccess("Terry"), account: { validThrough: today() } });

    const wrong = await post("/api/users/login", { emailAddress: person.emailAddress, password: "Wrong-pass1" });
    const unknown = await post("/api/users/login", { emailAddress: "nobody@example.com", password: "Wrong-pass1" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    const bad = await post("/api/users/login", { emailAddress: "not-an-email", password: "x" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe(VALIDATION.loginEmailInvalid);
  });

  it("works for a non-browser client with the relogin token as a Bearer token, and logout ends it", async () => {
    const { person } = await signUp();
    const login = await post("/api/users/login", { emailAddress: person.emailAddress, password: person.password });
    const { token } = await (await post("/api/users/relogin", {}, { cookie: cookieOf(login) })).json();
    const viaBearer = await post("/api/users/relogin", {}, { authorization: `Bearer ${token}` });
    expect(viaBearer.status).toBe(200);
    const out = await post("/api/users/logout", { emailAddress: person.emailAddress }, { authorization: `Bearer ${token}` });
    expect(await out.json()).toEqual({ logout: true, alertType: "success", message: SERVER_MESSAGES.logout });
    expect((await post("/api/users/relogin", {}, { authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("refuses state-changing requests from another site", async () => {
    const res = await post("/api/users/", newPerson(), { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe(SERVER_MESSAGES.crossOrigin);
    const sameSite = await post("/api/users/login", { emailAddress: "a@b.co", password: "x" }, { origin: suite.server.url });
    expect(sameSite.status).toBe(401);
  });

  it("pays in test mode: grants TICKET_DAYS, stores only brand and last4, emails a receipt", async () => {
    const { person, cookie } = await signUp();
    const res = await post("/api/stripe/payment", { id: "pm_card_visa", receipt_email: person.emailAddress }, { cookie });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, message: SERVER_MESSAGES.paymentSuccess, account: { validThrough: addDays(today(), 120) } });
    const db = suite.server.services.database.db;
    const [user] = await db.select().from(users).where(eq(users.email, person.emailAddress));
    const rows = await db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amountCents: 699, cardBrand: "visa", cardLast4: "4242", status: "succeeded" });
    const receipts = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${outbox} where payload->>'purpose' = 'receipt' and payload->>'to' = ${person.emailAddress}`);
    expect(receipts[0].n).toBe(1);
  });

  it("extends a valid ticket from its end date, and an expired one from today", async () => {
    const { person, cookie } = await signUp();
    const db = suite.server.services.database.db;
    await db.update(users).set({ validThrough: addDays(today(), 10) }).where(eq(users.email, person.emailAddress));
    const res = await post("/api/stripe/payment", { id: "pm_card_visa", idempotencyKey: "extend-1" }, { cookie });
    expect((await res.json()).account.validThrough).toBe(addDays(today(), 130));
    await db.update(users).set({ validThrough: addDays(today(), -30) }).where(eq(users.email, person.emailAddress));
    const again = await post("/api/stripe/payment", { id: "pm_card_visa", idempotencyKey: "extend-2" }, { cookie });
    expect((await again.json()).account.validThrough).toBe(addDays(today(), 120));
  });

  it("grants exactly once under 20 concurrent duplicate payments", async () => {
    const { person, cookie } = await signUp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post("/api/stripe/payment", { id: "pm_card_visa", idempotencyKey: "double-click-1" }, { cookie })),
    );
    for (const r of results) expect(r.status).toBe(200);
    const db = suite.server.services.database.db;
    const [user] = await db.select().from(users).where(eq(users.email, person.emailAddress));
    expect(user.validThrough).toBe(addDays(today(), 120));
    expect(await db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
  });

  it.each([
    ["pm_card_chargeDeclined", CARD_MESSAGES.declined],
    ["pm_card_chargeDeclinedInsufficientFunds", CARD_MESSAGES.insufficientFunds],
    ["pm_card_chargeDeclinedExpiredCard", CARD_MESSAGES.expiredCard],
    ["pm_card_chargeDeclinedLostCard", CARD_MESSAGES.declined],
    ["pm_card_chargeDeclinedStolenCard", CARD_MESSAGES.declined],
    ["pm_card_chargeDeclinedIncorrectCvc", CARD_MESSAGES.incorrectCvc],
    ["pm_card_chargeDeclinedProcessingError", CARD_MESSAGES.processingError],
    ["pm_card_cvcCheckFail", CARD_MESSAGES.incorrectCvc],
    ["pm_card_chargeCustomerFail", CARD_MESSAGES.declined],
    ["pm_bogus", CARD_MESSAGES.invalidNumber],
  ])("declines %s with the card's message and grants nothing", async (id, message) => {
    const { person, cookie } = await signUp();
    const res = await post("/api/stripe/payment", { id }, { cookie });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ success: false, message });
    const [user] = await suite.server.services.database.db.select().from(users).where(eq(users.email, person.emailAddress));
    expect(user.validThrough).toBeNull();
  });

  it("requires an account to pay", async () => {
    const res = await post("/api/stripe/payment", { id: "pm_card_visa" });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toBe(SERVER_MESSAGES.notLoggedInForPayment);
  });

  it("resets a password with the emailed single-use token, and answers the same for unknown emails", async () => {
    const { person, cookie } = await signUp();
    const known = await post("/api/users/request-reset", { emailAddress: person.emailAddress });
    const unknown = await post("/api/users/request-reset", { emailAddress: "ghost@example.com" });
    expect(known.status).toBe(unknown.status);
    expect(await known.json()).toEqual(await unknown.json());
    const empty = await post("/api/users/request-reset", { emailAddress: "" });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe(VALIDATION.forgotEmailRequired);

    // The outbox worker issues the token and queues the email.
    await drainOutbox();
    const db = suite.server.services.database.db;
    const [mail] = await queryRows<{ text: string }>(db, sql`select payload->>'text' as text from ${outbox} where payload->>'purpose' = 'password-reset' and payload->>'to' = ${person.emailAddress}`);
    const link = /(http\S+\/password\/reset\?token=(\S+))/.exec(mail.text);
    expect(link?.[1].startsWith(suite.server.config.PUBLIC_URL)).toBe(true);
    const token = link![2];
    const stored = await db.select().from(passwordResetTokens);
    expect(stored.some((t) => t.tokenHash === token)).toBe(false);

    const mismatch = await post("/api/users/reset-password", { token, password: "NewPass12", confirmPassword: "NewPass13" });
    expect((await mismatch.json()).message).toBe(VALIDATION.resetPasswordsMismatch);
    const short = await post("/api/users/reset-password", { token, password: "short", confirmPassword: "short" });
    expect((await short.json()).message).toBe(VALIDATION.resetPasswordLength);
    const ok = await post("/api/users/reset-password", { token, password: "NewPass12", confirmPassword: "NewPass12" });
    expect(await ok.json()).toEqual({ message: SERVER_MESSAGES.resetDone });
    // the old session is gone, the old password too
    expect((await post("/api/users/relogin", {}, { cookie })).status).toBe(401);
    expect((await post("/api/users/login", { emailAddress: person.emailAddress, password: person.password })).status).toBe(401);
    expect((await post("/api/users/login", { emailAddress: person.emailAddress, password: "NewPass12" })).status).toBe(200);
    const reuse = await post("/api/users/reset-password", { token, password: "Another12", confirmPassword: "Another12" });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).message).toBe(SERVER_MESSAGES.resetInvalidToken);
  });

  it("expires reset tokens after one hour", async () => {
    const { person } = await signUp();
    await post("/api/users/request-reset", { emailAddress: person.emailAddress });
    await drainOutbox();
    const db = suite.server.services.database.db;
    const [mail] = await queryRows<{ text: string }>(db, sql`select payload->>'text' as text from ${outbox} where payload->>'purpose' = 'password-reset' and payload->>'to' = ${person.emailAddress}`);
    const token = /token=(\S+)/.exec(mail.text)![1];
    const saved = clock.now;
    clock.now = new Date(saved.getTime() + 61 * 60_000);
    try {
      const res = await post("/api/users/reset-password", { token, password: "NewPass12", confirmPassword: "NewPass12" });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(SERVER_MESSAGES.resetInvalidToken);
    } finally {
      clock.now = saved;
    }
    const [user] = await db.select().from(users).where(eq(users.email, person.emailAddress));
    const unused = await db.select().from(passwordResetTokens).where(and(eq(passwordResetTokens.userId, user.id)));
    expect(unused[0].usedAt).toBeNull();
  });
});
