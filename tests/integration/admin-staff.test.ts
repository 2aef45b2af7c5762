/**
 * Staff accounts and the console's own rules, on both databases: the first admin by command
 * (one-time link, no default password; PGlite refused while another process holds it), invitations
 * through the outbox, sign-in and back to the console, role changes behind a fresh password,
 * deactivation, the 30-minute idle end of staff sessions, and the audit log with its filters.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, outbox, users } from "../../server/db/schema";
import { openDatabase } from "../../server/db/client";
import { createStaffAccount, STAFF_PASSWORD, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { form, startTestServer, type TestServer } from "../helpers/test-server";

const run = promisify(execFile);
const drivers = await availableDrivers();
const CLI = path.resolve("build/host/admin-cli.js");


describe("npm run admin:create on the embedded database", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "museum-admin-cli-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("creates the admin without a password and prints a one-time link; refuses while the site holds the database", async () => {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent", PUBLIC_URL: "http://localhost:3999" };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    const { stdout } = await run(process.execPath, [CLI, "--email", "Boss@Museum.example", "--first-name", "Ada"], { env });
    expect(stdout).toContain("Admin account created for Boss@Museum.example");
    expect(stdout).toMatch(/http:\/\/localhost:3999\/password\/reset\?token=[A-Za-z0-9_-]{40,}/);

    const database = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
    const [row] = await database.db.select().from(users).where(eq(users.email, "Boss@Museum.example"));
    await database.close();
    expect(row.role).toBe("admin");
    expect(row.passwordHash.startsWith("$argon2")).toBe(false);

    // While another process (here: this test, as the site would) holds the database, the command
    // refuses before it opens a file, names the holder and says to stop it.
    const held = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
    try {
      const refused = await run(process.execPath, [CLI, "--email", "other@museum.example"], { env }).catch((e: { code: number; stderr: string }) => e);
      expect("code" in refused && refused.code).toBe(1);
      expect((refused as { stderr: string }).stderr).toContain(`is already open in process ${process.pid} (`);
      expect((refused as { stderr: string }).stderr).toContain(`stop that process first (Ctrl+C in its terminal,\nor kill ${process.pid}), then run this again.`);
      const [other] = await held.db.select().from(users).where(eq(users.email, "other@museum.example"));
      expect(other).toBeUndefined();
    } finally {
      await held.close();
    }
  }, 180_000);

  it("without PUBLIC_URL the link is on the site's PORT, and the command says where the address comes from", async () => {
    const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", PORT: "4817" } as Record<string, string | undefined>;
    delete env.DATABASE_URL;
    delete env.PUBLIC_URL;
    const { stdout } = await run(process.execPath, [CLI, "--email", "port@museum.example"], { env: env as NodeJS.ProcessEnv });
    expect(stdout).toMatch(/ {2}http:\/\/localhost:4817\/password\/reset\?token=/);
    expect(stdout).not.toContain("localhost:3000");
    expect(stdout).toContain("PUBLIC_URL is not set, so the link is on http://localhost:4817, from PORT.");
  }, 180_000);

  it("asks for an email address", async () => {
    const failed = await run(process.execPath, [CLI], { env: { ...process.env, DATA_DIR: dataDir } }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { stderr: string }).stderr).toContain("Usage: npm run admin:create -- --email");
  });
});

describe.each(drivers)("staff accounts on %s", (kind) => {
  let server: TestServer;
  let admin: StaffAccount;
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
  const cookieFrom = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("museum_session="))!.split(";")[0];
  /** The browser a password reset made known to a staff account (decision 055): its sign-ins there ask no emailed code. */
  const deviceFrom = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("museum_device="))!.split(";")[0];
  const stepFrom = (response: Response) => response.headers.getSetCookie().find((c) => c.startsWith("museum_signin="))!.split(";")[0];

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { now });
    admin = await createStaffAccount(server.services, "admin");
  }, 120_000);
  afterAll(() => server?.close());

  /** The code of the last sign-in code email to `to`. */
  async function signInCode(to: string): Promise<string> {
    const rows = await server.services.database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    const mails = rows.map((r) => r.payload as { to: string; subject: string }).filter((p) => p.to === to && p.subject.includes("sign-in code"));
    return /^(\d{6}) /.exec(mails[mails.length - 1].subject)![1];
  }

  async function linkFromOutbox(to: string): Promise<string> {
    const rows = await server.services.database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    const mail = rows.map((r) => r.payload as { to: string; text: string }).find((p) => p.to === to)!;
    return /\/staff\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
  }

  it("admin:create works beside a running site on PostgreSQL and its link sets the password; sign-in goes back to the console", async () => {
    if (kind !== "postgres") return;
    const { stdout } = await run(process.execPath, [CLI, "--email", "chief@museum.example"], {
      env: { ...process.env, DATABASE_URL: server.database.url!, LOG_LEVEL: "silent", PUBLIC_URL: server.url },
    });
    const token = /token=([A-Za-z0-9_-]+)/.exec(stdout)![1];
    const reset = await call(undefined, "/password/reset", form({ token, password: "Chief-pass-1", confirmPassword: "Chief-pass-1" }));
    expect(reset.status).toBe(200);
    const login = await call(deviceFrom(reset), `/login?redirectTo=${encodeURIComponent("/admin/staff")}`, form({ emailAddress: "chief@museum.example", password: "Chief-pass-1" }));
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/admin/staff");
    const page = await call(cookieFrom(login), "/admin/staff");
    expect(page.status).toBe(200);
  }, 60_000);

  it("an admin invites a curator by email; the one-time link sets the password; the invitation is audited", async () => {
    const invited = await call(admin.cookie, "/admin/staff", form({ intent: "invite", email: "new.curator@museum.example", firstName: "Nia", lastName: "Curator", role: "curator" }));
    expect(invited.status).toBe(200);
    expect(await invited.text()).toContain("Invitation sent to new.curator@museum.example");
    // The mail names who sent it.
    const [mail] = (await server.services.database.db.select().from(outbox).where(eq(outbox.kind, "email"))).map((r) => r.payload as { to: string; subject: string; text: string }).filter((p) => p.to === "new.curator@museum.example");
    expect(mail.subject).toBe("Adam Staff invited you to the staff console of the Pittsburgh Sports Museum website");
    expect(mail.text).toContain(`Adam Staff (${admin.email}) invited you to the museum website's staff console, with curator access`);
    const token = await linkFromOutbox("new.curator@museum.example");
    const [user] = await server.services.database.db.select().from(users).where(eq(users.email, "new.curator@museum.example"));
    expect(user.role).toBe("curator");
    const [entry] = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, user.id), eq(auditLog.action, "staff.invite")));
    expect(entry.actorEmail).toBe(admin.email);
    expect(entry.after).toMatchObject({ role: "curator", email: "new.curator@museum.example" });

    const reset = await call(undefined, "/password/reset", form({ token, password: "Nia-pass-123", confirmPassword: "Nia-pass-123" }));
    const login = await call(deviceFrom(reset), "/login?redirectTo=%2Fadmin", form({ emailAddress: "new.curator@museum.example", password: "Nia-pass-123" }));
    expect(login.headers.get("location")).toBe("/admin");
    expect((await call(cookieFrom(login), "/admin")).status).toBe(200);
    expect((await call(cookieFrom(login), "/admin/staff")).status).toBe(404);
    // The link works once.
    const again = await call(undefined, "/password/reset", form({ token, password: "Other-pass-1", confirmPassword: "Other-pass-1" }));
    expect(again.status).toBe(400);
  });

  it("the invitation page asks for the password for the staff console and opens the console; used, replaced and expired links are refused as they open", async () => {
    await call(admin.cookie, "/admin/staff", form({ intent: "invite", email: "page.curator@museum.example", firstName: "Pia", lastName: "Page", role: "curator" }));
    const token = await linkFromOutbox("page.curator@museum.example");
    const opened = await call(undefined, `/staff/invitation?token=${token}`);
    expect(opened.status).toBe(200);
    const page = (await opened.text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Choose your password for the staff console");
    expect(page).toContain("You are invited as curator, for page.curator@museum.example.");
    expect(page).not.toContain("Reset your account password");
    expect(page).not.toContain("Submit Request");
    expect(page).not.toContain("Back to your account");

    // Passwords that differ: said, nothing spent.
    const mismatch = await call(undefined, `/staff/invitation?token=${token}`, form({ intent: "choose", token, password: "Pia-pass-123", confirmPassword: "Pia-pass-124" }));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match, please re-enter");

    // Chosen: signed in, and the console opens (not the member login page).
    const chosen = await call(undefined, `/staff/invitation?token=${token}`, form({ intent: "choose", token, password: "Pia-pass-123", confirmPassword: "Pia-pass-123" }));
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/admin");
    const consolePage = await call(cookieFrom(chosen), "/admin");
    expect(consolePage.status).toBe(200);
    expect(await consolePage.text()).toContain("page.curator@museum.example");

    // The used link says so as it opens: no form.
    const used = await call(undefined, `/staff/invitation?token=${token}`);
    expect(used.status).toBe(410);
    const usedPage = await used.text();
    expect(usedPage).toContain("This invitation link was already used: the password is chosen. Sign in with it to open the staff console.");
    expect(usedPage).not.toContain('type="password"');
    expect((await call(undefined, `/staff/invitation?token=${token}`, form({ intent: "choose", token, password: "Other-pass-1", confirmPassword: "Other-pass-1" }))).status).toBe(410);

    // Replaced by "Send again", and expired.
    await call(admin.cookie, "/admin/staff", form({ intent: "invite", email: "slow.curator@museum.example", firstName: "Sol", lastName: "Slow", role: "curator" }));
    const [slow] = await server.services.database.db.select().from(users).where(eq(users.email, "slow.curator@museum.example"));
    const first = await linkFromOutbox("slow.curator@museum.example");
    await call(admin.cookie, "/admin/staff", form({ intent: "resend", userId: slow.id }));
    const replaced = await call(undefined, `/staff/invitation?token=${first}`);
    expect(replaced.status).toBe(410);
    expect(await replaced.text()).toContain("This invitation link was replaced by a newer one: please use the link in the latest invitation email.");
    offsetMs = 73 * 60 * 60_000;
    try {
      const mails = (await server.services.database.db.select().from(outbox).where(eq(outbox.kind, "email"))).map((r) => r.payload as { to: string; text: string }).filter((p) => p.to === "slow.curator@museum.example");
      const second = /\/staff\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mails.find((m) => !m.text.includes(first))!.text)![1];
      const expired = await call(undefined, `/staff/invitation?token=${second}`);
      expect(expired.status).toBe(410);
      const expiredPage = await expired.text();
      expect(expiredPage).toContain("This invitation link has expired (links last 72 hours). Please ask the admin who invited you to send it again.");
      expect(expiredPage).not.toContain('type="password"');
    } finally {
      offsetMs = 0;
    }
    // A member's password-reset link is no staff invitation.
    const cut = await call(undefined, `/staff/invitation?token=${"x".repeat(43)}`);
    expect(cut.status).toBe(410);
  });

  it("an invitation not used yet shows 'Invitation pending' with 'Send again'; the new link replaces the old; first sign-in lands in /admin", async () => {
    await call(admin.cookie, "/admin/staff", form({ intent: "invite", email: "late.curator@museum.example", firstName: "Lee", lastName: "Late", role: "curator" }));
    const [user] = await server.services.database.db.select().from(users).where(eq(users.email, "late.curator@museum.example"));
    const firstToken = await linkFromOutbox("late.curator@museum.example");
    // React writes <!-- --> between adjacent texts; the page reads without them.
    const page = (await (await call(admin.cookie, "/admin/staff")).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Invitation pending");
    expect(page).toContain("Send again<span class=\"sr-only\"> the invitation to late.curator@museum.example</span>");
    const resent = await call(admin.cookie, "/admin/staff", form({ intent: "resend", userId: user.id }));
    expect(resent.status).toBe(200);
    expect(await resent.text()).toContain("Invitation sent again to late.curator@museum.example.");
    const mails = (await server.services.database.db.select().from(outbox).where(eq(outbox.kind, "email")))
      .map((r) => r.payload as { to: string; text: string })
      .filter((p) => p.to === "late.curator@museum.example");
    expect(mails).toHaveLength(2);
    const secondToken = /\/staff\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mails.find((m) => !m.text.includes(firstToken))!.text)![1];
    // The first link no longer works; the new one does.
    expect((await call(undefined, "/password/reset", form({ token: firstToken, password: "Lee-pass-123", confirmPassword: "Lee-pass-123" }))).status).toBe(400);
    const reset = await call(undefined, "/password/reset", form({ token: secondToken, password: "Lee-pass-123", confirmPassword: "Lee-pass-123" }));
    expect(reset.status).toBe(200);
    const [resendAudit] = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, user.id), eq(auditLog.summary, "Sent the invitation to late.curator@museum.example again")));
    expect(resendAudit.actorEmail).toBe(admin.email);
    // The first sign-in, on the ordinary login form, opens the console (not the $6.99 payment page).
    const login = await call(deviceFrom(reset), "/login", form({ emailAddress: "late.curator@museum.example", password: "Lee-pass-123" }));
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/admin");
    const after = await (await call(admin.cookie, "/admin/staff")).text();
    expect(after).not.toContain("the invitation to late.curator@museum.example");
    const refused = await call(admin.cookie, "/admin/staff", form({ intent: "resend", userId: user.id }));
    expect(await refused.text()).toContain("late.curator@museum.example has already chosen a password: there is no invitation to send again.");
  });

  it("a login form's redirectTo never leads a member, or anyone, off the console", async () => {
    const member = await createStaffAccount(server.services, "member");
    const login = await call(undefined, "/login?redirectTo=%2Fadmin", form({ emailAddress: member.email, password: STAFF_PASSWORD }));
    expect(login.status).toBe(200);
    // Staff land in the console whatever the form says (never on the payment page, never off the
    // site), after their second step: on a new browser, the code emailed to them (decision 055).
    const away = await call(undefined, `/login?redirectTo=${encodeURIComponent("https://evil.example/admin")}`, form({ emailAddress: admin.email, password: STAFF_PASSWORD }));
    expect(away.status).toBe(302);
    expect(away.headers.get("location")).toBe("/login/verify");
    expect(away.headers.getSetCookie().some((c) => c.startsWith("museum_session="))).toBe(false);
    const verified = await call(stepFrom(away), "/login/verify", form({ code: await signInCode(admin.email) }));
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/admin");
    // That browser is known now: its next sign-in asks no code.
    const plain = await call(deviceFrom(verified), "/login", form({ emailAddress: admin.email, password: STAFF_PASSWORD }));
    expect(plain.status).toBe(302);
    expect(plain.headers.get("location")).toBe("/admin");
  });

  it("role changes ask for the password again after 10 minutes, then apply with an audit row", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    offsetMs += 11 * 60_000;
    // Keep both sessions alive across the clock jump (staff sessions end after 30 minutes idle).
    const asked = await call(admin.cookie, "/admin/staff", form({ intent: "role", userId: curator.userId, role: "admin" }));
    expect(asked.status).toBe(302);
    expect(asked.headers.get("location")).toBe("/admin/confirm-password?redirectTo=%2Fadmin%2Fstaff");
    const [still] = await server.services.database.db.select().from(users).where(eq(users.id, curator.userId));
    expect(still.role).toBe("curator");

    const wrong = await call(admin.cookie, "/admin/confirm-password", form({ password: "not-it", redirectTo: "/admin/staff" }));
    expect(wrong.status).toBe(400);
    const confirmed = await call(admin.cookie, "/admin/confirm-password", form({ password: STAFF_PASSWORD, redirectTo: "/admin/staff" }));
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/admin/staff");
    const offsite = await call(admin.cookie, "/admin/confirm-password", form({ password: STAFF_PASSWORD, redirectTo: "//evil.example" }));
    expect(offsite.headers.get("location")).toBe("/admin");

    const changed = await call(admin.cookie, "/admin/staff", form({ intent: "role", userId: curator.userId, role: "admin" }));
    expect(changed.status).toBe(200);
    const [after] = await server.services.database.db.select().from(users).where(eq(users.id, curator.userId));
    expect(after.role).toBe("admin");
    const [entry] = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, curator.userId), eq(auditLog.action, "staff.role")));
    expect(entry.before).toMatchObject({ role: "curator" });
    expect(entry.after).toMatchObject({ role: "admin" });

    const own = await call(admin.cookie, "/admin/staff", form({ intent: "role", userId: admin.userId, role: "curator" }));
    expect(own.status).toBe(400);
  });

  it("deactivating a staff member ends their sessions at once", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    expect((await call(curator.cookie, "/admin")).status).toBe(200);
    // The first press asks; only the second, with confirm=yes, deactivates.
    const asked = await call(admin.cookie, "/admin/staff", form({ intent: "deactivate", userId: curator.userId }));
    expect(asked.status).toBe(302);
    expect((await call(curator.cookie, "/admin")).status).toBe(200);
    const done = await call(admin.cookie, "/admin/staff", form({ intent: "deactivate", userId: curator.userId, confirm: "yes" }));
    expect(done.status).toBe(200);
    const after = await call(curator.cookie, "/admin");
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/login/);
    const [entry] = await server.services.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, curator.userId), eq(auditLog.action, "staff.deactivate")));
    expect(entry).toBeDefined();
  });

  it("a staff session ends after 30 minutes idle; activity keeps it", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    const member = await createStaffAccount(server.services, "member");
    offsetMs += 20 * 60_000;
    expect((await call(curator.cookie, "/admin")).status).toBe(200);
    offsetMs += 20 * 60_000;
    expect((await call(curator.cookie, "/admin")).status).toBe(200);
    offsetMs += 31 * 60_000;
    const ended = await call(curator.cookie, "/admin");
    expect(ended.status).toBe(302);
    // The session is gone, not just refused: the public site sees a visitor too.
    const rows = await server.services.database.db.execute(sql`select count(*)::int as n from sessions where user_id = ${curator.userId}`);
    expect(JSON.stringify(rows)).toContain('"n":0');
    // Members' sessions are not staff sessions: idle time does not end them.
    const home = await call(member.cookie, "/admin");
    expect(home.status).toBe(404);
    // Keep the admin's session alive for the next test.
    admin = await createStaffAccount(server.services, "admin");
  });

  it("the audit page lists changes filtered by staff member, entity and date; a curator sees no staff entries", async () => {
    const page = await call(admin.cookie, `/admin/audit?entity=staff&actor=${admin.userId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Audit log");
    const all = await (await call(admin.cookie, "/admin/audit?entity=staff")).text();
    expect(all).toContain("Invited new.curator@museum.example as curator");
    // Each change as field and value, one line per field, no raw JSON (decision 063).
    const readable = all.replaceAll("<!-- -->", "");
    expect(readable).toMatch(/<li[^>]*data-testid="audit-change"[^>]*><span class="font-semibold">Role<\/span>: <ins[^>]*><span class="sr-only">now <\/span>curator<\/ins><\/li>/);
    expect(readable).toMatch(/<span class="font-semibold">Email<\/span>: <ins[^>]*><span class="sr-only">now <\/span>new.curator@museum.example<\/ins>/);
    expect(readable).not.toContain("&quot;role&quot;");
    expect(readable).not.toContain('"role":');
    const future = await (await call(admin.cookie, "/admin/audit?entity=staff&from=2999-01-01")).text();
    expect(future).not.toContain("Invited new.curator@museum.example");
    const curator = await createStaffAccount(server.services, "curator");
    const curatorView = await (await call(curator.cookie, "/admin/audit?entity=staff")).text();
    expect(curatorView).not.toContain("Invited new.curator@museum.example");
  });

  it("the audit log's days and times are the museum's: 9:30 p.m. in Pittsburgh on the 25th is the 25th", async () => {
    await server.services.database.db.insert(auditLog).values({ at: new Date("2026-11-26T02:30:05Z"), actorId: admin.userId, actorEmail: admin.email, action: "staff.note", entityType: "staff", summary: "Late entry after closing" });
    const onThe25th = await (await call(admin.cookie, "/admin/audit?entity=staff&from=2026-11-25&to=2026-11-25")).text();
    expect(onThe25th).toContain("Late entry after closing");
    expect(onThe25th).toContain("2026-11-25 21:30:05 EST");
    expect(await (await call(admin.cookie, "/admin/audit?entity=staff&from=2026-11-26&to=2026-11-26")).text()).not.toContain("Late entry after closing");
    // A day that does not exist is no filter, not an error.
    const impossible = await call(admin.cookie, "/admin/audit?entity=staff&from=2026-02-30&to=0000-01-01");
    expect(impossible.status).toBe(200);
    expect(await impossible.text()).toContain("Late entry after closing");
  });
});
