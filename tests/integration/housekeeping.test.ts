/**
 * Housekeeping on both databases: expired sessions, spent rate-limit counters, used or
 * expired reset tokens, delivered outbox jobs past a week (dead ones past 30 days), old webhook
 * event ids and gift drafts left unpaid for a week are deleted, everything else stays; one
 * instance at a time runs it.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, queryRows, type Database } from "../../server/db/client";
import { gifts, outbox, passwordResetTokens, processedWebhookEvents, rateLimits, sessions, users } from "../../server/db/schema";
import { createHousekeeping, HOUSEKEEPING_LOCK_ID } from "../../server/jobs/housekeeping";
import { createLogger } from "../../server/logger";
import { availableDrivers, openTestDatabase, type TestDatabase } from "../helpers/databases";

const drivers = await availableDrivers();
const DAY = 86_400_000;
const logger = createLogger("silent");

describe.each(drivers)("housekeeping on %s", (kind) => {
  let database: TestDatabase;
  const now = new Date("2026-11-23T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const ahead = (ms: number) => new Date(now.getTime() + ms);
  const db = (): Database => database.handle.db;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database?.drop());

  async function keys(table: typeof sessions | typeof rateLimits | typeof passwordResetTokens | typeof outbox | typeof processedWebhookEvents | typeof gifts, column: string) {
    const rows = await queryRows<{ k: string }>(db(), sql`select ${sql.raw(column)} as k from ${table} order by 1`);
    return rows.map((r) => r.k);
  }

  /** One row of each kind that must go, and one of each that must stay. */
  async function seed() {
    for (const t of [sessions, rateLimits, passwordResetTokens, outbox, processedWebhookEvents, gifts]) await db().delete(t);
    await db().delete(users);
    const [user] = await db().insert(users).values({ firstName: "Ada", lastName: "Fan", email: "ada@example.com", passwordHash: "x" }).returning({ id: users.id });
    await db().insert(sessions).values([
      { tokenHash: "session-expired", userId: user.id, expiresAt: ago(1000) },
      { tokenHash: "session-live", userId: user.id, expiresAt: ahead(DAY) },
    ]);
    await db().insert(rateLimits).values([
      { key: "login-ip:spent", hits: 3, resetAt: ago(1000) },
      { key: "login-ip-account:spent", hits: 9, resetAt: ago(1000), blockedUntil: ago(DAY) },
      { key: "login-ip:live", hits: 3, resetAt: ahead(60_000) },
    ]);
    await db().insert(passwordResetTokens).values([
      { tokenHash: "token-used", userId: user.id, expiresAt: ahead(30 * 60_000), usedAt: ago(60_000) },
      { tokenHash: "token-expired", userId: user.id, expiresAt: ago(1000) },
      { tokenHash: "token-live", userId: user.id, expiresAt: ahead(30 * 60_000) },
    ]);
    const job = (label: string, status: "pending" | "done" | "dead", createdAt: Date, doneAt: Date | null) => ({
      kind: "email" as const,
      payload: { label },
      status,
      createdAt,
      nextAttemptAt: createdAt,
      doneAt,
    });
    await db().insert(outbox).values([
      job("delivered-8-days-ago", "done", ago(8 * DAY), ago(8 * DAY)),
      job("delivered-yesterday", "done", ago(DAY), ago(DAY)),
      job("dead-31-days", "dead", ago(31 * DAY), null),
      job("dead-10-days", "dead", ago(10 * DAY), null),
      job("pending-40-days", "pending", ago(40 * DAY), null),
    ]);
    const gift = (label: string, status: "unpaid" | "paid", createdAt: Date) => ({
      buyerUserId: user.id,
      buyerFirstName: "Ada",
      buyerLastName: "Fan",
      buyerEmail: "ada@example.com",
      recipientFirstName: "Ray",
      recipientLastName: "Friend",
      recipientEmail: "ray@example.com",
      message: label,
      deliverOn: "2027-01-01",
      status,
      amountCents: 699,
      daysGranted: 120,
      createdAt,
    });
    await db().insert(gifts).values([
      gift("draft-8-days", "unpaid", ago(8 * DAY)),
      gift("draft-6-days", "unpaid", ago(6 * DAY)),
      gift("paid-60-days", "paid", ago(60 * DAY)),
    ]);
    await db().insert(processedWebhookEvents).values([
      { eventId: "evt_old", type: "payment_intent.succeeded", processedAt: ago(31 * DAY) },
      { eventId: "evt_recent", type: "payment_intent.succeeded", processedAt: ago(DAY) },
    ]);
  }

  const expectedCounts = { sessions: 1, rateLimits: 2, passwordResetTokens: 2, outboxDelivered: 1, outboxDead: 1, webhookEvents: 1, giftDrafts: 1, idempotencyKeys: 0, reminders: 0, trash: 0, bulkUndo: 0 };

  async function expectOnlyKeepersLeft() {
    expect(await keys(sessions, "token_hash")).toEqual(["session-live"]);
    expect(await keys(rateLimits, "key")).toEqual(["login-ip:live"]);
    expect(await keys(passwordResetTokens, "token_hash")).toEqual(["token-live"]);
    expect(await keys(outbox, "payload->>'label'")).toEqual(["dead-10-days", "delivered-yesterday", "pending-40-days"]);
    expect(await keys(processedWebhookEvents, "event_id")).toEqual(["evt_recent"]);
    // A draft unpaid for 6 days may still be paid; a paid gift stays whatever its age.
    expect(await keys(gifts, "message")).toEqual(["draft-6-days", "paid-60-days"]);
  }

  beforeEach(seed);

  it("purges what has stopped meaning anything and keeps the rest, returning the counts", async () => {
    const housekeeping = createHousekeeping({ database: database.handle, logger, now: () => now });
    expect(await housekeeping.runOnce()).toEqual({ ran: true, counts: expectedCounts });
    await expectOnlyKeepersLeft();
    // Nothing left to do: a second run deletes nothing.
    expect(await housekeeping.runOnce()).toEqual({ ran: true, counts: { sessions: 0, rateLimits: 0, passwordResetTokens: 0, outboxDelivered: 0, outboxDead: 0, webhookEvents: 0, giftDrafts: 0, idempotencyKeys: 0, reminders: 0, trash: 0, bulkUndo: 0 } });
  });

  it("runs on its schedule after start() and stops cleanly", async () => {
    const housekeeping = createHousekeeping({ database: database.handle, logger, now: () => now, firstRunMs: 10, intervalMs: 20 });
    housekeeping.start();
    for (let i = 0; i < 100 && (await keys(sessions, "token_hash")).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    await housekeeping.stop();
    await expectOnlyKeepersLeft();
  });

  it.runIf(kind === "postgres")("skips the run while another instance holds the lock, and two instances never both purge", async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock($1)", [HOUSEKEEPING_LOCK_ID]);
      const blocked = createHousekeeping({ database: database.handle, logger, now: () => now });
      expect(await blocked.runOnce()).toEqual({ ran: false, reason: "another instance holds the lock" });
      expect(await keys(sessions, "token_hash")).toHaveLength(2);
    } finally {
      await holder.query("select pg_advisory_unlock($1)", [HOUSEKEEPING_LOCK_ID]);
      await holder.end();
    }
    // Two instances, each with its own connection pool, at once: the rows go exactly once.
    const other = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
    try {
      const runs = await Promise.all([
        createHousekeeping({ database: database.handle, logger, now: () => now }).runOnce(),
        createHousekeeping({ database: other, logger, now: () => now }).runOnce(),
      ]);
      const total = { sessions: 0, rateLimits: 0, passwordResetTokens: 0, outboxDelivered: 0, outboxDead: 0, webhookEvents: 0, giftDrafts: 0, idempotencyKeys: 0, reminders: 0, trash: 0, bulkUndo: 0 };
      for (const run of runs) if (run.ran) for (const [k, v] of Object.entries(run.counts)) total[k as keyof typeof total] += v;
      expect(total).toEqual(expectedCounts);
      await expectOnlyKeepersLeft();
    } finally {
      await other.close();
    }
  });

  it.runIf(kind === "pglite")("vacuums PGlite, which has no autovacuum, marking every page visible so counts can be answered from an index", async () => {
    // Pages whose rows every transaction sees, against all pages (ANALYZE refreshes both figures).
    const visibility = async () => (await queryRows<{ visible: number; pages: number }>(db(), sql`select relallvisible as visible, relpages as pages from pg_class where relname = 'outbox'`))[0];
    await db().execute(sql`insert into outbox (kind, payload, status) select 'mailchimp', '{}'::jsonb, 'pending' from generate_series(1, 2000)`);
    await db().execute(sql`analyze outbox`);
    const before = await visibility();
    expect(before.visible).toBeLessThan(before.pages);
    await createHousekeeping({ database: database.handle, logger, now: () => now }).runOnce();
    const after = await visibility();
    expect(after.visible).toBe(after.pages);
  });
});
