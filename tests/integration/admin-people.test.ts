/**
 * People, messages and subscribers in the console, on both databases: member search and ticket
 * filters, complimentary tickets, refunds that take back exactly the days a payment gave (the
 * member loses access), password reset links, CSV exports streamed with the filter's rows and
 * formulas neutralized (behind a fresh password), the contact inbox with replies through the
 * outbox, and subscribers' sync states, retry and unsubscribe. Every change has its audit row.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, contactMessages, exhibits, outbox, payments, subscribers, users } from "../../server/db/schema";
import { createPhotoTestExhibit, createStaffAccount, STAFF_PASSWORD, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { museumToday } from "../helpers/fixtures";
import { addDays } from "~/shared/calendar";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

describe.each(drivers)("people in the console on %s", (kind) => {
  let server: TestServer;
  let admin: StaffAccount;
  let curator: StaffAccount;
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const today = () => museumToday(now());
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const post = (cookie: string, p: string, fields: Record<string, string>) =>
    call(cookie, p, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
  const db = () => server.services.database.db;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { now });
    admin = await createStaffAccount(server.services, "admin");
    curator = await createStaffAccount(server.services, "curator");
  }, 120_000);
  afterAll(() => server?.close());

  /** A member who bought one ticket through the site's own payment use case (test mode). */
  async function payingMember(firstName: string, lastName = "Fan") {
    const account = await createStaffAccount(server.services, "member", { firstName });
    await db().update(users).set({ lastName, email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@fans.example` }).where(eq(users.id, account.userId));
    const paid = await server.services.payments.pay({ userId: account.userId, paymentMethodId: "pm_card_visa", receiptEmail: "r@fans.example", idempotencyKey: `k-${account.userId}` });
    expect(paid.status).toBe("succeeded");
    return account;
  }

  it("finds members by name or email and filters by ticket state", async () => {
    const ada = await payingMember("Adalyn", "Keystone");
    const expired = await createStaffAccount(server.services, "member", { firstName: "Expiro", validThrough: "2020-01-01" });
    const unpaid = await createStaffAccount(server.services, "member", { firstName: "Nopay" });
    const byName = await (await call(admin.cookie, "/admin/members?q=adal")).text();
    expect(byName).toContain("Keystone, Adalyn");
    expect(await (await call(admin.cookie, "/admin/members?q=adalyn%20key")).text()).toContain("Keystone, Adalyn");
    expect(await (await call(admin.cookie, "/admin/members?q=adalyn.keystone%40")).text()).toContain("Keystone, Adalyn");
    const valid = await (await call(admin.cookie, "/admin/members?state=valid")).text();
    expect(valid).toContain("Adalyn");
    expect(valid).not.toContain("Expiro");
    const list = await server.services.admin.members.list({ state: "expired", page: 1, pageSize: 50 });
    expect(list.rows.map((r) => r.id)).toContain(expired.userId);
    expect(list.rows.map((r) => r.id)).not.toContain(unpaid.userId);
    expect((await server.services.admin.members.list({ state: "unpaid", page: 1, pageSize: 50 })).rows.map((r) => r.id)).toContain(unpaid.userId);
    const detail = await (await call(admin.cookie, `/admin/members/${ada.userId}`)).text();
    expect(detail).toContain("Payments");
    expect(detail).toContain("Refund");
  });

  it("refunds a payment after asking for the password again: exactly its days go and the member loses access", async () => {
    // The museum's day when the ticket was bought (the test may run across its midnight).
    const boughtOn = today();
    const member = await payingMember("Refundo");
    const [payment] = await db().select().from(payments).where(eq(payments.userId, member.userId));
    const before = await (await call(member.cookie, `/api/exhibits/`)).json();
    expect(Array.isArray(before)).toBe(true);
    // The admin's password was entered at sign-in more than 10 minutes ago.
    offsetMs += 11 * 60_000;
    admin = await keepAlive(admin);
    // A refund without its box ticked changes nothing.
    const unticked = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "refund", paymentId: payment.id });
    expect(unticked.status).toBe(400);
    expect(await unticked.text()).toContain("Tick the box to confirm the refund; nothing was changed.");
    const [untouched] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(untouched.status).not.toBe("refunded");
    const asked = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "refund", paymentId: payment.id, confirm: "yes" });
    expect(asked.status).toBe(302);
    // The password check says nothing was refunded yet and comes back to this very refund.
    const resumeAt = `/admin/members/${member.userId}?resume=refund&id=${payment.id}`;
    expect(asked.headers.get("location")).toBe(`/admin/confirm-password?redirectTo=${encodeURIComponent(resumeAt)}`);
    expect(await (await call(admin.cookie, asked.headers.get("location")!)).text()).toContain("Nothing has been refunded yet.");
    const confirmed = await post(admin.cookie, "/admin/confirm-password", { password: STAFF_PASSWORD, redirectTo: resumeAt });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(resumeAt);
    const resumed = await (await call(admin.cookie, resumeAt)).text();
    expect(resumed).toContain("Password confirmed. Nothing has been refunded yet: confirm the refund below to finish it.");
    expect(resumed).toMatch(/<details open="">/);
    const [stillPaid] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(stillPaid.status).toBe("succeeded");
    const refunded = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "refund", paymentId: payment.id, confirm: "yes" });
    expect(refunded.status).toBe(200);
    const [after] = await db().select().from(users).where(eq(users.id, member.userId));
    // The ticket started today: the refund ends it at once (yesterday), as Stripe's webhook does (decision 023).
    // (The day before it started: the museum's day then, or now if midnight came between.)
    expect([addDays(boughtOn, -1), addDays(today(), -1)]).toContain(after.validThrough);
    const [paymentAfter] = await db().select().from(payments).where(eq(payments.id, payment.id));
    expect(paymentAfter.status).toBe("refunded");
    // The member's next request sees no member content.
    const viewer = await server.services.sessions.viewerFor(decodeURIComponent(member.cookie.split("=")[1]));
    expect(viewer?.member).toBe(false);
    // Once only.
    const again = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "refund", paymentId: payment.id, confirm: "yes" });
    expect(again.status).toBe(400);
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, payment.id), eq(auditLog.action, "payment.refund")));
    expect(entry.actorEmail).toBe(admin.email);
  });

  it("a refund of a renewal takes back only its own days", async () => {
    const member = await payingMember("Renewa");
    await server.services.payments.pay({ userId: member.userId, paymentMethodId: "pm_card_visa", receiptEmail: "r@fans.example", idempotencyKey: `k2-${member.userId}` });
    const rows = await db().select().from(payments).where(eq(payments.userId, member.userId));
    const [u] = await db().select().from(users).where(eq(users.id, member.userId));
    const second = rows.find((p) => p.validThroughAfter === u.validThrough)!;
    const done = await server.services.admin.members.refund({ userId: admin.userId, email: admin.email }, second.id);
    expect(done.ok).toBe(true);
    const [after] = await db().select().from(users).where(eq(users.id, member.userId));
    expect(after.validThrough).toBe(rows.find((p) => p.id !== second.id)!.validThroughAfter);
  });

  it("grants a complimentary ticket with a reason, audited; sends a password reset link through the outbox", async () => {
    const member = await createStaffAccount(server.services, "member", { firstName: "Compy" });
    const granted = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "complimentary", days: "30", reason: "Donated a 1979 jersey" });
    expect(granted.status).toBe(200);
    const [after] = await db().select().from(users).where(eq(users.id, member.userId));
    expect(after.validThrough! >= today()).toBe(true);
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, member.userId), eq(auditLog.action, "member.complimentary")));
    expect(entry.summary).toContain("Donated a 1979 jersey");
    const missingReason = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "complimentary", days: "30", reason: "" });
    expect(missingReason.status).toBe(400);

    const reset = await post(admin.cookie, `/admin/members/${member.userId}`, { intent: "reset" });
    expect(reset.status).toBe(200);
    const jobs = await db().select().from(outbox).where(eq(outbox.kind, "password-reset"));
    expect(jobs.map((j) => (j.payload as { email: string }).email)).toContain(member.email.toLowerCase());
  });

  it("exports the filtered members as CSV, streamed, formulas neutralized, behind a fresh password", async () => {
    const evil = await createStaffAccount(server.services, "member", { firstName: "=HYPERLINK(\"http://evil\")", validThrough: "2099-01-01" });
    // 9:30 p.m. in Pittsburgh on November 25 (already the 26th in UTC): the console says the 25th.
    await db().update(users).set({ createdAt: new Date("2026-11-26T02:30:00Z") }).where(eq(users.id, evil.userId));
    expect(await (await call(admin.cookie, `/admin/members/${evil.userId}`)).text()).toMatch(/Joined<\/dt><dd[^>]*>2026-11-25</);
    offsetMs += 11 * 60_000;
    admin = await keepAlive(admin);
    const asked = await call(admin.cookie, "/admin/members/export?state=valid");
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toContain("/admin/confirm-password?redirectTo=");
    await post(admin.cookie, "/admin/confirm-password", { password: STAFF_PASSWORD, redirectTo: "/admin/members/export?state=valid" });
    const csv = await call(admin.cookie, "/admin/members/export?state=valid");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = (await csv.text()).replace(/^\ufeff/, "");
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("email,first_name,last_name,ticket,valid_through,joined,email_opt_in");
    const expected = await server.services.admin.members.list({ state: "valid", page: 1, pageSize: 10_000 });
    expect(lines.length - 1).toBe(expected.total);
    expect(lines.every((l, i) => i === 0 || l.includes(",valid,"))).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(lines.find((l) => l.startsWith(evil.email))).toContain(",2099-01-01,2026-11-25,");
    // A curator gets no export of personal data.
    expect((await call(curator.cookie, "/admin/members/export")).status).toBe(404);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "export"), eq(auditLog.entityType, "member")));
    expect(audit.actorEmail).toBe(admin.email);
  });

  it("the contact inbox: messages by status and subject, replies by email kept with the message", async () => {
    const { id } = await server.services.contact.submit(
      { firstName: "Vera", lastName: "Visitor", email: "vera@example.com", subject: "Question", message: "When are you open?", subscribe: false } as never,
      { email: false, subscription: false },
    );
    const list = await (await call(curator.cookie, "/admin/messages?status=new&subject=Question")).text();
    expect(list).toContain(`/admin/messages/${id}`);
    const replied = await post(curator.cookie, `/admin/messages/${id}`, { intent: "reply", body: "Every day from 10 to 5." });
    expect(replied.status).toBe(200);
    const [message] = await db().select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(message.status).toBe("answered");
    const mails = await db().select().from(outbox).where(eq(outbox.kind, "email"));
    const reply = mails.map((m) => m.payload as { to: string; subject: string; text: string }).find((p) => p.to === "vera@example.com")!;
    expect(reply.subject).toBe("Re: Question");
    expect(reply.text).toContain("Every day from 10 to 5.");
    expect(await (await call(curator.cookie, `/admin/messages/${id}`)).text()).toContain("Every day from 10 to 5.");
    expect((await post(curator.cookie, `/admin/messages/${id}`, { intent: "status", status: "archived" })).status).toBe(200);
    const actions = (await db().select().from(auditLog).where(eq(auditLog.entityId, id))).map((a) => a.action).sort();
    expect(actions).toEqual(["message.reply", "message.status"]);
  });

  it("the Overview says what needs doing: unanswered messages, failed mail, the last 7 days' payments and refunds", async () => {
    await server.services.contact.submit(
      { firstName: "Olga", lastName: "Overview", email: "olga@example.com", subject: "Question", message: "Is the museum open on Monday?", subscribe: false } as never,
      { email: false, subscription: false },
    );
    await db().insert(outbox).values({ kind: "email", payload: { to: "bounce@example.com", subject: "Overview probe", text: "x" }, status: "dead", lastError: "550 mailbox unavailable" });
    // React writes <!-- --> between adjacent texts; the page reads without them.
    const page = (await (await call(admin.cookie, "/admin")).text()).replaceAll("<!-- -->", "");
    const unanswered = (await db().select().from(contactMessages).where(eq(contactMessages.status, "new"))).length;
    expect(page).toMatch(new RegExp(`href="/admin/messages\\?status=new"[^>]*>${unanswered} unanswered messages?</a>`));
    const dead = (await db().select().from(outbox).where(eq(outbox.status, "dead"))).filter((r) => r.kind !== "mailchimp").length;
    expect(page).toContain(`${dead} email${dead === 1 ? "" : "s"} failed to send`);
    expect(page).toContain("email to bounce@example.com · “Overview probe” · 550 mailbox unavailable");
    const all = await db().select().from(payments);
    const paid = all.length;
    const refunds = all.filter((p) => p.status === "refunded").length;
    expect(page).toMatch(new RegExp(`Last 7 days:.*${paid} payments? \\(\\$[0-9.]+\\), ${refunds} refunds? \\(\\$[0-9.]+\\)`, "s"));
    // Drafts and scheduled records of the collection, with links to them.
    const actor = { userId: admin.userId, email: admin.email };
    await server.services.admin.collection.teams.save(actor, null, { name: "Overview Owls", league: "Test", logo: "logos/owls.svg", headline: "h", description: "d", sortOrder: 99 });
    await server.services.admin.collection.categories.save(actor, null, { categoryName: "Overview Things", sortOrder: 99 });
    await createPhotoTestExhibit(server.services, admin, "Overview Draft", 1990);
    await createPhotoTestExhibit(server.services, admin, "Overview Scheduled", 1991);
    const [draft, scheduled] = await db().select({ id: exhibits.id }).from(exhibits).orderBy(asc(exhibits.title)).limit(2);
    await db().update(exhibits).set({ publishAt: null }).where(eq(exhibits.id, draft.id));
    await db().update(exhibits).set({ publishAt: new Date(Date.now() + 86_400_000) }).where(eq(exhibits.id, scheduled.id));
    const withDrafts = (await (await call(admin.cookie, "/admin")).text()).replaceAll("<!-- -->", "");
    expect(withDrafts).toMatch(/href="\/admin\/exhibits\?state=draft"[^>]*>1 draft exhibit<\/a>/);
    expect(withDrafts).toMatch(/href="\/admin\/exhibits\?state=scheduled"[^>]*>1 scheduled exhibit<\/a>/);
    const draftList = await (await call(admin.cookie, "/admin/exhibits?state=draft")).text();
    expect(draftList).toContain(`/admin/exhibits/${draft.id}"`);
    expect(draftList).not.toContain(`/admin/exhibits/${scheduled.id}"`);
    await db().update(exhibits).set({ publishAt: new Date(0) }).where(inArray(exhibits.id, [draft.id, scheduled.id]));
    // A curator sees the messages, not the personal data of payments and mail.
    const curatorPage = await (await call(curator.cookie, "/admin")).text();
    expect(curatorPage).toContain("unanswered message");
    expect(curatorPage).not.toContain("Last 7 days");
    expect(curatorPage).not.toContain("bounce@example.com");
  });

  it("subscribers: sync state with the reason, retry, unsubscribe, CSV; admins only", async () => {
    await server.services.newsletter.subscribe({ email: "sub.one@example.com", firstName: "Sub", lastName: "One", consent: true });
    const [job] = await db().select().from(outbox).where(and(eq(outbox.kind, "mailchimp")));
    await db().update(outbox).set({ status: "dead", lastError: "Mailchimp answered 400: Invalid Resource" }).where(eq(outbox.id, job.id));
    const page = await (await call(admin.cookie, "/admin/subscribers?q=sub.one")).text();
    expect(page).toContain("failed: Mailchimp answered 400: Invalid Resource");
    // Without Mailchimp configured (the test server's case) a delivered job kept the address locally: never "synced".
    await server.services.newsletter.subscribe({ email: "sub.local@example.com", firstName: "Sub", lastName: "Local", consent: true });
    await db().update(outbox).set({ status: "done" }).where(and(eq(outbox.kind, "mailchimp"), eq(outbox.status, "pending")));
    const local = await (await call(admin.cookie, "/admin/subscribers?q=sub.local")).text();
    expect(local).toContain("kept locally");
    expect(local).toContain("Mailchimp is not configured: subscribers are kept locally");
    expect(local).not.toContain(">synced<");
    const [sub] = await db().select().from(subscribers).where(eq(subscribers.email, "sub.one@example.com"));
    expect((await post(admin.cookie, "/admin/subscribers", { intent: "retry", id: sub.id })).status).toBe(200);
    const [retried] = await db().select().from(outbox).where(eq(outbox.id, job.id));
    expect(["pending", "done"]).toContain(retried.status);
    expect((await post(admin.cookie, "/admin/subscribers", { intent: "unsubscribe", id: sub.id })).status).toBe(200);
    const [after] = await db().select().from(subscribers).where(eq(subscribers.id, sub.id));
    expect(after.consent).toBe(false);
    const removals = (await db().select().from(outbox).where(eq(outbox.kind, "mailchimp"))).map((j) => j.payload as { email: string; unsubscribe?: boolean });
    expect(removals).toContainEqual(expect.objectContaining({ email: "sub.one@example.com", unsubscribe: true }));
    expect((await call(curator.cookie, "/admin/subscribers")).status).toBe(404);
    await post(admin.cookie, "/admin/confirm-password", { password: STAFF_PASSWORD, redirectTo: "/admin/subscribers" });
    const csv = await (await call(admin.cookie, "/admin/subscribers/export?q=sub.one")).text();
    expect(csv).toContain("sub.one@example.com,Sub,One,unsubscribed");
  });

  /** A fresh session for a staff account (the clock jumps past 30 minutes idle in these tests). */
  async function keepAlive(account: StaffAccount): Promise<StaffAccount> {
    const { token } = await server.services.sessions.create(account.userId);
    // A new session counts as a fresh sign-in: move its password time back past the 10 minutes.
    await server.services.database.db.execute(
      (await import("drizzle-orm")).sql`update sessions set password_at = password_at - interval '11 minutes' where user_id = ${account.userId}`,
    );
    return { ...account, cookie: `museum_session=${token}` };
  }
});
