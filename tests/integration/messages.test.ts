/**
 * Contact, newsletter, bot check and the outbox on both databases: nothing the user was told is
 * saved gets lost when SMTP or Mailchimp is down, nothing is sent twice (also with two workers
 * racing over one outbox), bad input gets a 400, never a 500 or a broken email.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOTCHECK_MESSAGES, CONTACT_MESSAGES, SUBSCRIBE_MESSAGES, TEXT_RULE_MESSAGES, VALIDATION } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { contactMessages, outbox, subscribers } from "../../server/db/schema";
import { parseRawMessage } from "../e2e/mail-capture";
import { createLogger } from "../../server/logger";
import { createMailer } from "../../server/mail/mailer";
import { createOutboxWorker } from "../../server/outbox/outbox";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startHttpStandin } from "../mocks/http-standin";
import { startSmtpSink } from "../mocks/smtp-sink";

const drivers = await availableDrivers();
let seq = 0;

describe.each(drivers)("contact and newsletter on %s", (kind) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let mailchimp: Awaited<ReturnType<typeof startHttpStandin>>;
  let recaptcha: Awaited<ReturnType<typeof startHttpStandin>>;
  let mailchimpUp = true;
  let now = new Date();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    mailchimp = await startHttpStandin(() => (mailchimpUp ? { status: 200, json: { id: "m1", status: "subscribed" } } : { status: 503, json: { title: "down" } }));
    recaptcha = await startHttpStandin((req) => {
      const token = new URLSearchParams(req.body).get("response");
      return { status: 200, json: token === "human" ? { success: true, score: 0.9, action: "submit" } : { success: true, score: 0.1, action: "submit" } };
    });
    server = await startTestServer(
      kind,
      {
        SMTP_URL: smtp.url,
        CONTACT_EMAIL_TO: "curator@museum.example",
        MAILCHIMP_API_KEY: "key-us21",
        MAILCHIMP_SERVER_PREFIX: "us21",
        MAILCHIMP_AUDIENCE_ID: "aud123",
        MAILCHIMP_API_BASE: mailchimp.url,
        RECAPTCHA_SITE_KEY: "site-key",
        RECAPTCHA_SECRET: "secret-key",
        RECAPTCHA_VERIFY_URL: `${recaptcha.url}/siteverify`,
      },
      { now: () => now },
    );
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await mailchimp?.close();
    await recaptcha?.close();
  });

  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const db = () => server.services.database.db;
  const pending = async () => (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${outbox} where status = 'pending'`))[0].n;
  /** Runs the worker until nothing is due now. */
  async function drain() {
    for (let i = 0; i < 50 && (await server.services.outbox.runOnce()) > 0; i++);
  }
  function message(overrides: Record<string, unknown> = {}) {
    return {
      firstName: "Ada",
      lastName: "Fan",
      email: `ada${++seq}@example.com`,
      subject: "Question",
      message: `When did Forbes Field close? (${seq})`,
      subscribe: false,
      recaptchaToken: "human",
      ...overrides,
    };
  }

  it("stores a contact message and emails it once to the museum with reply-to the sender", async () => {
    const m = message({ message: "<script>alert(1)</script> Where is the <b>1960</b> home run ball?" });
    const res = await post("/api/email/contact", m);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: CONTACT_MESSAGES.success });
    // The legacy client also posts the same message to /api/contact: still one message, one email.
    expect((await post("/api/contact", m)).status).toBe(201);
    const rows = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${contactMessages} where email = ${m.email}`);
    expect(rows[0].n).toBe(1);
    await drain();
    const mails = smtp.received.filter((r) => r.raw.includes(m.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual(["curator@museum.example"]);
    expect(mails[0].raw).toMatch(new RegExp(`Reply-To: ${m.email}`, "i"));
    expect(mails[0].raw).toMatch(/Content-Type: text\/plain/i);
    // The HTML part shows the visitor's markup as text, never as markup.
    const { text, html } = parseRawMessage(Buffer.from(mails[0].raw, "utf8"));
    expect(text).toContain("> <script>alert(1)</script> Where is the <b>1960</b> home run ball?");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Where is the &lt;b&gt;1960&lt;/b&gt; home run ball?");
    expect(html).not.toMatch(/<script|<b>/i);
  });

  it("keeps mail while SMTP refuses it and sends everything once when it is back", async () => {
    smtp.refuse(true);
    const before = smtp.received.length;
    const sent = [message(), message(), message()];
    for (const m of sent) expect((await post("/api/email/contact", m)).status).toBe(200);
    await drain();
    expect(smtp.received.length).toBe(before);
    expect(await pending()).toBeGreaterThanOrEqual(3);
    const failed = await queryRows<{ attempts: number; last_error: string }>(db(), sql`select attempts, last_error from ${outbox} where status = 'pending' and attempts > 0 limit 1`);
    expect(failed[0].last_error).toMatch(/421|unavailable/i);
    // An hour later the server is back: the retries are due and everything goes out once.
    smtp.refuse(false);
    now = new Date(now.getTime() + 60 * 60_000);
    await drain();
    for (const m of sent) expect(smtp.received.filter((r) => r.raw.includes(m.email))).toHaveLength(1);
    await drain();
    for (const m of sent) expect(smtp.received.filter((r) => r.raw.includes(m.email))).toHaveLength(1);
  });

  it("lets two workers race over one outbox without sending anything twice", async () => {
    const sent = Array.from({ length: 12 }, () => message());
    for (const m of sent) await post("/api/email/contact", m);
    const logger = createLogger("silent");
    const mailer = createMailer({ smtpUrl: smtp.url, from: "museum@example.com", logger });
    const worker = () => createOutboxWorker({ db: db(), logger, now: () => now, batchSize: 3, handlers: { email: (j) => mailer.send(j), mailchimp: async () => undefined, passwordReset: async () => undefined, reminder: async () => undefined, giftDelivery: async () => undefined } });
    const a = worker();
    const b = worker();
    for (let i = 0; i < 10; i++) await Promise.all([a.runOnce(), b.runOnce()]);
    for (const m of sent) expect(smtp.received.filter((r) => r.raw.includes(m.email))).toHaveLength(1);
  });

  it("syncs consenting subscribers to Mailchimp, retrying while it is down", async () => {
    mailchimpUp = false;
    const email = `Sub${++seq}@Example.com`;
    const res = await post("/api/mc/subscribe", { firstName: "Bo", lastName: "Fan", email, audience: "aud123" });
    expect(res.status).toBe(200);
    await drain();
    const calls = () => mailchimp.requests.filter((r) => r.body.includes(email.toLowerCase()));
    expect(calls().length).toBeGreaterThanOrEqual(1);
    mailchimpUp = true;
    now = new Date(now.getTime() + 60 * 60_000);
    await drain();
    const last = calls().at(-1)!;
    expect(last.method).toBe("PUT");
    expect(last.url).toMatch(/^\/3\.0\/lists\/aud123\/members\/[0-9a-f]{32}$/);
    expect(JSON.parse(last.body)).toMatchObject({ email_address: email.toLowerCase(), status_if_new: "subscribed", merge_fields: { FNAME: "Bo", LNAME: "Fan" } });
    const done = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${outbox} where kind = 'mailchimp' and status = 'done' and payload->>'email' = ${email.trim()}`);
    expect(done[0].n).toBe(1);
  });

  it("keeps one subscriber row per email across sign-up, contact and subscribe, case-insensitively", async () => {
    const email = `one${++seq}@example.com`;
    await post("/api/subscribes", { firstName: "Cy", lastName: "Fan", emailAddress: email, subscribe: true });
    await post("/api/subscribes", { firstName: "Cy", lastName: "Fan", emailAddress: email.toUpperCase(), subscribe: true });
    await post("/api/email/contact", message({ email, subscribe: true }));
    await post("/api/mc/subscribe", { firstName: "Cy", lastName: "Fan", email });
    const rows = await db().select().from(subscribers).where(sql`${subscribers.email} = ${email}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].consent).toBe(true);
    expect(rows[0].consentAt).not.toBeNull();
  });

  it("refuses a failed bot check or a filled honeypot with a clear message, storing nothing", async () => {
    const robot = message({ recaptchaToken: "robot" });
    const res = await post("/api/email/contact", robot);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(BOTCHECK_MESSAGES.failed);
    const honey = message({ website: "http://spam.example" });
    const res2 = await post("/api/email/contact", honey);
    expect(res2.status).toBe(400);
    expect((await res2.json()).message).toBe(BOTCHECK_MESSAGES.honeypot);
    const rows = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${contactMessages} where email in (${robot.email}, ${honey.email})`);
    expect(rows[0].n).toBe(0);
  });

  it.each([
    [{ firstName: "" }, VALIDATION.firstNameRequired],
    [{ lastName: "" }, VALIDATION.lastNameRequired],
    [{ email: "x" }, VALIDATION.emailRequired],
    [{ subject: "Free money" }, VALIDATION.subjectRequired],
    [{ message: "   " }, VALIDATION.messageRequired],
    [{ firstName: "Eve\r\nBcc: victim@example.com" }, ["controlCharacters", "First name"]],
    [{ lastName: "Fan\n\nPlease also wire $500 to the museum's new account." }, ["controlCharacters", "Last name"]],
    [{ email: "ada@example.com\r\nBcc: victim@example.com" }, ["controlCharacters", "Email address"]],
    [{ message: "Hello\u0000there" }, ["messageControlCharacters", "Your message"]],
    [{ message: "Broken \ud83d emoji" }, ["brokenCharacters", "Your message"]],
    [{ firstName: "Ada\u202e" }, ["controlCharacters", "First name"]],
    [{ subscribe: "yes please" }, undefined],
  ] as const)("answers contact %j with 400 and a clear message", async (overrides, expected) => {
    const text = typeof expected === "string" || expected === undefined ? expected : TEXT_RULE_MESSAGES[expected[0]](expected[1]);
    const res = await post("/api/email/contact", message(overrides));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.success).toBe(false);
    if (text) expect(body.message).toBe(text);
    else expect(body.message).toBeTruthy();
  });

  it.each([
    ["/api/subscribes", { firstName: "Eve\nBcc", lastName: "Fan", emailAddress: "eve@example.com", subscribe: true }, "controlCharacters", "First name"],
    ["/api/mc/subscribe", { firstName: "Eve", lastName: "Fan\u0085", email: "eve@example.com" }, "controlCharacters", "Last name"],
    ["/api/mc/subscribe", { firstName: "Eve", lastName: "Fan", email: "eve@example.com", audience: "a\rb" }, "controlCharacters", "Audience"],
    ["/api/contact", { firstName: "Eve", lastName: "Fan", email: "eve@example.com", subject: "Question", message: "hi\u001b[31m" }, "messageControlCharacters", "Your message"],
  ] as const)("refuses control characters on %s with 400 and a clear message", async (path, body, rule, field) => {
    const res = await post(path, body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(TEXT_RULE_MESSAGES[rule](field));
  });

  it("quotes the visitor's name and message in the museum's email, so no line of theirs reads as ours", async () => {
    const forged = "Thanks!\n\nPittsburgh Sports Museum & Hall of Fame\nYour ticket was refunded: https://evil.example/claim";
    const m = message({ firstName: "Ada \"Curator\"", message: forged });
    expect((await post("/api/email/contact", m)).status).toBe(200);
    await drain();
    const [mail] = smtp.received.filter((r) => r.raw.includes(m.email));
    const { text, html } = parseRawMessage(Buffer.from(mail.raw, "utf8"));
    // In the HTML part the visitor's lines are a blockquote, and their link is not a link.
    expect(html).toMatch(/<blockquote[^>]*>Thanks!<br>\n<br>\nPittsburgh Sports Museum &amp; Hall of Fame<br>\nYour ticket was refunded: https:\/\/evil\.example\/claim<\/blockquote>/);
    expect(html).not.toContain('href="https://evil.example');
    expect(text).toContain("The visitor's message:");
    expect(text).toContain(`Visitor's name: "Ada 'Curator' Fan"`);
    // Every line the visitor wrote arrives behind "> ", the quoting mark of someone else's words.
    for (const line of forged.split("\n")) expect(text).toContain(line ? `> ${line}` : ">");
    expect(text).not.toMatch(/^Pittsburgh Sports Museum & Hall of Fame$/m);
    expect(text).not.toMatch(/^Your ticket was refunded/m);
  });

  it("answers a 1 MB message with a 4xx, never a 500", async () => {
    const res = await post("/api/email/contact", message({ message: "x".repeat(1_000_000) }));
    expect(res.status).toBe(413);
    const long = await post("/api/email/contact", message({ message: "y".repeat(6000) }));
    expect(long.status).toBe(400);
  });

  it("subscribes through the page form (no JavaScript needed) and records consent", async () => {
    const email = `page${++seq}@example.com`;
    const form = new URLSearchParams({ firstName: "Di", lastName: "Fan", emailAddress: email, subscribe: "on", recaptchaToken: "human", website: "" });
    const res = await fetch(`${server.url}/subscribe`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(SUBSCRIBE_MESSAGES.headline);
    const rows = await db().select().from(subscribers).where(sql`${subscribers.email} = ${email}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ consent: true, source: "subscribe" });
    const refused = await fetch(`${server.url}/subscribe`, { method: "POST", body: new URLSearchParams({ firstName: "Di", lastName: "Fan", emailAddress: `no${email}`, recaptchaToken: "human" }) });
    expect(refused.status).toBe(400);
  });

  it("names the field a control character was refused in, and the page form marks it and keeps what was typed", async () => {
    const api = await post("/api/subscribes", { firstName: "Eve", lastName: "Fan\tBcc", emailAddress: "eve@example.com", subscribe: true });
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ success: false, message: TEXT_RULE_MESSAGES.controlCharacters("Last name"), field: "lastName" });

    const typed = { firstName: "Eve", lastName: "Fan<b>\u0007", emailAddress: "eve@example.com", subscribe: "on", recaptchaToken: "human", website: "" };
    const res = await fetch(`${server.url}/subscribe`, { method: "POST", body: new URLSearchParams(typed) });
    expect(res.status).toBe(400);
    const html = await res.text();
    // The field's own message, in the banner and under the field, not the general failure text.
    expect(html.split(TEXT_RULE_MESSAGES.controlCharacters("Last name")).length - 1).toBeGreaterThanOrEqual(2);
    expect(html).not.toContain("There was an issue subscribing");
    const lastName = html.match(/<input[^>]*name="lastName"[^>]*>/)?.[0] ?? "";
    expect(lastName).toContain('aria-invalid="true"');
    expect(lastName).toContain("autofocus");
    // What was typed comes back, escaped.
    expect(lastName).toContain('value="Fan&lt;b&gt;\u0007"');
    expect(html).not.toContain("Fan<b>");
  });
});
