/**
 * Idempotent writes (decision 025) on both databases: each JSON API write sent twice
 * with one Idempotency-Key answers the same status and body and stores once; the same key with
 * another body answers 422, a malformed key 400, no key behaves as before; a duplicate of a
 * request still running answers 409 (PostgreSQL); keys past 24 h are purged by housekeeping. The
 * page forms carry a hidden key per render with the same effect.
 */
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_MESSAGES, SERVER_MESSAGES, SUBSCRIBE_MESSAGES } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { contactMessages, gifts, idempotencyKeys, outbox, subscribers, users } from "../../server/db/schema";
import { IDEMPOTENCY_MESSAGES } from "~/shared/idempotency";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount, museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let seq = 0;
const uniq = () => `${++seq}.${Date.now()}`;
const newKey = () => `key-${crypto.randomUUID()}`;

describe.each(drivers)("idempotent writes on %s", (kind) => {
  let server: TestServer;
  let clock = Date.parse("2026-11-26T12:00:00Z");
  /** Moves the server's clock on: a retry long after the first try (past the contact form's own ten-minute duplicate window). */
  const later = (ms: number) => {
    clock += ms;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { now: () => new Date(clock) });
  });
  afterAll(() => server?.close());

  const db = () => server.services.database.db;
  const count = async (query: ReturnType<typeof sql>) => (await queryRows<{ n: number }>(db(), query))[0].n;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const keyed = (key: string) => ({ "Idempotency-Key": key });
  const answer = async (res: Response) => ({ status: res.status, body: await res.json() });

  function person() {
    const email = `fan${uniq()}@example.com`;
    return { firstName: "Terry", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true, emailOptIn: true };
  }
  const contact = () => ({ firstName: "Ada", lastName: "Fan", email: `ada${uniq()}@example.com`, subject: "Question", message: `When did Forbes Field close? (${seq})`, subscribe: false });
  const usersWith = (email: string) => count(sql`select count(*)::int as n from ${users} where lower(${users.email}) = ${email.toLowerCase()}`);
  const messagesFrom = (email: string) => count(sql`select count(*)::int as n from ${contactMessages} where ${contactMessages.email} = ${email}`);
  const mailchimpJobsFor = (email: string) => count(sql`select count(*)::int as n from ${outbox} where ${outbox.kind} = 'mailchimp' and ${outbox.payload}->>'email' = ${email}`);
  const contactEmailsFrom = (email: string) => count(sql`select count(*)::int as n from ${outbox} where ${outbox.kind} = 'email' and ${outbox.payload}->>'replyTo' = ${email}`);
  const subscriberUpdatedAt = async (email: string) => (await db().select({ at: subscribers.updatedAt }).from(subscribers).where(eq(subscribers.email, email)))[0]?.at.toISOString();

  describe("the JSON API", () => {
    it("sign-up: a retry with the key gets the first answer (201, same body, signed in) and makes one account", async () => {
      const p = person();
      const key = newKey();
      const first = await post("/api/users/", p, keyed(key));
      later(MINUTE);
      const again = await post("/api/users/", p, keyed(key));
      expect(await answer(again)).toEqual(await answer(first));
      expect(first.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      // The retry is signed in too, as the lost first answer would have been.
      const cookie = (again.headers.get("set-cookie") ?? "").split(";")[0];
      expect(cookie).toMatch(/=./);
      const relogin = await fetch(`${server.url}/api/users/relogin`, { method: "POST", headers: { cookie } });
      expect(relogin.status).toBe(200);
      expect(await usersWith(p.emailAddress)).toBe(1);
      // The opt-in's subscriber and Mailchimp job were written once, with the account.
      expect(await mailchimpJobsFor(p.emailAddress)).toBe(1);
    });

    it("a sign-up stored but answered with an error (the session failed after the commit) is completed by its retry", async () => {
      const p = person();
      const key = newKey();
      const sessions = server.services.sessions;
      const create = sessions.create;
      sessions.create = () => Promise.reject(Object.assign(new Error("Connection terminated unexpectedly"), { code: "57P01" }));
      try {
        expect((await post("/api/users/", p, keyed(key))).status).toBeGreaterThanOrEqual(500);
      } finally {
        sessions.create = create;
      }
      expect(await usersWith(p.emailAddress)).toBe(1); // stored, though the client was told it failed
      const again = await post("/api/users/", p, keyed(key));
      expect(await answer(again)).toMatchObject({ status: 201, body: { success: true, message: SERVER_MESSAGES.signUpSuccess } });
      expect(again.headers.get("set-cookie")).toMatch(/=./);
      expect(await usersWith(p.emailAddress)).toBe(1);
    });

    it("sign-up without a key behaves as before: a second try finds the email taken", async () => {
      const p = person();
      expect((await post("/api/users/", p)).status).toBe(201);
      expect(await answer(await post("/api/users/", p))).toEqual({ status: 409, body: { success: false, message: SERVER_MESSAGES.emailTaken } });
      expect(await usersWith(p.emailAddress)).toBe(1);
    });

    it("contact (stored and emailed): a retry after ten minutes gets the first answer and stores and emails once", async () => {
      const m = contact();
      const key = newKey();
      const first = await post("/api/email/contact", m, keyed(key));
      later(11 * MINUTE);
      const again = await post("/api/email/contact", m, keyed(key));
      expect(await answer(first)).toEqual({ status: 200, body: { success: true, message: CONTACT_MESSAGES.success } });
      expect(await answer(again)).toEqual({ status: 200, body: { success: true, message: CONTACT_MESSAGES.success } });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await messagesFrom(m.email)).toBe(1);
      expect(await contactEmailsFrom(m.email)).toBe(1);
    });

    it("contact (stored): a retry after ten minutes gets the first answer and stores once; without a key it stores twice, as before", async () => {
      const m = contact();
      const key = newKey();
      const first = await answer(await post("/api/contact", m, keyed(key)));
      later(11 * MINUTE);
      expect(await answer(await post("/api/contact", m, keyed(key)))).toEqual(first);
      expect(first).toEqual({ status: 201, body: { success: true } });
      expect(await messagesFrom(m.email)).toBe(1);

      const unkeyed = contact();
      await post("/api/contact", unkeyed);
      later(11 * MINUTE);
      await post("/api/contact", unkeyed);
      expect(await messagesFrom(unkeyed.email)).toBe(2);
    });

    it("subscribe to Mailchimp: a retry gets the first answer and queues one sync", async () => {
      const s = { firstName: "Sam", lastName: "Fan", email: `sam${uniq()}@example.com`, audience: "museum-newsletter" };
      const key = newKey();
      const first = await answer(await post("/api/mc/subscribe", s, keyed(key)));
      later(MINUTE);
      expect(await answer(await post("/api/mc/subscribe", s, keyed(key)))).toEqual(first);
      expect(first).toEqual({ status: 200, body: { success: true, message: SUBSCRIBE_MESSAGES.success } });
      expect(await count(sql`select count(*)::int as n from ${subscribers} where ${subscribers.email} = ${s.email}`)).toBe(1);
      expect(await mailchimpJobsFor(s.email)).toBe(1);
    });

    it("local subscribe: a retry gets the first answer and writes nothing (the subscriber is not touched again)", async () => {
      const s = { firstName: "Sue", lastName: "Fan", emailAddress: `sue${uniq()}@example.com`, subscribe: true };
      const key = newKey();
      const first = await answer(await post("/api/subscribes", s, keyed(key)));
      const at = await subscriberUpdatedAt(s.emailAddress);
      later(MINUTE);
      expect(await answer(await post("/api/subscribes", s, keyed(key)))).toEqual(first);
      expect(first).toEqual({ status: 200, body: { success: true, message: SUBSCRIBE_MESSAGES.success } });
      expect(await subscriberUpdatedAt(s.emailAddress)).toBe(at);
      expect(await count(sql`select count(*)::int as n from ${subscribers} where ${subscribers.email} = ${s.emailAddress}`)).toBe(1);
    });

    it("the same key with a different body answers 422 and stores nothing", async () => {
      const key = newKey();
      const m = contact();
      expect((await post("/api/contact", m, keyed(key))).status).toBe(201);
      const other = { ...m, email: `other${uniq()}@example.com` };
      expect(await answer(await post("/api/contact", other, keyed(key)))).toEqual({ status: 422, body: { success: false, message: IDEMPOTENCY_MESSAGES.mismatch } });
      expect(await messagesFrom(other.email)).toBe(0);

      const p = person();
      expect((await post("/api/users/", p, keyed(key))).status).toBe(201); // another route: another scope
      const q = { ...p, firstName: "Other" };
      expect(await answer(await post("/api/users/", q, keyed(key)))).toEqual({ status: 422, body: { success: false, message: IDEMPOTENCY_MESSAGES.mismatch } });
    });

    it("the same fields in another order, or with a fresh reCAPTCHA token, are the same request", async () => {
      const key = newKey();
      const m = contact();
      const first = await answer(await post("/api/email/contact", { ...m, recaptchaToken: "first" }, keyed(key)));
      later(11 * MINUTE);
      const reordered = Object.fromEntries(Object.entries({ ...m, recaptchaToken: "second" }).reverse());
      expect(await answer(await post("/api/email/contact", reordered, keyed(key)))).toEqual(first);
      expect(await messagesFrom(m.email)).toBe(1);
    });

    it.each([
      ["too short", "short"],
      ["too long", "k".repeat(201)],
      ["with a space", "a key with spaces"],
      ["not ASCII", "clé-de-requête-1"],
    ])("a key %s answers 400 with the rule, before anything is stored", async (_what, key) => {
      for (const [path, body] of [
        ["/api/users/", person()],
        ["/api/email/contact", contact()],
        ["/api/contact", contact()],
        ["/api/mc/subscribe", { firstName: "Sam", lastName: "Fan", email: `sam${uniq()}@example.com` }],
        ["/api/subscribes", { firstName: "Sue", lastName: "Fan", emailAddress: `sue${uniq()}@example.com`, subscribe: true }],
      ] as const) {
        const res = await post(path, body, keyed(key));
        expect({ path, ...(await answer(res)) }).toEqual({ path, status: 400, body: { success: false, message: IDEMPOTENCY_MESSAGES.malformed } });
      }
      expect(await count(sql`select count(*)::int as n from ${idempotencyKeys} where ${idempotencyKeys.key} = ${key}`)).toBe(0);
    });

    it("the card payment refuses a malformed key and still takes a well-formed one", async () => {
      const { cookie } = await createSignedInAccount(server.services);
      const pay = (key: string) => post("/api/stripe/payment", { id: "pm_card_visa" }, { cookie, ...keyed(key) });
      expect(await answer(await pay("bad key"))).toEqual({ status: 400, body: { success: false, message: IDEMPOTENCY_MESSAGES.malformed } });
      expect((await pay(newKey())).status).toBe(200);
    });

    it("a key is scoped per account: two signed-in accounts may use the same key", async () => {
      const key = newKey();
      const a = await createSignedInAccount(server.services);
      const b = await createSignedInAccount(server.services);
      const m = contact();
      expect((await post("/api/contact", m, { cookie: a.cookie, ...keyed(key) })).status).toBe(201);
      const other = contact();
      expect((await post("/api/contact", other, { cookie: b.cookie, ...keyed(key) })).status).toBe(201);
      expect(await messagesFrom(other.email)).toBe(1);
    });

    it("keys expire after 24 h: housekeeping purges them, and the key then names a new request", async () => {
      const m = contact();
      const key = newKey();
      await post("/api/contact", m, keyed(key));
      const fresh = newKey();
      later(24 * HOUR - 10 * MINUTE);
      await post("/api/contact", contact(), keyed(fresh));
      later(20 * MINUTE);
      const run = await server.services.housekeeping.runOnce();
      expect(run.ran && run.counts.idempotencyKeys).toBeGreaterThanOrEqual(1);
      const left = await db().select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(and(eq(idempotencyKeys.route, "POST /api/contact")));
      expect(left.map((r) => r.key)).not.toContain(key);
      expect(left.map((r) => r.key)).toContain(fresh);
      await post("/api/contact", m, keyed(key));
      expect(await messagesFrom(m.email)).toBe(2);
    });

    it.runIf(kind === "postgres")("a duplicate of a request still running answers 409 with Retry-After, and never runs", async () => {
      const p = person();
      const key = newKey();
      // Another session holds the key's lock, as the first request's transaction does while it runs.
      const holder = new pg.Client({ connectionString: server.database.url });
      await holder.connect();
      try {
        await holder.query("begin");
        await holder.query("select pg_advisory_xact_lock(22006, hashtext($1))", [`POST /api/users\n\n${key}`]);
        const res = await post("/api/users/", p, keyed(key));
        expect(await answer(res)).toEqual({ status: 409, body: { success: false, message: IDEMPOTENCY_MESSAGES.inFlight } });
        expect(res.headers.get("retry-after")).toBe("1");
        expect(await usersWith(p.emailAddress)).toBe(0);
      } finally {
        await holder.query("rollback").catch(() => undefined);
        await holder.end();
      }
      expect((await post("/api/users/", p, keyed(key))).status).toBe(201);
    });

    it("concurrent duplicates never both run: one account, and every answer is the first one or 409", async () => {
      const p = person();
      const key = newKey();
      const answers = await Promise.all(Array.from({ length: 6 }, () => post("/api/users/", p, keyed(key)).then(answer)));
      expect(await usersWith(p.emailAddress)).toBe(1);
      const created = answers.filter((a) => a.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const a of created) expect(a).toEqual(created[0]);
      for (const a of answers) expect([201, 409]).toContain(a.status);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.message).toBe(IDEMPOTENCY_MESSAGES.inFlight);
    });
  });

  describe("the page forms", () => {
    const postForm = (path: string, fields: Record<string, string>, cookie?: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      });
    /** The hidden key of a fresh render of the page. */
    async function renderedKey(path: string, cookie?: string): Promise<string> {
      const html = await (await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} })).text();
      const key = /<input type="hidden" name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
      expect(key, `no hidden key on ${path}`).toBeTruthy();
      return key!;
    }

    it("each render of a form carries a new key", async () => {
      for (const path of ["/contact", "/subscribe", "/admission", "/gift"]) {
        const [a, b] = [await renderedKey(path), await renderedKey(path)];
        expect(a).not.toBe(b);
      }
    });

    it("contact: the same form posted twice with its hidden key stores one message and emails once", async () => {
      const m = contact();
      const fields = { ...m, subscribe: "on", idempotencyKey: await renderedKey("/contact") };
      const first = await postForm("/contact", fields);
      later(11 * MINUTE);
      const again = await postForm("/contact", fields);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(await again.text()).toContain(CONTACT_MESSAGES.success);
      expect(await messagesFrom(m.email)).toBe(1);
      expect(await contactEmailsFrom(m.email)).toBe(1);
    });

    it("contact: the same key with another message answers 422; a malformed key 400", async () => {
      const key = await renderedKey("/contact");
      const m = { ...contact(), subscribe: "false" };
      expect((await postForm("/contact", { ...m, idempotencyKey: key })).status).toBe(200);
      const changed = await postForm("/contact", { ...m, message: "Another question", idempotencyKey: key });
      expect(changed.status).toBe(422);
      expect(await changed.text()).toContain(IDEMPOTENCY_MESSAGES.mismatch);
      const bad = await postForm("/contact", { ...contact(), subscribe: "false", idempotencyKey: "short" });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain(IDEMPOTENCY_MESSAGES.malformed);
    });

    it("subscribe: the same form posted twice with its hidden key queues one Mailchimp sync", async () => {
      const email = `sub${uniq()}@example.com`;
      const fields = { firstName: "Sam", lastName: "Fan", emailAddress: email, subscribe: "on", idempotencyKey: await renderedKey("/subscribe") };
      const first = await postForm("/subscribe", fields);
      const again = await postForm("/subscribe", fields);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(await mailchimpJobsFor(email)).toBe(1);
    });

    it("admission: the same sign-up posted twice goes to payment signed in both times, with one account", async () => {
      const p = person();
      const fields = { ...Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v === true ? "on" : String(v)])), idempotencyKey: await renderedKey("/admission") };
      const first = await postForm("/admission", fields);
      const again = await postForm("/admission", fields);
      for (const res of [first, again]) {
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe("/admission/payment");
        expect(res.headers.get("set-cookie")).toMatch(/=./);
      }
      expect(await usersWith(p.emailAddress)).toBe(1);
    });

    it("gift: the same gift form posted twice goes to one draft's payment page", async () => {
      const { cookie } = await createSignedInAccount(server.services);
      const buyerEmail = `bea${uniq()}@example.com`;
      const fields = {
        buyerFirstName: "Bea",
        buyerLastName: "Buyer",
        buyerEmail,
        recipientFirstName: "Ray",
        recipientLastName: "Recipient",
        recipientEmail: `ray${uniq()}@example.com`,
        message: "Happy birthday!",
        deliverOn: museumToday(new Date(clock)),
        idempotencyKey: await renderedKey("/gift", cookie),
      };
      const first = await postForm("/gift", fields, cookie);
      const again = await postForm("/gift", fields, cookie);
      expect(first.status).toBe(302);
      expect(again.status).toBe(302);
      expect(again.headers.get("location")).toBe(first.headers.get("location"));
      expect(await count(sql`select count(*)::int as n from ${gifts} where ${gifts.buyerEmail} = ${buyerEmail}`)).toBe(1);
    });
  });
});
