/**
 * Staff and members, on both databases: inviting a member's address sends
 * an invitation she must accept (she is not staff until then, and stays under Members with her
 * payment); accepting, signed in or with her password, grants the role; deactivating asks first,
 * then closes only the console: her member login, member content and ticket keep working. A new
 * address is invited as before.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, outbox, payments, users } from "../../server/db/schema";
import { signUpSchema } from "~/shared/account-schemas";
import { SERVER_MESSAGES } from "~/shared/messages";
import { STAFF_MESSAGES } from "~/shared/staff-messages";
import { createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { form, startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const PASSWORD = "Member-pass-2024";


describe.each(drivers)("staff and members on %s", (kind) => {
  let server: TestServer;
  let admin: StaffAccount;
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");
  const cookieFrom = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("museum_session="))!.split(";")[0];
  const db = () => server.services.database.db;
  const userOf = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0];

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await createStaffAccount(server.services, "admin");
  }, 120_000);
  afterAll(() => server?.close());

  /** A member who signed up on the site and bought a ticket (test mode); returns her address. */
  async function payingMember(firstName: string): Promise<{ email: string; userId: string }> {
    const email = `${firstName.toLowerCase()}.${Date.now().toString(36)}@fans.example`;
    const signed = await server.services.accounts.signUp(
      signUpSchema.parse({ firstName, lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, emailOptIn: false, termsAndConditions: true }),
    );
    if (!signed.ok) throw new Error("sign-up refused");
    const { id: userId } = await userOf(email);
    const paid = await server.services.payments.pay({ userId, paymentMethodId: "pm_card_visa", receiptEmail: email, idempotencyKey: `k-${userId}` });
    expect(paid.status).toBe("succeeded");
    return { email, userId };
  }

  /** Signs in on the site's login form; returns the answer and the new session's cookie. */
  async function login(email: string, password = PASSWORD) {
    const answer = await call(undefined, "/login", form({ emailAddress: email, password }));
    return { answer, cookie: cookieFrom(answer) };
  }

  async function invitationToken(to: string): Promise<string> {
    const mails = (await db().select().from(outbox).where(eq(outbox.kind, "email"))).map((r) => r.payload as { to: string; text: string }).filter((m) => m.to === to);
    const last = mails[mails.length - 1];
    return /\/staff\/invitation\?token=([A-Za-z0-9_-]+)/.exec(last.text)![1];
  }

  async function invite(email: string, role = "curator") {
    return call(admin.cookie, "/admin/staff", form({ intent: "invite", email, firstName: "Ignored", lastName: "Name", role }));
  }

  it("inviting a member's address says so and sends an invitation: she is not staff until she accepts, and stays under Members with her payment", async () => {
    const member = await payingMember("Paula");
    const before = await userOf(member.email);
    const invited = await invite(member.email);
    expect(invited.status).toBe(200);
    expect(await text(invited)).toContain(STAFF_MESSAGES.memberInvited(member.email));

    const after = await userOf(member.email);
    expect(after.role).toBe("member");
    expect(after.validThrough).toBe(before.validThrough);
    expect(after.firstName).toBe("Paula");
    // Her own password signs her in as the member she is; the console does not open.
    const { answer, cookie } = await login(member.email);
    expect(answer.status).toBe(200);
    expect(await text(answer)).toContain(SERVER_MESSAGES.loginSuccess("Paula"));
    expect((await call(cookie, "/admin")).status).toBe(404);
    // Still under Members (list, search, detail with the payment to refund).
    expect(await text(await call(admin.cookie, `/admin/members?q=${encodeURIComponent(member.email)}`))).toContain("Fan, Paula");
    const detail = await text(await call(admin.cookie, `/admin/members/${member.userId}`));
    expect(detail).toContain('data-testid="payment"');
    expect(detail).toContain("Refund");
    // The staff page lists the invitation as pending, offered, not held.
    const staffPage = await text(await call(admin.cookie, "/admin/staff"));
    expect(staffPage).toContain(member.email);
    expect(staffPage).toContain("Invitation pending: a member account, not on the staff until accepted");
    // The email's link is the invitation page's, not a password reset.
    expect(await invitationToken(member.email)).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it("accepting the invitation, signed in as her, grants the role; she is still found under Members; the link works once", async () => {
    const member = await payingMember("Carla");
    await invite(member.email, "curator");
    const token = await invitationToken(member.email);
    const { cookie } = await login(member.email);

    // Another account's session is refused; so is a made-up token.
    const other = await payingMember("Otto");
    const { cookie: otherCookie } = await login(other.email);
    expect((await call(otherCookie, `/staff/invitation?token=${token}`)).status).toBe(403);
    expect((await call(otherCookie, `/staff/invitation?token=${token}`, form({ token }))).status).toBe(403);
    expect((await call(cookie, `/staff/invitation?token=${"x".repeat(43)}`)).status).toBe(410);

    const page = await call(cookie, `/staff/invitation?token=${token}`);
    expect(page.status).toBe(200);
    const html = await text(page);
    expect(html).toContain(STAFF_MESSAGES.acceptQuestion("curator"));
    // Opening the link grants nothing.
    expect((await userOf(member.email)).role).toBe("member");

    const accepted = await call(cookie, `/staff/invitation?token=${token}`, form({ token }));
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/staff/invitation?accepted");
    expect(await text(await call(cookie, "/staff/invitation?accepted"))).toContain(STAFF_MESSAGES.accepted("curator"));
    const after = await userOf(member.email);
    expect(after.role).toBe("curator");
    expect(after.memberAccount).toBe(true);
    expect((await call(cookie, "/admin")).status).toBe(200);
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, member.userId), eq(auditLog.action, "staff.accept")));
    expect(entry.actorEmail).toBe(member.email);

    // A staff member who is also a member stays under Members, with her payment.
    expect(await text(await call(admin.cookie, `/admin/members?q=${encodeURIComponent(member.email)}`))).toContain("Fan, Carla");
    const detail = await text(await call(admin.cookie, `/admin/members/${member.userId}`));
    expect(detail).toContain('data-testid="payment"');
    expect(detail).toContain("also on the staff as curator");
    // Once only.
    expect((await call(cookie, `/staff/invitation?token=${token}`, form({ token }))).status).toBe(410);
  });

  it("signed out, her password on the invitation page signs her in and accepts; a wrong one grants nothing", async () => {
    const member = await payingMember("Sina");
    await invite(member.email, "admin");
    const token = await invitationToken(member.email);
    const page = await text(await call(undefined, `/staff/invitation?token=${token}`));
    expect(page).toContain(STAFF_MESSAGES.acceptSignIn(member.email));
    const wrong = await call(undefined, `/staff/invitation?token=${token}`, form({ token, password: "not-her-password" }));
    expect(wrong.status).toBe(401);
    expect((await userOf(member.email)).role).toBe("member");
    const accepted = await call(undefined, `/staff/invitation?token=${token}`, form({ token, password: PASSWORD }));
    expect(accepted.status).toBe(302);
    expect((await userOf(member.email)).role).toBe("admin");
    expect((await call(cookieFrom(accepted), "/admin/staff")).status).toBe(200);
  });

  it("deactivating asks first, then closes only the console: her member login, member content and ticket keep working", async () => {
    const member = await payingMember("Dora");
    await invite(member.email);
    const { cookie } = await login(member.email);
    const token = await invitationToken(member.email);
    expect((await call(cookie, `/staff/invitation?token=${token}`, form({ token }))).status).toBe(302);
    expect((await call(cookie, "/admin")).status).toBe(200);
    const ticket = (await userOf(member.email)).validThrough;

    // The first press asks; nothing changes yet.
    const asked = await call(admin.cookie, "/admin/staff", form({ intent: "deactivate", userId: member.userId }));
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe(`/admin/staff?deactivate=${member.userId}`);
    expect((await userOf(member.email)).deactivatedAt).toBeNull();
    const question = await text(await call(admin.cookie, asked.headers.get("location")!));
    expect(question).toContain(STAFF_MESSAGES.deactivateQuestion(member.email));
    expect(question).toContain('name="confirm" value="yes"');

    const done = await call(admin.cookie, "/admin/staff", form({ intent: "deactivate", userId: member.userId, confirm: "yes" }));
    expect(done.status).toBe(200);
    expect(await text(done)).toContain(STAFF_MESSAGES.deactivatedMember(member.email));

    // Her session is a member's again: no console, member content still hers.
    expect((await call(cookie, "/admin")).status).toBe(404);
    const exhibits = await call(cookie, "/api/exhibits/");
    expect(exhibits.status).toBe(200);
    expect(Array.isArray(await exhibits.json())).toBe(true);
    // A new sign-in is a member's: the welcome, not a bounce to an empty login page.
    const again = await login(member.email);
    expect(again.answer.status).toBe(200);
    expect(await text(again.answer)).toContain(SERVER_MESSAGES.loginSuccess("Dora"));
    expect((await call(again.cookie, "/admin")).status).toBe(404);
    const account = await call(again.cookie, "/account");
    expect(account.status).toBe(200);
    // Ticket and payment untouched, still under Members.
    expect((await userOf(member.email)).validThrough).toBe(ticket);
    const [payment] = await db().select().from(payments).where(eq(payments.userId, member.userId));
    expect(payment.status).toBe("succeeded");
    expect((await call(admin.cookie, `/admin/members/${member.userId}`)).status).toBe(200);
  });

  it("a new address is invited as before: a staff account with a one-time link to choose the password", async () => {
    const email = `fresh.${Date.now().toString(36)}@museum.example`;
    const invited = await invite(email);
    expect(invited.status).toBe(200);
    expect(await text(invited)).toContain(STAFF_MESSAGES.invitationSent(email));
    const user = await userOf(email);
    expect(user.role).toBe("curator");
    expect(user.memberAccount).toBe(false);
    const mail = (await db().select().from(outbox).where(eq(outbox.kind, "email"))).map((r) => r.payload as { to: string; text: string }).find((m) => m.to === email)!;
    // The invitation page, where the password is chosen for the staff console (decision 063).
    expect(mail.text).toMatch(/\/staff\/invitation\?token=/);
    // Not a member's account: not listed under Members.
    expect((await server.services.admin.members.list({ q: email, page: 1, pageSize: 50 })).total).toBe(0);
  });

  it("a member's invitation can be withdrawn: its link stops working", async () => {
    const member = await payingMember("Wanda");
    await invite(member.email);
    const token = await invitationToken(member.email);
    const withdrawn = await call(admin.cookie, "/admin/staff", form({ intent: "withdraw", userId: member.userId }));
    expect(await text(withdrawn)).toContain(STAFF_MESSAGES.invitationWithdrawn(member.email));
    expect((await call(undefined, `/staff/invitation?token=${token}`)).status).toBe(410);
    expect((await userOf(member.email)).role).toBe("member");
  });
});
