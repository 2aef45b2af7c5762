/**
 * A member's session on every request (issue 25, decision 028): on PGlite, a member's session
 * read once is answered from memory until the database is written, so a member's request is not
 * queued behind a long job holding the one connection; a logout, a refund or an expiry still
 * counts on the very next request. On PostgreSQL every request reads the session (decision 040).
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
