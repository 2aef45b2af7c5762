/**
 * Accounts and sessions created directly in the database, so tests of pages do not click through
 * sign-up every time.
 */
import { randomUUID } from "node:crypto";
import { users } from "../../server/db/schema";
import type { Services } from "../../server/services";
import { SESSION_COOKIE } from "../../server/accounts/sessions";

export interface TestAccount {
  userId: string;
  email: string;
  cookie: string;
}

/** Calendar date `days` from today in UTC (YYYY-MM-DD); negative = in the past. */
export function dateFromToday(days: number, now = new Date()): string {
  return new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
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
