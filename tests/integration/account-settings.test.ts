/**
 * Changing name, email and password while signed in, on both databases: bad input is
 * a 4xx with a clear message; the password change needs the current password and ends the
 * other sessions only; an email change waits for the link sent to the new address (the old one
 * is told), and the link is single use, expires, and is refused to another account.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES, VALIDATION } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { emailChangeTokens, outbox, subscribers, users } from "../../server/db/schema";
import { limitTierOf, LIMIT_TIERS } from "../../server/security/limits";
import { availableDrivers } from "../helpers/databases";
import { routeResolver, startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
let seq = 0;
const PASSWORD = "Steel3rs!";

describe("account forms and the host limiter", () => {
  it("counts the password-checking forms as logins and the others as writes", async () => {
    const routes = await routeResolver();
    const tierFor = (method: string, path: string) => limitTierOf(routes.resolve(method, path));
    for (const path of ["/account/password", "/account/email", "/account/delete", "/account/password.data"]) expect(tierFor("POST", path)).toBe(LIMIT_TIERS.login);
    for (const path of ["/account/name", "/account/email/confirm"]) expect(tierFor("POST", path)).toBe(LIMIT_TIERS.writes);
  });
});

describe.each(drivers)("account settings on %s", (kind) => {
  let server: TestServer;
  let clock = Date.now();

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { now: () => new Date(clock) });
  });
  afterAll(() => server?.close());

  const db = () => server.services.database.db;
  const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("museum_session="))!.split(";")[0];

  async function signUp(firstName = "Terry", emailOptIn = false) {
    const email = `settings${++seq}.${Date.now()}@example.com`;
    const res = await fetch(`${server.url}/api/users/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ firstName, lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true, emailOptIn }),
    });
    expect(res.status).toBe(201);
    const [row] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    return { email, cookie: cookieOf(res), userId: row.id };
  }

  async function login(email: string, password = PASSWORD) {
    const res = await fetch(`${server.url}/api/users/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ emailAddress: email, password }) });
    return res.status === 200 ? cookieOf(res) : null;
  }

  const post = (path: string, cookie: string | null, fields: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  const signedIn = async (cookie: string) => (await get("/account", cookie)).status === 200;
  const mails = (to: string, purpose: string) =>
    queryRows<{ text: string; subject: string }>(db(), sql`select payload->>'text' as text, payload->>'subject' as subject from ${outbox} where kind = 'email' and payload->>'purpose' = ${purpose} and payload->>'to' = ${to} order by created_at, id`);
  const linkIn = (text: string) => /http\S+\/account\/email\/confirm\?token=([\w-]+)/.exec(text)![1];

  it("sends visitors to sign in, from the pages and from their forms", async () => {
    for (const path of ["/account/name", "/account/email", "/account/password", "/account/email/confirm?token=abcdefghijkl"]) {
      const res = await get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Faccount/);
    }
    const res = await post("/account/name", null, { firstName: "A", lastName: "B" });
    expect(res.status).toBe(302);
  });

  it("changes the name, and refuses blank or control-character names with 400", async () => {
    const a = await signUp("Rocky");
    let res = await post("/account/name", a.cookie, { firstName: "  Rocky ", lastName: "Bleier" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.nameChanged);
    const [row] = await db().select().from(users).where(eq(users.id, a.userId));
    expect([row.firstName, row.lastName]).toEqual(["Rocky", "Bleier"]);
    res = await post("/account/name", a.cookie, { firstName: "", lastName: "Bleier" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(VALIDATION.firstNameRequired);
    res = await post("/account/name", a.cookie, { firstName: "Rocky\r\nBcc: x@example.com", lastName: "Bleier" });
    expect(res.status).toBe(400);
    res = await post("/account/name", a.cookie, { firstName: "R".repeat(101), lastName: "Bleier" });
    expect(res.status).toBe(400);
  });

  it("changes the password with the current one and ends the other sessions only", async () => {
    const a = await signUp("Lynn");
    const other = (await login(a.email))!;
    expect(await signedIn(other)).toBe(true);
    let res = await post("/account/password", a.cookie, { currentPassword: "wrong-one1", password: "NewPass12", passwordConfirm: "NewPass12" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.wrongPassword);
    expect(await signedIn(other)).toBe(true);
    res = await post("/account/password", a.cookie, { currentPassword: PASSWORD, password: "short", passwordConfirm: "short" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(VALIDATION.passwordLength);
    res = await post("/account/password", a.cookie, { currentPassword: PASSWORD, password: "NewPass12", passwordConfirm: "NewPass13" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.newPasswordsMismatch);
    res = await post("/account/password", a.cookie, { currentPassword: PASSWORD, password: "NewPass12", passwordConfirm: "NewPass12" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.passwordChanged);
    expect(await signedIn(a.cookie)).toBe(true);
    expect(await signedIn(other)).toBe(false);
    expect(await login(a.email)).toBeNull();
    expect(await login(a.email, "NewPass12")).not.toBeNull();
  });

  it("changes the email only once the link sent to the new address is opened, and tells the old address", async () => {
    const a = await signUp("Franco", true);
    const newEmail = `Franco.New${seq}.${Date.now()}@example.com`;
    let res = await post("/account/email", a.cookie, { emailAddress: newEmail, currentPassword: "wrong-one1" });
    expect(res.status).toBe(400);
    res = await post("/account/email", a.cookie, { emailAddress: "not-an-email", currentPassword: PASSWORD });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(VALIDATION.emailFormat);
    res = await post("/account/email", a.cookie, { emailAddress: a.email.toUpperCase(), currentPassword: PASSWORD });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.sameEmail);
    const taken = await signUp("Taken");
    res = await post("/account/email", a.cookie, { emailAddress: taken.email, currentPassword: PASSWORD });
    expect(res.status).toBe(409);

    res = await post("/account/email", a.cookie, { emailAddress: newEmail, currentPassword: PASSWORD });
    expect(res.status).toBe(200);
    // Nothing changed yet; the new address has the link, the old one the notice.
    expect((await db().select().from(users).where(eq(users.id, a.userId)))[0].email).toBe(a.email);
    const [confirm] = await mails(newEmail, "email-change-confirm");
    const [notice] = await mails(a.email, "email-change-notice");
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toMatch(/token=/);
    const token = linkIn(confirm.text);

    // Another account cannot use it, and its refusal does not spend it.
    const page = await get(`/account/email/confirm?token=${token}`, taken.cookie);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain(ACCOUNT_MESSAGES.emailLinkOtherAccount);
    res = await post(`/account/email/confirm?token=${token}`, taken.cookie, { token });
    expect(res.status).toBe(403);

    // The owner sees the address and confirms with a POST.
    const mine = await get(`/account/email/confirm?token=${token}`, a.cookie);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain(newEmail);
    res = await post(`/account/email/confirm?token=${token}`, a.cookie, { token });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/account?changed=email");
    expect(await (await get("/account?changed=email", a.cookie)).text()).toContain(ACCOUNT_MESSAGES.emailChanged(newEmail));
    expect((await db().select().from(users).where(eq(users.id, a.userId)))[0].email).toBe(newEmail);
    expect(await mails(a.email, "email-change-done")).toHaveLength(1);
    // The newsletter subscription followed; the account signs in with the new address only.
    const subs = await db().select().from(subscribers).where(eq(subscribers.email, newEmail.toLowerCase()));
    expect(subs).toHaveLength(1);
    expect(await login(a.email)).toBeNull();
    expect(await login(newEmail)).not.toBeNull();
    // Single use.
    res = await post(`/account/email/confirm?token=${token}`, a.cookie, { token });
    expect(res.status).toBe(410);
    expect(await res.text()).toContain(ACCOUNT_MESSAGES.emailLinkInvalid);
    // The old address is free again.
    const again = await signUp("Again");
    expect(again.email).not.toBe(a.email);
  });

  it("refuses an expired link, an older link once a newer one is sent, and a malformed one", async () => {
    const a = await signUp("Jack");
    const first = `jack.first${seq}@example.com`;
    const second = `jack.second${seq}@example.com`;
    expect((await post("/account/email", a.cookie, { emailAddress: first, currentPassword: PASSWORD })).status).toBe(200);
    expect((await post("/account/email", a.cookie, { emailAddress: second, currentPassword: PASSWORD })).status).toBe(200);
    const older = linkIn((await mails(first, "email-change-confirm"))[0].text);
    const newer = linkIn((await mails(second, "email-change-confirm"))[0].text);
    expect((await post(`/account/email/confirm`, a.cookie, { token: older })).status).toBe(410);
    clock += 25 * 60 * 60 * 1000;
    try {
      expect((await get(`/account/email/confirm?token=${newer}`, a.cookie)).status).toBe(410);
      expect((await post(`/account/email/confirm`, a.cookie, { token: newer })).status).toBe(410);
    } finally {
      clock = Date.now();
    }
    expect((await get(`/account/email/confirm?token=x`, a.cookie)).status).toBe(400);
    expect((await post(`/account/email/confirm`, a.cookie, { token: "" })).status).toBe(400);
    const rows = await db().select().from(emailChangeTokens).where(and(eq(emailChangeTokens.userId, a.userId)));
    expect(rows.every((r) => r.tokenHash.length === 64 && r.tokenHash !== newer)).toBe(true);
    expect((await db().select().from(users).where(eq(users.id, a.userId)))[0].email).toBe(a.email);
  });

  it("refuses the change when the address was taken between the request and the link", async () => {
    const a = await signUp("Mel");
    const wanted = `mel.wanted${seq}.${Date.now()}@example.com`;
    expect((await post("/account/email", a.cookie, { emailAddress: wanted, currentPassword: PASSWORD })).status).toBe(200);
    const token = linkIn((await mails(wanted, "email-change-confirm"))[0].text);
    const res = await fetch(`${server.url}/api/users/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ firstName: "Mel", lastName: "Other", emailAddress: wanted, emailAddressConfirm: wanted, password: PASSWORD, passwordConfirm: PASSWORD, termsAndConditions: true }),
    });
    expect(res.status).toBe(201);
    const confirm = await post(`/account/email/confirm?token=${token}`, a.cookie, { token });
    expect(confirm.status).toBe(409);
    expect(await confirm.text()).toContain(ACCOUNT_MESSAGES.emailTaken);
  });
});
