/**
 * How long the housekeeping run's reminder statement takes: a fresh PostgreSQL
 * database with BENCH_ACCOUNTS accounts (default 100,000) whose last days are spread over 300
 * days around today, then `queueDue` twice (the second run finds everything queued already).
 * Run: `npx tsx bench/reminders-queue.ts` (PostgreSQL at TEST_POSTGRES_URL, default the local one).
 */
import { sql } from "drizzle-orm";
import { openDatabase, type Database } from "../server/db/client";
import { createLogger } from "../server/logger";
import { createReminders } from "../server/membership/reminders";
import { createMuseumCalendar } from "../server/membership/museum-calendar";
import { createPostgresDatabase } from "../tests/helpers/databases";
import { runMigrations } from "../server/db/migrate";

const accounts = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const created = await createPostgresDatabase();
const handle = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
try {
  await runMigrations(handle);
  const db = handle.db;
  await db.execute(sql`insert into users (first_name, last_name, email, password_hash, valid_through)
    select 'F' || i, 'L', 'u' || i || '@example.com', 'x', date '2026-11-23' + ((i % 300) - 60) from generate_series(1, ${accounts}) i`);
  await db.execute(sql`analyze`);
  const reminders = createReminders({
    db,
    mailer: { send: async () => undefined },
    offsets: [14, 7, 1, -1],
    calendar: createMuseumCalendar("America/New_York", () => new Date("2026-11-23T17:00:00Z")),
    publicUrl: "http://localhost:3000",
    secret: "bench".repeat(8),
    ticketDays: 120,
    priceCents: 699,
    logger: createLogger("silent"),
  });
  for (const run of ["first run", "rerun"]) {
    const started = performance.now();
    const queued = await db.transaction((tx) => reminders.queueDue(tx as unknown as Database));
    console.log(`${run}: ${queued} reminders queued among ${accounts} accounts in ${(performance.now() - started).toFixed(1)} ms`);
  }
} finally {
  await handle.close();
  await created.drop();
}
