/**
 * Database-backed sessions. The cookie holds a random token; the database holds only its keyed
 * hash, so a database leak does not leak sessions, and any instance can check any session.
 */
import { createHmac, randomBytes } from "node:crypto";
import { and, eq, gt, lt } from "drizzle-orm";
import { calendarDateIn, isTicketValid, type Viewer } from "../../app/lib/access";
import type { Database } from "../db/client";
import { sessions, users } from "../db/schema";

export const SESSION_COOKIE = "museum_session";
export const SESSION_DAYS = 30;

export interface SessionStoreDeps {
  db: Database;
  secret: string;
  timeZone: string;
  now?: () => Date;
}

export function createSessionStore({ db, secret, timeZone, now = () => new Date() }: SessionStoreDeps) {
  const hash = (token: string) => createHmac("sha256", secret).update(token).digest("base64url");

  return {
    /** Starts a session for `userId`; returns the token for the cookie. */
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now().getTime() + SESSION_DAYS * 86_400_000);
      await db.insert(sessions).values({ tokenHash: hash(token), userId, expiresAt });
      return { token, expiresAt };
    },

    async destroy(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, hash(token)));
    },

    async destroyAllFor(userId: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },

    async purgeExpired(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, now()));
    },

    /** The signed-in user behind `token`, or null. */
    async userIdFor(token: string | undefined): Promise<string | null> {
      if (!token || token.length > 200) return null;
      const [row] = await db
        .select({ userId: sessions.userId })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, hash(token)), gt(sessions.expiresAt, now())))
        .limit(1);
      return row?.userId ?? null;
    },

    /** The viewer behind `token`: null for a visitor, else the account and its access state. */
    async viewerFor(token: string | undefined): Promise<SignedInViewer | null> {
      if (!token || token.length > 200) return null;
      const [row] = await db
        .select({
          userId: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          emailAddress: users.email,
          role: users.role,
          validThrough: users.validThrough,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.tokenHash, hash(token)), gt(sessions.expiresAt, now())))
        .limit(1);
      if (!row) return null;
      const today = calendarDateIn(timeZone, now());
      return { ...row, member: isTicketValid(row.validThrough, today) };
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** The person behind a session, as the host hands it to loaders, actions and API handlers. */
export type SignedInViewer = Viewer & { userId: string; role: (typeof users.$inferSelect)["role"] };
