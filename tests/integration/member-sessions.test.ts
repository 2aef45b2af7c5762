/**
 * A member's session on every request (decision 028): on PGlite, a member's session
 * read once is answered from memory until the database is written, so a member's request is not
 * queued behind a long job holding the one connection; a logout, a refund or an expiry still
 * counts on the very next request. On PostgreSQL (decision 040) the same holds while the change
 * feed listens: a session ending or an account's access changing anywhere is told to every
 * worker, and while the feed is not listening every request reads the session.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../server/db/schema";
import { availableDrivers } from "../helpers/databases";
import { serverForSuite } from "../helpers/test-server";

const drivers = await availableDrivers();
let seq = 0;

describe.each(drivers)("members' sessions on %s", (kind) => {
  const suite = serverForSuite(kind, { listen: true });
  const { clock, post } = suite;
  const relogin = (cookie: string) => post("/api/users/relogin", {}, { cookie });

  async function member() {
    const email = `member${++seq}.${Date.now()}@example.com`;
    const person = { firstName: "Terry", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true };
    const signUp = await post("/api/users/", person);
    expect(signUp.status).toBe(201);
    const cookie = (signUp.headers.get("set-cookie") ?? "").split(";")[0];
    expect((await post("/api/stripe/payment", { id: "pm_card_visa", receipt_email: email }, { cookie })).status).toBe(200);
    return { email, cookie };
  }

  it("answers a member's next request while a long job holds the database", async () => {
    const { email, cookie } = await member();
    expect((await relogin(cookie)).status).toBe(200);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A long job: a transaction that stays open (on PGlite it holds the only connection).
    const job = suite.server.services.database.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).limit(1);
      await held;
    });
    try {
      const answer = await Promise.race([relogin(cookie), new Promise<"held">((resolve) => setTimeout(() => resolve("held"), 3_000))]);
      expect(answer).not.toBe("held");
      const res = answer as Response;
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ account: { emailAddress: email } });
    } finally {
      release();
      await job;
    }
  });

  it("a logout counts on the next request", async () => {
    const { cookie } = await member();
    expect((await relogin(cookie)).status).toBe(200);
    expect((await relogin(cookie)).status).toBe(200);
    expect((await post("/api/users/logout", { logout: true }, { cookie })).status).toBe(200);
    const after = await relogin(cookie);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: "No active session." });
  });

  it("a change to the account (a refund ending the ticket) counts on the next request", async () => {
    const { email, cookie } = await member();
    const before = await (await relogin(cookie)).json();
    expect(before.account.validThrough).not.toBeNull();
    await suite.server.services.database.db.update(users).set({ validThrough: null }).where(eq(users.email, email));
    // As every service that changes a person's access does before answering (decision 040).
    await suite.server.services.sessions.settled();
    expect(await (await relogin(cookie)).json()).toMatchObject({ account: { emailAddress: email, validThrough: null } });
  });

  it("an expired session counts on the next request, with nothing written meanwhile", async () => {
    const { cookie } = await member();
    expect((await relogin(cookie)).status).toBe(200);
    expect((await relogin(cookie)).status).toBe(200);
    const saved = clock.now;
    clock.now = new Date(saved.getTime() + 31 * 86_400_000);
    try {
      expect((await relogin(cookie)).status).toBe(401);
    } finally {
      clock.now = saved;
    }
  });
});

describe.skipIf(!drivers.includes("postgres"))("members' sessions on postgres, remembered while the change feed listens", () => {
  const suite = serverForSuite("postgres", { listen: true });
  const { post } = suite;
  const relogin = (cookie: string) => post("/api/users/relogin", {}, { cookie });
  const sql = (text: string) => suite.server.services.database.db.execute(text as never);

  async function member() {
    const email = `remembered${++seq}.${Date.now()}@example.com`;
    const person = { firstName: "Terry", lastName: "Fan", emailAddress: email, emailAddressConfirm: email, password: "Steel3rs!", passwordConfirm: "Steel3rs!", termsAndConditions: true };
    const signUp = await post("/api/users/", person);
    expect(signUp.status).toBe(201);
    return { email, cookie: (signUp.headers.get("set-cookie") ?? "").split(";")[0] };
  }

  it("answers from memory only while the feed listens, and a change through the triggers counts at once", async () => {
    const { email, cookie } = await member();
    expect((await relogin(cookie)).status).toBe(200);
    // Behind the feed's back (no trigger fires): the session answered from memory is still there.
    await sql("alter table sessions disable trigger user");
    try {
      await sql(`delete from sessions where user_id = (select id from users where email = '${email}')`);
      expect((await relogin(cookie)).status).toBe(200);
      // The listening connection cut: nothing remembered is trusted until it is back.
      await sql("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'museum-catalog-listener' and datname = current_database()");
      await expect.poll(() => suite.server.services.catalogChanges.listening, { timeout: 5_000 }).toBe(false);
      expect((await relogin(cookie)).status).toBe(401);
    } finally {
      await sql("alter table sessions enable trigger user");
    }
    await expect.poll(() => suite.server.services.catalogChanges.listening, { timeout: 15_000 }).toBe(true);
    // Through the triggers: a second session, remembered, then ended by a logout elsewhere.
    const login = await post("/api/users/login", { emailAddress: email, password: "Steel3rs!" });
    const again = (login.headers.get("set-cookie") ?? "").split(";")[0];
    expect((await relogin(again)).status).toBe(200);
    expect((await relogin(again)).status).toBe(200);
    await sql(`delete from sessions where user_id = (select id from users where email = '${email}')`);
    await suite.server.services.sessions.settled();
    expect((await relogin(again)).status).toBe(401);
  });
});
