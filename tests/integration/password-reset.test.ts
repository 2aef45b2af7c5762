/**
 * Password reset requests on both databases: a request is the same single insert
 * whatever the address, so known and unknown emails answer in the same time; the outbox worker
 * issues the token and the email, and drops unknown addresses; a successful reset ends every
 * reset token of the account, older ones included. A link is checked when it is opened, and
 * asking for links and using one are limited apart.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_MISSING } from "~/shared/account-schemas";
import { SERVER_MESSAGES } from "~/shared/messages";
import { queryRows } from "../../server/db/client";
import { outbox, passwordResetTokens, users } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();
let seq = 0;

describe.each(drivers)("password reset requests on %s", (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const db = () => server.services.database.db;
  const count = async (table: typeof outbox | typeof passwordResetTokens) =>
    (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${table}`))[0].n;
  /** Runs the outbox until nothing is due. */
  async function drain() {
    for (let i = 0; i < 50 && (await server.services.outbox.runOnce()) > 0; i++);
  }
  const resetMails = (to: string) =>
    queryRows<{ text: string }>(db(), sql`select payload->>'text' as text from ${outbox} where payload->>'purpose' = 'password-reset' and payload->>'to' = ${to} order by created_at, id`);

  async function signUp(firstName = "Terry", lastName = "Fan") {
    const email = `reset${++seq}.${Date.now()}@example.com`;
    const res = await post("/api/users/", { firstName, lastName, emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true });
    expect(res.status).toBe(201);
    return email;
  }

  it("writes the same single outbox row for a known and an unknown address, and no token yet", async () => {
    await drain();
    const known = await signUp();
    for (const email of [known, `nobody${seq}@example.com`]) {
      const [jobsBefore, tokensBefore] = [await count(outbox), await count(passwordResetTokens)];
      const res = await post("/api/users/request-reset", { emailAddress: email });
      expect(await res.json()).toEqual({ message: SERVER_MESSAGES.resetRequested });
      expect(await count(outbox)).toBe(jobsBefore + 1);
      expect(await count(passwordResetTokens)).toBe(tokensBefore);
      const [job] = await queryRows<{ kind: string; payload: unknown }>(db(), sql`select kind, payload from ${outbox} order by created_at desc, id desc limit 1`);
      const payload = typeof job.payload === "string" ? JSON.parse(job.payload) : job.payload;
      expect(job.kind).toBe("password-reset");
      expect(payload).toEqual({ email: email.toLowerCase() });
    }
  });

  it("issues the token and the email from the worker, and drops unknown addresses", async () => {
    await drain();
    const known = await signUp();
    const unknown = `ghost${seq}@example.com`;
    await post("/api/users/request-reset", { emailAddress: known.toUpperCase() });
    await post("/api/users/request-reset", { emailAddress: unknown });
    const tokensBefore = await count(passwordResetTokens);
    await drain();
    expect(await count(passwordResetTokens)).toBe(tokensBefore + 1);
    expect(await resetMails(known)).toHaveLength(1);
    expect(await resetMails(unknown)).toHaveLength(0);
    const pending = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from ${outbox} where status <> 'done'`);
    expect(pending[0].n).toBe(0);
  });

  it("quotes the account's name on its own line in the reset email", async () => {
    const email = await signUp("Eve", "Fan");
    // A name stored before names were validated, trying to add a paragraph of "ours".
    await db().update(users).set({ firstName: "Eve\r\n\r\nWe have refunded your ticket: https://evil.example\r\n" }).where(eq(users.email, email));
    await post("/api/users/request-reset", { emailAddress: email });
    await drain();
    const [mail] = await resetMails(email);
    expect(mail.text).toContain(`\n    "Eve We have refunded your ticket: https://evil.example Fan"\n`);
    expect(mail.text).not.toMatch(/^We have refunded/m);
  });

  it("ends every reset token of the account at a successful reset, older ones included", async () => {
    const email = await signUp();
    await post("/api/users/request-reset", { emailAddress: email });
    await post("/api/users/request-reset", { emailAddress: email });
    await drain();
    const tokens = (await resetMails(email)).map((m) => /token=(\S+)/.exec(m.text)![1]);
    expect(tokens).toHaveLength(2);
    const [older, newer] = tokens;
    const ok = await post("/api/users/reset-password", { token: newer, password: "NewPass12", confirmPassword: "NewPass12" });
    expect(ok.status).toBe(200);
    const stale = await post("/api/users/reset-password", { token: older, password: "Hijack123", confirmPassword: "Hijack123" });
    expect(stale.status).toBe(400);
    expect((await stale.json()).message).toBe(SERVER_MESSAGES.resetInvalidToken);
    const login = await post("/api/users/login", { emailAddress: email, password: "NewPass12" });
    expect(login.status).toBe(200);
  });

  it("checks a link when it is opened: a missing, cut, used or expired token gets no form, a usable one does", async () => {
    const open = async (query: string) => {
      const res = await fetch(`${server.url}/password/reset${query}`);
      const html = await res.text();
      return { status: res.status, html, form: html.includes('name="confirmPassword"') };
    };
    expect(await open("")).toMatchObject({ status: 200, form: false });
    expect((await open("")).html).toContain(TOKEN_MISSING);
    for (const query of ["?token=abc", "?token=abcdefghijklmnopqrstuvwxyz"]) {
      const cut = await open(query);
      expect(cut).toMatchObject({ status: 200, form: false });
      expect(cut.html).toContain(SERVER_MESSAGES.resetLinkUnknown);
    }
    const email = await signUp();
    await post("/api/users/request-reset", { emailAddress: email });
    await drain();
    const [token] = (await resetMails(email)).map((m) => /token=(\S+)/.exec(m.text)![1]);
    // Opening it spends nothing: twice, and it still sets the password.
    for (let i = 0; i < 2; i++) expect(await open(`?token=${token}`)).toMatchObject({ status: 200, form: true });
    expect(await open(`?token=${token.slice(0, 20)}`)).toMatchObject({ status: 200, form: false });
    expect((await post("/api/users/reset-password", { token, password: "NewPass12", confirmPassword: "NewPass12" })).status).toBe(200);
    const used = await open(`?token=${token}`);
    expect(used).toMatchObject({ status: 200, form: false });
    expect(used.html).toContain(SERVER_MESSAGES.resetLinkUsed);

    await post("/api/users/request-reset", { emailAddress: email });
    await drain();
    const later = (await resetMails(email)).map((m) => /token=(\S+)/.exec(m.text)![1]).at(-1)!;
    expect(await open(`?token=${later}`)).toMatchObject({ status: 200, form: true });
    await db().update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.tokenHash, createHash("sha256").update(later).digest("hex")));
    const expired = await open(`?token=${later}`);
    expect(expired).toMatchObject({ status: 200, form: false });
    expect(expired.html).toContain(SERVER_MESSAGES.resetLinkExpired);
  });

  /** Times `request` for a known and for fresh unknown addresses, in pairs alternating which goes first. */
  async function timePairs(pairs: number, known: string, request: (email: string) => Promise<unknown>) {
    const time = async (email: string) => {
      const start = performance.now();
      await request(email);
      return performance.now() - start;
    };
    for (let i = 0; i < 10; i++) await time(i % 2 ? known : `warmup.${seq}.${i}@example.com`);
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const unknown = `nobody.${seq}.${i}@example.com`;
      if (i % 2) {
        knownTimes.push(await time(known));
        unknownTimes.push(await time(unknown));
      } else {
        unknownTimes.push(await time(unknown));
        knownTimes.push(await time(known));
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return { known: median(knownTimes), unknown: median(unknownTimes) };
  }

  it("answers a known and an unknown address in the same time (medians of interleaved requests)", async () => {
    const known = await signUp();
    const show = (t: { known: number; unknown: number }) => `known ${t.known.toFixed(2)} ms, unknown ${t.unknown.toFixed(2)} ms`;
    const alike = (t: { known: number; unknown: number }) => Math.abs(t.known - t.unknown) < Math.max(0.8, 0.5 * Math.min(t.known, t.unknown));
    // The use case itself, where the two paths used to differ: a lookup and a transaction of two
    // inserts for a known address against a lookup alone (about 1.9 ms against 0.6 ms). Up to
    // three rounds: another test file's load on the same database can skew one round's medians
    // (CI saw 1.78 against 0.83 once), while a real difference shows in every round.
    const rounds: { known: number; unknown: number }[] = [];
    do rounds.push(await timePairs(31, known, (email) => server.services.accounts.requestPasswordReset(email)));
    while (!alike(rounds.at(-1)!) && rounds.length < 3);
    // The whole answer over HTTP, as a prober would time it (more noise from the rest of the stack).
    const http = await timePairs(15, known, async (email) => (await post("/api/users/request-reset", { emailAddress: email })).arrayBuffer());
    console.info(`[reset timing ${kind}] service: ${rounds.map(show).join(" / ")}; HTTP: ${show(http)}`);
    expect(alike(rounds.at(-1)!), `service rounds: ${rounds.map(show).join(" / ")}`).toBe(true);
    // Over HTTP the rest of the stack adds more noise than the difference that was: logged, not asserted.
    await drain();
  });
});

describe.each(drivers)("password reset limits on %s (not relaxed)", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { RATE_LIMIT_RELAXED: "false" });
  });
  afterAll(() => server?.close());

  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("counts asking for links and using one apart: a person who asked five times and mistyped still resets", async () => {
    const email = `limits.${Date.now()}@example.com`;
    expect((await post("/api/users/", { firstName: "Lim", lastName: "Its", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true })).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await post("/api/users/request-reset", { emailAddress: email })).status).toBe(200);
    const refused = await post("/api/users/request-reset", { emailAddress: email });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe(SERVER_MESSAGES.tooManyRequests);
    for (let i = 0; i < 50 && (await server.services.outbox.runOnce()) > 0; i++);
    const [mail] = await queryRows<{ text: string }>(server.services.database.db, sql`select payload->>'text' as text from ${outbox} where payload->>'purpose' = 'password-reset' and payload->>'to' = ${email} order by created_at desc limit 1`);
    const token = /token=(\S+)/.exec(mail.text)![1];
    // Mistyped twice, then right: none of it counts against asking, and the link works.
    for (const confirmPassword of ["NewPass13", "NewPass14"]) expect((await post("/api/users/reset-password", { token, password: "NewPass12", confirmPassword })).status).toBe(400);
    expect((await post("/api/users/reset-password", { token, password: "NewPass12", confirmPassword: "NewPass12" })).status).toBe(200);
  });
});
