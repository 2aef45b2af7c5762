/**
 * Sessions own their cookie (decision 022), on both databases: every Set-Cookie the
 * site sends across sign-up, login, logout (with its flash), a gift's redeem page and the
 * accounts API carries Secure when PUBLIC_URL is https, and none does over http (local
 * development works); a sign-in on any adapter ends the session the request came with.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "../../server/db/schema";
import type { EmailJob } from "../../server/outbox/outbox";
import { availableDrivers } from "../helpers/databases";
import { museumToday } from "../helpers/fixtures";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
const PASSWORD = "Steel3rs!";
const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123", zip: "15212" };

describe.each(drivers)("the site's cookies on %s", (kind) => {
  const servers: Record<string, TestServer> = {};

  beforeAll(async () => {
    servers.https = await startTestServer(kind, { PUBLIC_URL: "https://museum.example", PAYMENTS: "test", MAIL: "log" }, { seed: false });
    servers.http = await startTestServer(kind, { PUBLIC_URL: "http://localhost:3000" }, { seed: false });
  }, 120_000);
  afterAll(async () => {
    await servers.https?.close();
    await servers.http?.close();
  });

  /** Walks every adapter that sets a cookie and returns every Set-Cookie it was sent. */
  async function everyCookie(s: TestServer): Promise<string[]> {
    const sent: string[] = [];
    const call = async (path: string, init: { method?: string; cookie?: string; json?: unknown; form?: Record<string, string> } = {}) => {
      const headers: Record<string, string> = init.cookie ? { cookie: init.cookie } : {};
      let body: string | undefined;
      if (init.json !== undefined) [headers["content-type"], body] = ["application/json", JSON.stringify(init.json)];
      if (init.form) [headers["content-type"], body] = ["application/x-www-form-urlencoded", new URLSearchParams(init.form).toString()];
      const res = await fetch(`${s.url}${path}`, { method: init.method ?? (body !== undefined ? "POST" : "GET"), headers, body, redirect: "manual" });
      await res.arrayBuffer();
      sent.push(...res.headers.getSetCookie());
      return res;
    };
    const session = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("museum_session="))!.split(";")[0];
    const signedIn = async (cookie: string) => (await call("/api/users/relogin", { method: "POST", cookie, json: {} })).status === 200;
    const newEmail = () => `c.${crypto.randomUUID().slice(0, 8)}@example.com`;
    const account = (email: string) => ({ firstName: "Cora", lastName: "Cookie", emailAddress: email, emailAddressConfirm: email, password: PASSWORD, passwordConfirm: PASSWORD });

    // The accounts API: sign-up, login (the old session ends), logout.
    const email = newEmail();
    const first = session(await call("/api/users/", { json: { ...account(email), termsAndConditions: true } }));
    const second = session(await call("/api/users/login", { cookie: first, json: { emailAddress: email, password: PASSWORD } }));
    expect(await signedIn(first), "the session before the API login").toBe(false);
    expect(await signedIn(second)).toBe(true);
    await call("/api/users/logout", { cookie: second, json: {} });
    expect(await signedIn(second), "after the API logout").toBe(false);

    // The pages: sign-up on Admission, login (rotating), logout with its flash, the flash read and cleared.
    const paged = newEmail();
    const third = session(await call("/admission", { form: { ...account(paged), termsAndConditions: "on" } }));
    const fourth = session(await call("/login", { cookie: third, form: { emailAddress: paged, password: PASSWORD } }));
    expect(await signedIn(third), "the session before the page login").toBe(false);
    const out = await call("/logout", { cookie: fourth, form: {} });
    expect(out.headers.getSetCookie().map((c) => c.split("=")[0]).sort()).toEqual(["museum_flash", "museum_session"]);
    expect(await signedIn(fourth), "after the page logout").toBe(false);
    await call("/login", { cookie: "museum_flash=logout" });

    // A gift's redeem page: signing in there ends the session the browser came with.
    const recipient = newEmail();
    const gift = await call("/gift", {
      form: { buyerFirstName: "Bea", buyerLastName: "Buyer", buyerEmail: newEmail(), recipientFirstName: "Ray", recipientLastName: "Recipient", recipientEmail: recipient, message: "", deliverOn: museumToday() },
    });
    expect(gift.status).toBe(302);
    expect((await call(gift.headers.get("location")!, { form: { ...CARD, attemptId: crypto.randomUUID() } })).status).toBe(302);
    while ((await s.services.outbox.runOnce()) > 0);
    const [mail] = await s.services.database.db.select().from(outbox).where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'purpose' = 'gift'`, sql`${outbox.payload}->>'to' = ${recipient}`));
    const token = /\/gift\/redeem\/([A-Za-z0-9_-]{43})/.exec((mail.payload as EmailJob).text)![1];
    const before = session(await call("/api/users/login", { json: { emailAddress: paged, password: PASSWORD } }));
    const redeemed = await call(`/gift/redeem/${token}`, { cookie: before, form: { intent: "signin", emailAddress: paged, password: PASSWORD } });
    expect(redeemed.status).toBe(302);
    expect(await signedIn(before), "the session before the redeem page's sign-in").toBe(false);
    expect(await signedIn(session(redeemed))).toBe(true);
    return sent;
  }

  it("marks every cookie Secure when PUBLIC_URL is https", async () => {
    const cookies = await everyCookie(servers.https);
    expect(cookies.length).toBeGreaterThanOrEqual(10);
    expect(new Set(cookies.map((c) => c.split("=")[0]))).toEqual(new Set(["museum_session", "museum_flash"]));
    expect(cookies.filter((c) => !/; Secure(?:;|$)/.test(c))).toEqual([]);
    for (const c of cookies) expect(c).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
  }, 60_000);

  it("marks none Secure over http, where the browser would drop it", async () => {
    const cookies = await everyCookie(servers.http);
    expect(cookies.length).toBeGreaterThanOrEqual(10);
    expect(cookies.filter((c) => /Secure/.test(c))).toEqual([]);
  }, 60_000);
});
