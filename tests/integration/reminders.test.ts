/**
 * Ticket expiry reminders (decision 017 section 5) on both databases, read from a real
 * SMTP server: 14, 7 and 1 days before the last day and the day after, each once per ticket
 * period whatever the reruns and concurrent instances; none after a renewal (not even one
 * already queued), none to a deleted account, none for a ticket a refund ended or that ended
 * long ago; a text and an HTML part, a renew link that works, and a one-click unsubscribe
 * (List-Unsubscribe) that turns them off, as the account page does. The test moves the site's
 * clock, never waits on the wall clock.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { openDatabase, queryRows, type Database } from "../../server/db/client";
import { outbox, ticketReminders, users } from "../../server/db/schema";
import { createHousekeeping } from "../../server/jobs/housekeeping";
import { createLogger } from "../../server/logger";
import { createReminders } from "../../server/membership/reminders";
import { createMuseumCalendar } from "../../server/membership/museum-calendar";
import { SESSION_COOKIE } from "../../server/accounts/sessions";
import { parseRawMessage, type CapturedMail } from "../e2e/mail-capture";
import { availableDrivers } from "../helpers/databases";
import { createSignedInAccount } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startSmtpSink } from "../mocks/smtp-sink";

const drivers = await availableDrivers();
const PASSWORD = "Steel3rs!";
let seq = 0;

describe.each(drivers)("ticket reminders on %s", (kind) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  /** The site's clock: noon in Pittsburgh on the day set by `onDay`. */
  let clock = new Date("2026-11-23T17:00:00Z");

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer(kind, { SMTP_URL: smtp.url }, { now: () => clock });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const db = (): Database => server.services.database.db;
  const onDay = (date: string) => (clock = new Date(`${date}T17:00:00Z`));
  /** Every email received for `to`, decoded. */
  const mailTo = (to: string): CapturedMail[] =>
    smtp.received.filter((m) => m.to.includes(to)).map((m) => ({ to: m.to.join(", "), ...parseRawMessage(Buffer.from(m.raw, "utf8")) }));
  const remindersTo = (to: string) => mailTo(to).filter((m) => m.subject.startsWith("Your museum ticket"));
  async function deliver() {
    while ((await server.services.outbox.runOnce()) > 0);
  }
  /** One housekeeping run on `date`, then the outbox delivers what it queued. */
  async function runOn(date: string) {
    onDay(date);
    const run = await server.services.housekeeping.runOnce();
    expect(run.ran).toBe(true);
    await deliver();
    return run.ran ? run.counts.reminders : 0;
  }
  async function member(validThrough: string, lastName = "Fan") {
    const firstName = `Rem${++seq}`;
    return { ...(await createSignedInAccount(server.services, { firstName, lastName, validThrough })), name: `${firstName} ${lastName}` };
  }
  const post = (path: string, fields: Record<string, string>, cookie = "") =>
    fetch(`${server.url}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: new URLSearchParams(fields).toString() });
  /** A link of the email, opened on the test server (PUBLIC_URL is the default localhost one). */
  const onServer = (link: string) => `${server.url}${new URL(link).pathname}${new URL(link).search}`;
  async function pay(userId: string, email: string) {
    const r = await server.services.membership.grantTicket({ userId, provider: "test", providerPaymentId: `pi_rem_${++seq}_${kind}`, amountCents: 699, currency: "usd", cardBrand: "visa", cardLast4: "4242", receiptEmail: email });
    expect(r.granted).toBe(true);
    return r.validThrough;
  }

  it("sends 14, 7 and 1 days before the last day and the day after, each once, with a text and an HTML part", async () => {
    const a = await member("2026-12-07", "O'Hara <b>&</b>");
    const publicUrl = server.config.PUBLIC_URL;
    expect(await runOn("2026-11-23")).toBeGreaterThanOrEqual(1);
    await runOn("2026-11-23");
    await runOn("2026-11-24");
    let mails = remindersTo(a.email);
    expect(mails.map((m) => m.subject)).toEqual(["Your museum ticket ends in 14 days"]);
    const [first] = mails;
    expect(first.text).toContain(`    "${a.name}"`);
    expect(first.text).toContain("Your ticket is valid through December 7, 2026: 14 days left.");
    expect(first.text).toContain(`Renew your ticket:\n${publicUrl}/admission/payment`);
    // The HTML part: the same words, escaped, with the links as links.
    expect(first.html).toContain("Your ticket is valid through December 7, 2026: 14 days left.");
    expect(first.html).toContain("O&#39;Hara &lt;b&gt;&amp;&lt;/b&gt;");
    expect(first.html).not.toContain("<b>");
    expect(first.html).toContain(`<a href="${publicUrl}/admission/payment"`);
    // A courtesy unsubscribe, one click (RFC 8058).
    expect(first.listUnsubscribe).toMatch(new RegExp(`^<${publicUrl}/email/unsubscribe\\?token=[^>]+>$`));
    expect(first.listUnsubscribePost).toBe("List-Unsubscribe=One-Click");

    // The renew link opens the payment page, which says the new last day before paying.
    const renew = await fetch(onServer(`${publicUrl}/admission/payment`), { headers: { cookie: await cookieOf(a.userId) } });
    expect(renew.status).toBe(200);
    expect(await renew.text()).toContain("so it will be valid through April 6, 2027.");

    for (const day of ["2026-11-30", "2026-11-30", "2026-12-01", "2026-12-06", "2026-12-07", "2026-12-08", "2026-12-09", "2026-12-20"]) await runOn(day);
    mails = remindersTo(a.email);
    expect(mails.map((m) => m.subject)).toEqual([
      "Your museum ticket ends in 14 days",
      "Your museum ticket ends in 7 days",
      "Your museum ticket ends tomorrow",
      "Your museum ticket has ended",
    ]);
    expect(mails[2].text).toContain("Your ticket is valid through December 7, 2026: 1 day left.");
    expect(mails[3].text).toContain("Your ticket expired on December 7, 2026.");
    expect(mails[3].html).toContain("Your ticket expired on December 7, 2026.");

    // 'Download my data' lists them, and the preference.
    const data = (await (await fetch(`${server.url}/account/data`, { headers: { cookie: await cookieOf(a.userId) } })).json()) as {
      profile: { ticketReminders: boolean };
      ticketRemindersSent: { ticketLastDay: string; daysBefore: number }[];
    };
    expect(data.profile.ticketReminders).toBe(true);
    expect(data.ticketRemindersSent.map((r) => [r.ticketLastDay, r.daysBefore])).toEqual(
      expect.arrayContaining([["2026-12-07", 14], ["2026-12-07", 7], ["2026-12-07", 1], ["2026-12-07", -1]]),
    );
    expect(data.ticketRemindersSent).toHaveLength(4);
  });

  it("queues each reminder once across two instances running at once and a rerun", async () => {
    const accounts = await Promise.all(["2026-12-07", "2026-11-30", "2026-11-24", "2026-11-22"].map((d) => member(d)));
    onDay("2026-11-23");
    const other = kind === "postgres" ? await openDatabase({ databaseUrl: server.database.url, poolSize: 2 }) : server.database.handle;
    try {
      const logger = createLogger("silent");
      const deps = { mailer: { send: async () => undefined }, offsets: [14, 7, 1, -1], calendar: createMuseumCalendar("America/New_York", () => clock), publicUrl: "http://x", secret: "s".repeat(32), ticketDays: 120, priceCents: 699, logger };
      const mine = createReminders({ ...deps, db: db() });
      const theirs = createReminders({ ...deps, db: other.db });
      // Two instances' housekeeping (one gets the lock), and the bare queueing twice at once
      // without the lock: the unique key alone keeps it to one.
      await Promise.all([
        createHousekeeping({ database: server.database.handle, logger, now: () => clock, reminders: mine }).runOnce(),
        createHousekeeping({ database: other, logger, now: () => clock, reminders: theirs }).runOnce(),
        db().transaction((tx) => mine.queueDue(tx as unknown as Database)),
        other.db.transaction((tx) => theirs.queueDue(tx as unknown as Database)),
      ]);
      expect(await server.services.housekeeping.runOnce()).toMatchObject({ ran: true, counts: { reminders: 0 } });
    } finally {
      if (other !== server.database.handle) await other.close();
    }
    const ids = accounts.map((a) => a.userId);
    const rows = await queryRows<{ user_id: string; offset_days: number; jobs: number }>(
      db(),
      sql`select r.user_id, r.offset_days,
                 (select count(*)::int from ${outbox} o where o.kind = 'reminder' and o.payload->>'userId' = r.user_id::text) as jobs
          from ${ticketReminders} r where r.user_id in ${ids} order by r.last_day desc`,
    );
    expect(rows).toEqual([
      { user_id: ids[0], offset_days: 14, jobs: 1 },
      { user_id: ids[1], offset_days: 7, jobs: 1 },
      { user_id: ids[2], offset_days: 1, jobs: 1 },
      { user_id: ids[3], offset_days: -1, jobs: 1 },
    ]);
    await deliver();
    expect(accounts.map((a) => remindersTo(a.email).map((m) => m.subject))).toEqual([
      ["Your museum ticket ends in 14 days"],
      ["Your museum ticket ends in 7 days"],
      ["Your museum ticket ends tomorrow"],
      ["Your museum ticket has ended"],
    ]);
  });

  it("sends none after a renewal, not even one queued before it", async () => {
    const a = await member("2026-12-07");
    await runOn("2026-11-30");
    expect(remindersTo(a.email).map((m) => m.subject)).toEqual(["Your museum ticket ends in 7 days"]);
    // Due on December 6 and queued, then the member renews before the outbox sends it.
    onDay("2026-12-06");
    await server.services.housekeeping.runOnce();
    expect(await queuedFor(a.userId)).toEqual([7, 1]);
    expect(await pay(a.userId, a.email)).toBe("2027-04-06");
    await deliver();
    for (const day of ["2026-12-07", "2026-12-08"]) await runOn(day);
    expect(remindersTo(a.email).map((m) => m.subject)).toEqual(["Your museum ticket ends in 7 days"]);
    expect(mailTo(a.email).map((m) => m.subject)).toContain("Your Pittsburgh Sports Museum ticket receipt");
    // The new period has reminders of its own.
    await runOn("2027-03-23");
    expect(remindersTo(a.email).map((m) => m.subject)).toEqual(["Your museum ticket ends in 7 days", "Your museum ticket ends in 14 days"]);
  });

  it("sends none to a deleted account, whether queued before the deletion or not", async () => {
    const signUp = async (email: string) => {
      const res = await fetch(`${server.url}/api/users/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ firstName: "Del", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true, emailOptIn: false }),
      });
      expect(res.status).toBe(201);
      const [row] = await db().update(users).set({ validThrough: "2026-12-14" }).where(eq(users.email, email)).returning({ id: users.id });
      return row.id;
    };
    const queued = await signUp(`del-queued-${kind}@example.com`);
    const before = await signUp(`del-before-${kind}@example.com`);
    expect(await server.services.accountLifecycle.deleteAccount(before, PASSWORD)).toBe("deleted");
    onDay("2026-12-07");
    await server.services.housekeeping.runOnce();
    expect(await queuedFor(queued)).toEqual([7]);
    expect(await server.services.accountLifecycle.deleteAccount(queued, PASSWORD)).toBe("deleted");
    await deliver();
    await runOn("2026-12-13");
    expect(mailTo(`del-queued-${kind}@example.com`)).toEqual([]);
    expect(mailTo(`del-before-${kind}@example.com`)).toEqual([]);
    expect(await queryRows(db(), sql`select 1 from ${ticketReminders} where user_id in (${queued}, ${before})`)).toEqual([]);
  });

  it("sends none for a ticket a refund ended, nor for one that ended long ago", async () => {
    onDay("2027-01-10");
    const refunded = await member("2027-01-01");
    await db().update(users).set({ validThrough: null }).where(eq(users.id, refunded.userId));
    const paymentEnd = await pay(refunded.userId, refunded.email);
    expect(paymentEnd).toBe("2027-05-10");
    const [payment] = await queryRows<{ provider_payment_id: string }>(db(), sql`select provider_payment_id from payments where user_id = ${refunded.userId}`);
    expect(await server.services.membership.revokeTicket(payment.provider_payment_id)).toBe(true);
    const endedLongAgo = await member("2027-01-02");
    // The same last day as the refunded ticket, but paid for: the late 1-day reminder goes out.
    const control = await member("2027-01-10");
    for (const day of ["2027-01-10", "2027-01-11"]) await runOn(day);
    expect(remindersTo(refunded.email)).toEqual([]);
    expect(remindersTo(endedLongAgo.email)).toEqual([]);
    expect(remindersTo(control.email).map((m) => m.subject)).toEqual(["Your museum ticket ends today", "Your museum ticket has ended"]);
  });

  it("stops with the email's one-click unsubscribe; the link's page asks first; a forged token is refused", async () => {
    const a = await member("2027-02-14");
    await runOn("2027-01-31");
    const [mail] = remindersTo(a.email);
    const link = onServer(/^<(.+)>$/.exec(mail.listUnsubscribe ?? "")![1]);
    expect(mail.text).toContain(`To stop ticket reminders, open this link:\n${/^<(.+)>$/.exec(mail.listUnsubscribe ?? "")![1]}`);

    // Opening the link changes nothing: the page asks, with a button.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(ACCOUNT_MESSAGES.unsubscribeConfirm);
    expect(html).toContain("Stop ticket reminders</button>");
    expect(await server.services.reminders.remindersOn(a.userId)).toBe(true);

    // The mail provider's one-click POST (RFC 8058): from its servers, without a cookie.
    const res = await fetch(link, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.unsubscribed);
    expect(await server.services.reminders.remindersOn(a.userId)).toBe(false);
    for (const day of ["2027-02-07", "2027-02-13", "2027-02-15"]) await runOn(day);
    expect(remindersTo(a.email)).toHaveLength(1);

    // The account page says so.
    const account = await (await fetch(`${server.url}/account`, { headers: { cookie: await cookieOf(a.userId) } })).text();
    expect(account).toContain(ACCOUNT_MESSAGES.remindersOff);

    // A token changed by one character, another account's id with this signature, or none: 404.
    const token = new URL(link).searchParams.get("token")!;
    const other = await member("2027-02-14");
    const forged = [token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), `${other.userId}.${token.split(".")[1]}`, "", "x".repeat(500)];
    for (const t of forged) {
      const r = await post(`/email/unsubscribe?token=${encodeURIComponent(t)}`, { "List-Unsubscribe": "One-Click" });
      expect(r.status).toBe(404);
      expect(await r.text()).toContain(ACCOUNT_MESSAGES.unsubscribeLinkInvalid);
      expect((await fetch(`${server.url}/email/unsubscribe?token=${encodeURIComponent(t)}`)).status).toBe(404);
    }
    expect(await server.services.reminders.remindersOn(other.userId)).toBe(true);
  });

  it("takes the one-click POST as multipart/form-data too, the encoding RFC 8058 asks mail providers to use", async () => {
    const a = await member("2027-02-14");
    await runOn("2027-01-31");
    const link = onServer(/^<(.+)>$/.exec(remindersTo(a.email)[0].listUnsubscribe ?? "")![1]);
    const body = new FormData();
    body.append("List-Unsubscribe", "One-Click");
    const res = await fetch(link, { method: "POST", body });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.unsubscribed);
    expect(await server.services.reminders.remindersOn(a.userId)).toBe(false);
    // Still a small body: anything larger is refused before it is read.
    const big = new FormData();
    big.append("List-Unsubscribe", "x".repeat(100_000));
    expect((await fetch(link, { method: "POST", body: big })).status).toBe(413);
  });

  it("answers a post that carries the token in its body only with the page that says it is done; the link opened again says so too", async () => {
    const a = await member("2027-02-14");
    await runOn("2027-01-31");
    const link = onServer(/^<(.+)>$/.exec(remindersTo(a.email)[0].listUnsubscribe ?? "")![1]);
    const token = new URL(link).searchParams.get("token")!;

    const res = await post("/email/unsubscribe", { token });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/email/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(await server.services.reminders.remindersOn(a.userId)).toBe(false);

    const again = await fetch(link);
    expect(again.status).toBe(200);
    const html = await again.text();
    expect(html).toContain(ACCOUNT_MESSAGES.unsubscribed);
    expect(html).not.toContain("Stop ticket reminders</button>");
  });

  it("turns reminders off and on from the account page", async () => {
    onDay("2027-02-20");
    const a = await member("2027-03-14");
    const cookie = a.cookie;
    let page = await (await fetch(`${server.url}/account`, { headers: { cookie } })).text();
    expect(page).toContain(ACCOUNT_MESSAGES.remindersOn([14, 7, 1, -1]));
    expect(page).toContain("We remind you by email 14, 7 and 1 days before your ticket ends and the day after it ended.");
    expect(page).toContain("Turn ticket reminders off</button>");

    const off = await post("/account/reminders", { reminders: "off" }, cookie);
    expect(off.status).toBe(302);
    expect(off.headers.get("location")).toBe("/account?changed=reminders");
    page = await (await fetch(`${server.url}/account?changed=reminders`, { headers: { cookie } })).text();
    expect(page).toContain(ACCOUNT_MESSAGES.remindersTurnedOff);
    expect(page).toContain(ACCOUNT_MESSAGES.remindersOff);
    await runOn("2027-02-28");
    expect(remindersTo(a.email)).toEqual([]);

    const bad = await post("/account/reminders", { reminders: "maybe" }, cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(ACCOUNT_MESSAGES.remindersChoice);
    expect((await post("/account/reminders", { reminders: "on" })).status).toBe(302); // signed out: to the login page
    expect(await server.services.reminders.remindersOn(a.userId)).toBe(false);

    expect((await post("/account/reminders", { reminders: "on" }, cookie)).status).toBe(302);
    page = await (await fetch(`${server.url}/account?changed=reminders`, { headers: { cookie } })).text();
    expect(page).toContain(ACCOUNT_MESSAGES.remindersTurnedOn);
    await runOn("2027-03-07");
    expect(remindersTo(a.email).map((m) => m.subject)).toEqual(["Your museum ticket ends in 7 days"]);
  });

  it("sends every other email with a text and an HTML part too, and no unsubscribe header on a receipt", async () => {
    const a = await member("2027-01-01", "Smith & <i>Sons</i>");
    onDay("2027-04-01");
    await pay(a.userId, a.email);
    await deliver();
    const receipt = mailTo(a.email).find((m) => m.subject === "Your Pittsburgh Sports Museum ticket receipt")!;
    expect(receipt.text).toContain("Smith & <i>Sons</i>");
    expect(receipt.html).toContain("Smith &amp; &lt;i&gt;Sons&lt;/i&gt;");
    expect(receipt.html).toContain("Your access is valid through 2027-07-30.");
    expect(receipt.listUnsubscribe).toBeUndefined();
  });

  /** The reminders queued for the account's ticket periods (offsets, earliest first). */
  async function queuedFor(userId: string) {
    const rows = await db().select({ d: ticketReminders.offsetDays }).from(ticketReminders).where(eq(ticketReminders.userId, userId));
    return rows.map((r) => r.d).sort((x, y) => y - x);
  }

  /** A new session of the account, on the site's clock of now. */
  async function cookieOf(userId: string) {
    return `${SESSION_COOKIE}=${(await server.services.sessions.create(userId)).token}`;
  }
});
