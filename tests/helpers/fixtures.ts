/**
 * Accounts and sessions created directly in the database, so tests of pages do not click through
 * sign-up every time.
 */
import { randomUUID } from "node:crypto";
import { users } from "../../server/db/schema";
import type { Services } from "../../server/services";
import { SESSION_COOKIE } from "../../server/accounts/sessions";
import { addDays } from "~/shared/calendar";
import { calendarDateIn } from "../../app/shared/calendar";

/** The time zone the site runs in when MUSEUM_TIME_ZONE is not set (server/config.ts). */
export const MUSEUM_TIME_ZONE = "America/New_York";

/** Today's calendar date in the museum's time zone (YYYY-MM-DD), the day every ticket rule uses. */
export function museumToday(now = new Date()): string {
  return calendarDateIn(MUSEUM_TIME_ZONE, now);
}

export interface TestAccount {
  userId: string;
  email: string;
  cookie: string;
}

/**
 * Calendar date `days` from the museum's today (YYYY-MM-DD); negative = in the past. Counted from
 * the museum's day, not UTC's: between midnight UTC and midnight in Pittsburgh, "yesterday" in UTC
 * is still today for the site, and a ticket ending then has not expired.
 */
export function dateFromToday(days: number, now = new Date()): string {
  return addDays(museumToday(now), days);
}

export async function createSignedInAccount(
  services: Services,
  { firstName = "Jane", lastName = "Doe", validThrough = null as string | null } = {},
): Promise<TestAccount> {
  const email = `${firstName.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`;
  const [row] = await services.database.db
    .insert(users)
    .values({ firstName, lastName, email, passwordHash: "not-a-real-hash", validThrough, termsAcceptedAt: new Date() })
    .returning({ id: users.id });
  const { token } = await services.sessions.create(row.id);
  return { userId: row.id, email, cookie: `${SESSION_COOKIE}=${token}` };
}
