/**
 * Login throttling (decision 010) on both databases: wrong passwords from anywhere
 * never lock the owner out; one address guessing one account is slowed down, exponentially;
 * a burst of parallel guesses gets only the free attempts; a correct password clears that
 * address's count, a password reset clears the account's.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVER_MESSAGES } from "~/shared/messages";
import { LOGIN_SLOWDOWN } from "../../server/accounts/accounts-service";
import { queryRows } from "../../server/db/client";
import { outbox } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const MINUTE = 60_000;
let seq = 0;

describe.each(drivers)("login throttling on %s", (kind) => {
  let server: TestServer;
  let now = new Date();

  beforeAll(async () => {
    // Real limits (not the relaxed ones of other suites); the test client stands behind a proxy on loopback.
    server = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false", TRUST_PROXY: "loopback" }, { now: () => now });
  });
  afterAll(() => server?.close());

  const login = (emailAddress: string, password: string, ip: string) =>
    fetch(`${server.url}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ emailAddress, password }),
    });
  const accounts = () => server.services.accounts;

  async function owner() {
    const email = `owner${++seq}.${Date.now()}@example.com`;
    const password = "Steel3rs!";
    const res = await fetch(`${server.url}/api/users/`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${seq}` },
      body: JSON.stringify({ firstName: "Olive", lastName: "Owner", emailAddress: email, emailAddressConfirm: email, password, passwordConfirm: password, termsAndConditions: true }),
    });
    expect(res.status).toBe(201);
    return { email, password };
  }

  it("never keeps the owner out, however many wrong passwords come from other addresses", async () => {
    const { email, password } = await owner();
    for (let i = 0; i < 30; i++) {
      const res = await login(email, `guess-${i}-wrong`, `203.0.113.${i % 15}`);
      expect(res.status, `wrong attempt ${i + 1}`).toBe(401);
      expect((await res.json()).message).toBe(SERVER_MESSAGES.loginFailed);
    }
    const mine = await login(email, password, "192.0.2.10");
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ unpaid: true, message: SERVER_MESSAGES.loginUnpaid });
  });

  it("slows one address guessing one account down, answering 429 with Retry-After, but not the owner elsewhere", async () => {
    const { email, password } = await owner();
    const attacker = "203.0.113.200";
    for (let i = 0; i < LOGIN_SLOWDOWN.free; i++) expect((await login(email, "wrong-pass", attacker)).status).toBe(401);
    // Held back before the password is even checked: the right password gets no further.
    const held = await login(email, password, attacker);
    expect(held.status).toBe(429);
    expect((await held.json()).message).toBe(SERVER_MESSAGES.loginRateLimited);
    expect(Number(held.headers.get("retry-after"))).toBe(60);
    // Other accounts from the same address, and this account from the owner's, are not held.
    expect((await login(`someone.else${seq}@example.com`, "wrong-pass", attacker)).status).toBe(401);
    expect((await login(email, password, "192.0.2.11")).status).toBe(200);
    // A minute later the address gets one more try, then waits two minutes.
    now = new Date(now.getTime() + MINUTE);
    expect((await login(email, "wrong-again", attacker)).status).toBe(401);
    const again = await login(email, password, attacker);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBe(120);
  });

  it("applies the same rule to the login page's form", async () => {
    const { email, password } = await owner();
    const submit = (pw: string, ip: string) =>
      fetch(`${server.url}/login`, { method: "POST", headers: { "x-forwarded-for": ip }, body: new URLSearchParams({ emailAddress: email, password: pw }) });
    for (let i = 0; i < LOGIN_SLOWDOWN.free; i++) expect((await submit("wrong-pass", "203.0.113.210")).status).toBe(401);
    const held = await submit(password, "203.0.113.210");
    expect(held.status).toBe(429);
    const mine = await submit(password, "192.0.2.12");
    expect(mine.status).toBe(200);
    expect(mine.headers.get("set-cookie")).toMatch(/^museum_session=/);
  });

  it("counts one attempt for a login form the browser posted itself, and answers it with the script's message and the email kept", async () => {
    const { email, password } = await owner();
    const ip = "203.0.113.211";
    // A press before the page's scripts run: a plain form post, answered with the whole page (decision 036).
    const press = (pw: string) =>
      fetch(`${server.url}/login`, { method: "POST", headers: { "x-forwarded-for": ip }, body: new URLSearchParams({ emailAddress: email, password: pw }) });
    for (let i = 0; i < LOGIN_SLOWDOWN.free - 2; i++) expect((await login(email, "wrong-pass", ip)).status).toBe(401);
    const answer = await press("wrong-pass");
    expect(answer.status).toBe(401);
    const page = await answer.text();
    expect(page).toContain(SERVER_MESSAGES.loginFailed);
    expect(page).toContain(`value="${email}"`);
    expect(page).not.toContain("wrong-pass");
    // The press was one attempt, not two: one more is still allowed, and then the address waits.
    expect((await login(email, "wrong-pass", ip)).status).toBe(401);
    expect((await login(email, password, ip)).status).toBe(429);
    const held = await press(password);
    expect(held.status).toBe(429);
    expect(await held.text()).toContain(SERVER_MESSAGES.loginRateLimited);
  });

  it("doubles the wait after each further attempt, up to 15 minutes, and forgets a day later", async () => {
    const { email } = await owner();
    const ip = "203.0.113.201";
    for (let i = 0; i < LOGIN_SLOWDOWN.free; i++) expect((await accounts().startSession(email, "wrong-pass", ip)).outcome).toBe("invalid");
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const held = await accounts().startSession(email, "wrong-pass", ip);
      if (held.outcome !== "throttled") throw new Error(`attempt ${i} was not held back`);
      waits.push(held.retryAfterMs / MINUTE);
      // Waiting one second less is still too early; the full wait lets one attempt through.
      now = new Date(now.getTime() + held.retryAfterMs - 1000);
      expect((await accounts().startSession(email, "wrong-pass", ip)).outcome).toBe("throttled");
      now = new Date(now.getTime() + 1000);
      expect((await accounts().startSession(email, "wrong-pass", ip)).outcome).toBe("invalid");
    }
    expect(waits).toEqual([1, 2, 4, 8, 15, 15]);
    now = new Date(now.getTime() + LOGIN_SLOWDOWN.forgetAfterMs);
    for (let i = 0; i < LOGIN_SLOWDOWN.free; i++) expect((await accounts().startSession(email, "wrong-pass", ip)).outcome).toBe("invalid");
    expect((await accounts().startSession(email, "wrong-pass", ip)).outcome).toBe("throttled");
  });

  it("lets only the free attempts of a burst of 20 parallel guesses reach the password check", async () => {
    const { email } = await owner();
    const results = await Promise.all(Array.from({ length: 20 }, () => accounts().startSession(email, "wrong-pass", "203.0.113.202")));
    expect(results.filter((r) => r.outcome === "invalid")).toHaveLength(LOGIN_SLOWDOWN.free);
    expect(results.filter((r) => r.outcome === "throttled")).toHaveLength(20 - LOGIN_SLOWDOWN.free);
  });

  it("clears an address's count when the right password is given from it", async () => {
    const { email, password } = await owner();
    const ip = "192.0.2.20";
    for (let i = 0; i < LOGIN_SLOWDOWN.free - 1; i++) await accounts().startSession(email, "typo-typo", ip);
    expect((await accounts().startSession(email, password, ip)).outcome).toBe("signed_in");
    for (let i = 0; i < LOGIN_SLOWDOWN.free; i++) expect((await accounts().startSession(email, "typo-typo", ip)).outcome).toBe("invalid");
  });

  it("clears the account's counts at every address when its password is reset", async () => {
    const { email } = await owner();
    const ips = ["203.0.113.203", "2001:db8:1:2::5"];
    for (const ip of ips) for (let i = 0; i <= LOGIN_SLOWDOWN.free; i++) await accounts().startSession(email, "wrong-pass", ip);
    for (const ip of ips) expect((await accounts().startSession(email, "wrong-pass", ip)).outcome).toBe("throttled");

    await accounts().requestPasswordReset(email.toUpperCase());
    for (let i = 0; i < 50 && (await server.services.outbox.runOnce()) > 0; i++);
    const [mail] = await queryRows<{ text: string }>(
      server.services.database.db,
      sql`select payload->>'text' as text from ${outbox} where payload->>'purpose' = 'password-reset' and payload->>'to' = ${email}`,
    );
    const token = /token=(\S+)/.exec(mail.text)![1];
    expect(await accounts().resetPassword(token, "NewPass12")).toBeTruthy();
    for (const ip of ips) expect((await accounts().startSession(email, "NewPass12", ip)).outcome).toBe("signed_in");
  });
});
