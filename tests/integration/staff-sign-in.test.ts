/**
 * Staff sign-in's second step (decision 055), on both databases, through the site's own
 * pages: an authenticator app set up on Sign-in and security and used to sign in, its codes
 * accepted once, recovery codes once each, wrong codes limited, the emailed code on a new
 * browser, the owner's requirement leading to setup first, sessions listed and ended (by their
 * person and by the owner), the 12-hour end of a staff session, the secret sealed at rest, the
 * re-authentication asking for the code, the recovery command, and what passkey ceremonies refuse.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, outbox, recoveryCodes, totpFactors } from "../../server/db/schema";
import { createStaffSignIn } from "../../server/accounts/staff-sign-in.server";
import { createSecretBox } from "../../server/accounts/secret-box";
import { SIGN_IN_MESSAGES } from "../../app/shared/staff-sign-in-words";
import { STAFF_MESSAGES } from "../../app/shared/staff-messages";
import { createStaffAccount, STAFF_PASSWORD, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { form, startTestServer, type TestServer } from "../helpers/test-server";

const run = promisify(execFile);
const drivers = await availableDrivers();
const CLI = path.resolve("build/host/admin-cli.js");

const setCookie = (response: Response, name: string) => response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(";")[0];
const jar = (...cookies: (string | undefined)[]) => cookies.filter(Boolean).join("; ");
const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

describe.each(drivers)("staff sign-in on %s", (kind) => {
  let server: TestServer;
  let admin: StaffAccount;
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const call = (cookie: string | undefined, p: string, init: RequestInit = {}) =>
    fetch(`${server.url}${p}`, { redirect: "manual", ...init, headers: { ...(cookie ? { cookie } : {}), "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36", ...(init.headers as Record<string, string>) } });
  const db = () => server.services.database.db;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { now });
    admin = await createStaffAccount(server.services, "admin");
  }, 120_000);
  afterAll(() => server?.close());

  async function mailsTo(to: string) {
    const rows = await db().select().from(outbox).where(eq(outbox.kind, "email")).orderBy(outbox.createdAt);
    return rows.map((r) => r.payload as { to: string; subject: string; text: string }).filter((p) => p.to === to);
  }
  async function emailedCode(to: string): Promise<string> {
    const codes = (await mailsTo(to)).filter((m) => m.subject.includes("sign-in code"));
    return /^(\d{6}) /.exec(codes[codes.length - 1].subject)![1];
  }
  const appCode = (secret: string, at = now()) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

  /** The password on the login page: the step's cookie (the answer goes on to /login/verify). */
  async function password(email: string, device?: string) {
    const answer = await call(device, "/login", form({ emailAddress: email, password: STAFF_PASSWORD }));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login/verify");
    expect(setCookie(answer, "museum_session")).toBeUndefined();
    return setCookie(answer, "museum_signin")!;
  }

  /** Sets up an app for `staff` on Sign-in and security; answers its secret and recovery codes. */
  async function setUpApp(staff: StaffAccount): Promise<{ secret: string; codes: string[] }> {
    const begun = await text(await call(staff.cookie, "/admin/security", form({ intent: "app-begin" })));
    const secret = /data-testid="app-secret">([A-Z2-7]+)</.exec(begun)![1];
    const sealed = /name="sealed" value="([^"]+)"/.exec(begun)![1];
    expect(begun).toContain("<svg");
    const wrong = await call(staff.cookie, "/admin/security", form({ intent: "app-confirm", sealed, code: "000000" === appCode(secret) ? "111111" : "000000" }));
    expect(wrong.status).toBe(400);
    expect(await text(wrong)).toContain(SIGN_IN_MESSAGES.wrongCode);
    const confirmed = await call(staff.cookie, "/admin/security", form({ intent: "app-confirm", sealed, code: appCode(secret) }));
    expect(confirmed.status).toBe(200);
    const page = await text(confirmed);
    const codes = [...page.matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]);
    expect(codes).toHaveLength(10);
    return { secret, codes };
  }

  it("a staff password alone starts no session: a new browser gets an emailed code; the code signs in once and the browser is known after", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    const step = await password(curator.email);
    const page = await text(await call(step, "/login/verify"));
    expect(page).toContain("We emailed a six-digit code to cu");
    const code = await emailedCode(curator.email);
    const wrong = await call(step, "/login/verify", form({ code: code === "000000" ? "111111" : "000000" }));
    expect(wrong.status).toBe(400);
    expect(await text(wrong)).toContain(SIGN_IN_MESSAGES.wrongCode);
    // Asking again within a minute sends nothing.
    const resend = await call(step, "/login/verify", form({ intent: "resend" }));
    expect(resend.status).toBe(429);
    const done = await call(step, "/login/verify", form({ code }));
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin");
    const session = setCookie(done, "museum_session")!;
    expect((await call(session, "/admin")).status).toBe(200);
    // The step is spent: the same code again goes nowhere.
    expect((await call(step, "/login/verify", form({ code }))).status).toBe(410);
    // The same browser next time: the password alone.
    const again = await call(setCookie(done, "museum_device"), "/login", form({ emailAddress: curator.email, password: STAFF_PASSWORD }));
    expect(again.headers.get("location")).toBe("/admin");
    // A member's sign-in is as it was: no step.
    const member = await createStaffAccount(server.services, "member");
    const memberLogin = await call(undefined, "/login", form({ emailAddress: member.email, password: STAFF_PASSWORD }));
    expect(setCookie(memberLogin, "museum_session")).toBeDefined();
    // Nor does the JSON API start a staff session.
    const api = await fetch(`${server.url}/api/users/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ emailAddress: curator.email, password: STAFF_PASSWORD }) });
    expect(api.status).toBe(403);
    expect((await api.json()).message).toBe(SIGN_IN_MESSAGES.staffOnLoginPage);
  });

  it("passkey ceremonies (decision 056) answer options on localhost, and refuse what they cannot check: no step, a forged answer (once), no session, a member's wrong or missing password", async () => {
    const passkey = (cookie: string | undefined, fields: Record<string, string>) => call(cookie, "/login/passkey", form(fields));
    // The login page's sign-in: options for any passkey of the site, the challenge kept on a step.
    const begun = await passkey(undefined, { intent: "begin", purpose: "sign-in" });
    expect(begun.status).toBe(200);
    const { options } = (await begun.json()) as { options: { challenge: string; rpId: string; userVerification: string; allowCredentials: unknown[] } };
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required", allowCredentials: [] });
    expect(options.challenge.length).toBeGreaterThanOrEqual(32);
    const step = setCookie(begun, "museum_signin");
    expect(step).toBeDefined();
    const forged = JSON.stringify({ id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "e30", authenticatorData: "AAAA", signature: "AAAA" }, clientExtensionResults: {} });
    const refused = await passkey(step, { intent: "finish", response: forged });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ ok: false, message: SIGN_IN_MESSAGES.passkeyFailed });
    expect(setCookie(refused, "museum_session")).toBeUndefined();
    // One try per challenge: the step is gone.
    expect((await passkey(step, { intent: "finish", response: forged })).status).toBe(410);
    // Junk and huge answers are refused the same way, never a 500.
    for (const response of ["not json", "x".repeat(20_000), "null", "[]"]) {
      const again = setCookie(await passkey(undefined, { intent: "begin", purpose: "sign-in" }), "museum_signin");
      expect((await passkey(again, { intent: "finish", response })).status).toBe(401);
    }
    expect((await passkey(undefined, { intent: "finish", response: forged })).status).toBe(410);
    expect((await passkey(undefined, { intent: "begin", purpose: "step" })).status).toBe(410);
    expect((await passkey(undefined, { intent: "begin", purpose: "add" })).status).toBe(401);
    expect((await passkey(undefined, { intent: "nonsense" })).status).toBe(400);

    // A member adds one with the password when it was given over 10 minutes ago; a typed one is always checked.
    const member = await createStaffAccount(server.services, "member");
    const login = await call(undefined, "/login", form({ emailAddress: member.email, password: STAFF_PASSWORD }));
    const session = setCookie(login, "museum_session");
    const wrong = await passkey(session, { intent: "begin", purpose: "add", password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ message: SIGN_IN_MESSAGES.passkeyPassword, field: "password" });
    const fresh = await passkey(session, { intent: "begin", purpose: "add" });
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as { options: { authenticatorSelection: unknown } }).options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    offsetMs += 11 * 60_000;
    try {
      const missing = await passkey(session, { intent: "begin", purpose: "add" });
      expect(missing.status).toBe(400);
      expect((await missing.json()).message).toBe(SIGN_IN_MESSAGES.passkeyPasswordMissing);
      expect((await passkey(session, { intent: "begin", purpose: "add", password: STAFF_PASSWORD })).status).toBe(200);
    } finally {
      offsetMs -= 11 * 60_000;
    }
  });

  it("an authenticator app: set up with a code from it, its secret sealed at rest, audited and mailed; it then replaces the emailed code", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    const { secret } = await setUpApp(curator);
    const [row] = await db().select().from(totpFactors).where(eq(totpFactors.userId, curator.userId));
    expect(row.secretSealed).not.toContain(secret);
    expect(row.secretSealed.startsWith("v1.")).toBe(true);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, curator.userId), eq(auditLog.action, "staff.app_added")));
    expect(audit.actorEmail).toBe(curator.email);
    expect((await mailsTo(curator.email)).some((m) => m.text.includes("An authenticator app was set up for your staff account"))).toBe(true);
    expect(await text(await call(curator.cookie, "/admin/security"))).toContain("On. 10 of 10 recovery codes left.");

    // Sign-in: no email now; the app's code, accepted once.
    offsetMs += 31_000;
    const before = (await mailsTo(curator.email)).length;
    const step = await password(curator.email);
    expect((await mailsTo(curator.email)).length).toBe(before);
    expect(await text(await call(step, "/login/verify"))).toContain("Code from your authenticator app, or a recovery code");
    const code = appCode(secret);
    const done = await call(step, "/login/verify", form({ code }));
    expect(done.headers.get("location")).toBe("/admin");
    const replay = await call(await password(curator.email), "/login/verify", form({ code }));
    expect(replay.status).toBe(400);
    expect(await text(replay)).toContain(SIGN_IN_MESSAGES.usedCode);
  });

  it("recovery codes sign in once each, stored hashed; five wrong codes end a step; wrong codes are slowed down per account and address", async () => {
    const admin2 = await createStaffAccount(server.services, "admin");
    const { codes } = await setUpApp(admin2);
    const stored = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, admin2.userId));
    expect(stored).toHaveLength(10);
    expect(stored.some((r) => codes.some((c) => r.codeHash.includes(c.replace("-", ""))))).toBe(false);
    const first = await call(await password(admin2.email), "/login/verify", form({ code: codes[0].toUpperCase() }));
    expect(first.headers.get("location")).toBe("/admin");
    const second = await call(await password(admin2.email), "/login/verify", form({ code: codes[0] }));
    expect(second.status).toBe(400);
    expect((await mailsTo(admin2.email)).some((m) => m.text.includes("A recovery code was used to sign in to your staff account. 9 of your recovery codes are left."))).toBe(true);

    const step = await password(admin2.email);
    for (let i = 0; i < 4; i++) expect((await call(step, "/login/verify", form({ code: "12345" + i }))).status).toBe(400);
    const last = await call(step, "/login/verify", form({ code: "123459" }));
    expect(last.status).toBe(410);
    expect(await text(last)).toContain(SIGN_IN_MESSAGES.stepEnded);

    // The slow-down without the test run's relaxed limits (a fresh account): five wrong codes, then
    // "wait" even for a right one, whatever the step, and from another address too.
    const other = await createStaffAccount(server.services, "curator");
    const { codes: otherCodes } = await setUpApp(other);
    const strict = createStaffSignIn({ db: db(), secret: "test-secret-test-secret-test-secret-0123", secretBox: createSecretBox("k".repeat(40)), now, relaxedLimits: false });
    for (let i = 0; i < 5; i++) expect(await strict.checkCode(other.userId, "00000" + i, "203.0.113.9")).toBe("wrong");
    expect(await strict.checkCode(other.userId, otherCodes[1], "203.0.113.9")).toBe("throttled");
    expect(await strict.checkCode(other.userId, otherCodes[1], "198.51.100.7")).toBe("throttled");
  });

  it("the owner's requirement leads staff without an app or passkey to set one up first; turning it off asks for the password again", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    const owner = await createStaffAccount(server.services, "admin");
    const refused = await call(owner.cookie, "/admin/staff", form({ intent: "require-factors", required: "yes" }));
    expect(await text(refused)).toContain(STAFF_MESSAGES.factorsOwnFirst);
    const { secret } = await setUpApp(owner);
    const on = await call(owner.cookie, "/admin/staff", form({ intent: "require-factors", required: "yes" }));
    expect(on.status).toBe(200);
    try {
      const held = await call(curator.cookie, "/admin/exhibits");
      expect(held.status).toBe(302);
      expect(held.headers.get("location")).toBe("/admin/security?setup");
      const setup = await text(await call(curator.cookie, "/admin/security?setup"));
      expect(setup).toContain(SIGN_IN_MESSAGES.setUpFirst);
      await setUpApp(curator);
      expect((await call(curator.cookie, "/admin/exhibits")).status).toBe(200);
      const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "staff.second_step_required"));
      expect(audit.actorEmail).toBe(owner.email);
    } finally {
      offsetMs += 11 * 60_000;
      const off = await call(owner.cookie, "/admin/staff", form({ intent: "require-factors", required: "no" }));
      expect(off.headers.get("location")).toBe("/admin/confirm-password?redirectTo=%2Fadmin%2Fstaff");
      const confirmed = await call(owner.cookie, "/admin/confirm-password", form({ password: STAFF_PASSWORD, code: appCode(secret), redirectTo: "/admin/staff" }));
      expect(confirmed.headers.get("location")).toBe("/admin/staff");
      expect((await call(owner.cookie, "/admin/staff", form({ intent: "require-factors", required: "no" }))).status).toBe(200);
    }
  });

  it("re-authentication asks for the app's code too when the account has one", async () => {
    const admin3 = await createStaffAccount(server.services, "admin");
    const { secret } = await setUpApp(admin3);
    const alone = await call(admin3.cookie, "/admin/confirm-password", form({ password: STAFF_PASSWORD, redirectTo: "/admin/staff" }));
    expect(alone.status).toBe(400);
    expect(await text(alone)).toContain(SIGN_IN_MESSAGES.wrongCode);
    offsetMs += 31_000;
    const both = await call(admin3.cookie, "/admin/confirm-password", form({ password: STAFF_PASSWORD, code: appCode(secret), redirectTo: "/admin/staff" }));
    expect(both.status).toBe(302);
    expect(both.headers.get("location")).toBe("/admin/staff");
  });

  it("Sign-in and security lists the sessions with browser and address; one is ended from another; 'everywhere else'; the owner ends them all", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    const a = setCookie(await call(await password(curator.email), "/login/verify", form({ code: await emailedCode(curator.email) })), "museum_session")!;
    const b = setCookie(await call(await password(curator.email), "/login/verify", form({ code: await emailedCode(curator.email) })), "museum_session")!;
    const list = await text(await call(a, "/admin/security"));
    expect(list).toContain("Chrome 140 on Linux");
    expect(list).toContain("127.0.0.1 (this machine)");
    expect(list).toContain("This browser");
    const ids = [...list.matchAll(/name="sessionId" value="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    // From A, end every other session, B among them: B's cookie no longer opens anything.
    const ended = await call(a, "/admin/security", form({ intent: "end-others" }));
    expect(ended.status).toBe(200);
    expect((await call(b, "/admin")).headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    expect((await call(a, "/admin")).status).toBe(200);
    // The owner ends every session of the account (a lost laptop): A too, and the person is told.
    const owner = await call(admin.cookie, "/admin/staff", form({ intent: "end-sessions", userId: curator.userId }));
    expect(await text(owner)).toContain(`${curator.email} is logged out everywhere`);
    expect((await call(a, "/admin")).status).toBe(302);
    expect((await mailsTo(curator.email)).some((m) => m.text.includes(`Every session of your staff account was ended by ${admin.email}`))).toBe(true);
  });

  it("a staff session ends 12 hours after its sign-in, even while in use", async () => {
    const curator = await createStaffAccount(server.services, "curator");
    // A request every 25 minutes (never 30 idle) until 11 h 40 min after sign-in: still signed in.
    for (let minutes = 25; minutes <= 700; minutes += 25) {
      offsetMs += 25 * 60_000;
      expect((await call(curator.cookie, "/admin")).status, `${minutes} minutes after sign-in`).toBe(200);
    }
    // 12 h 5 min after sign-in: ended, although it was used 25 minutes ago.
    offsetMs += 25 * 60_000;
    expect((await call(curator.cookie, "/admin")).status).toBe(302);
  });

  it("the recovery command on the machine removes every factor and ends the sessions (PostgreSQL: beside the running site)", async () => {
    if (kind !== "postgres") return;
    const owner = await createStaffAccount(server.services, "admin");
    await setUpApp(owner);
    const { stdout } = await run(process.execPath, [CLI, "--email", owner.email, "--remove-factors"], {
      env: { ...process.env, DATABASE_URL: server.database.url!, LOG_LEVEL: "silent", PUBLIC_URL: server.url },
    });
    expect(stdout).toContain(`Every authenticator app, recovery code, passkey and known browser of ${owner.email} is removed, and its sessions are ended.`);
    expect(await db().select().from(totpFactors).where(eq(totpFactors.userId, owner.userId))).toHaveLength(0);
    expect((await call(owner.cookie, "/admin")).status).toBe(302);
    // The printed link chooses a password, and the browser that opened it signs in without a code.
    const token = /token=([A-Za-z0-9_-]+)/.exec(stdout)![1];
    const reset = await call(undefined, "/password/reset", form({ token, password: STAFF_PASSWORD, confirmPassword: STAFF_PASSWORD }));
    const login = await call(jar(setCookie(reset, "museum_device")), "/login", form({ emailAddress: owner.email, password: STAFF_PASSWORD }));
    expect(login.headers.get("location")).toBe("/admin");
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.entityId, owner.userId), eq(auditLog.action, "staff.factors_removed")));
    expect(audit.actorEmail).toBe("npm run admin:create -- --remove-factors");
  }, 120_000);
});
