/**
 * Database-backed sessions. The cookie holds a random token; the database holds only its keyed
 * hash, so a database leak does not leak sessions, and any instance can check any session.
 */
import { createHmac, randomBytes } from "node:crypto";
import { and, eq, gt, lt, ne, sql, type SQL } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { isTicketValid, type Viewer } from "../../app/shared/access";
import type { MuseumCalendar } from "../membership/museum-calendar";
import type { Database } from "../db/client";
import { passkeys, sessions, siteSettings, totpFactors, users } from "../db/schema";
import { actingRole } from "../../app/shared/console-areas";
import { resendable, transactionRetrying } from "../db/retrying";

export const SESSION_COOKIE = "museum_session";
export const SESSION_DAYS = 30;
/** How stale a staff session's last-seen time may get before a request writes it again. */
const LAST_SEEN_GRANULARITY_MS = 60_000;

export interface SessionStoreDeps {
  db: Database;
  secret: string;
  /** The museum's clock (decision 023): the one "today", and the injected clock. */
  calendar: MuseumCalendar;
  /**
   * The database's write counter (PGlite: `DatabaseHandle.writeCount`). With it, a member's
   * session found once is answered from memory until the next write of any kind (decision 028).
   */
  writeCount?: () => number;
  /**
   * PostgreSQL: the change feed's sessions channel (decision 040). While it listens, a member's
   * session found once is answered from memory until a session ends or an account's access
   * changes anywhere; while it does not, every request asks the database.
   */
  changes?: SessionChanges;
  /** A staff session (curator, admin) ends after this long without a request (STAFF_IDLE_MINUTES, decision 015). */
  staffIdleMs?: number;
  /** ... and this long after its sign-in, active or not (STAFF_SESSION_HOURS, decision 055). */
  staffMaxMs?: number;
}

/** Where and in what a session was started or last seen, for the person's list of sessions. */
export interface SessionOrigin {
  userAgent?: string | null;
  clientIp?: string | null;
}

/** A session as its person's list shows it. */
export interface SessionListing {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  clientIp: string | null;
  current: boolean;
}

/** What the session store needs of the change feed (`CatalogChangeFeed`). */
export interface SessionChanges {
  readonly listening: boolean;
  onSessionsChange(handler: () => void): () => void;
  sessionsSettled(): Promise<void>;
}

/** A member's session as last read, valid while the version it was read at has not moved. */
interface RememberedSession {
  version: number;
  expiresAt: Date;
  viewer: Omit<SignedInViewer, "member">;
}

export function createSessionStore({ db, secret, calendar, writeCount, changes, staffIdleMs = 30 * 60_000, staffMaxMs = 12 * 3_600_000 }: SessionStoreDeps) {
  const now = calendar.now;
  const hash = (token: string) => createHmac("sha256", secret).update(token).digest("base64url");
  // Asked on every signed-in request: prepared once, it costs about a third of a query built anew.
  const viewerByTokenHash = db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      emailAddress: users.email,
      role: users.role,
      validThrough: users.validThrough,
      deactivatedAt: users.deactivatedAt,
      memberAccount: users.memberAccount,
      lastSeenAt: sessions.lastSeenAt,
      startedAt: sessions.createdAt,
      clientIp: sessions.clientIp,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .limit(1)
    .prepare("viewer_by_token_hash");
  // What a remembered session is checked against: PGlite's write count, or the number of session
  // and access changes the feed has told of (null while it is not listening: nothing is trusted).
  let told = 0;
  changes?.onSessionsChange(() => void told++);
  const version: () => number | null = writeCount ?? (changes ? () => (changes.listening ? told : null) : () => null);
  // Members' sessions only: staff sessions write their last-seen time and end when idle.
  const remembered = writeCount || changes ? new LRUCache<string, RememberedSession>({ max: 10_000 }) : null;
  /** Waits until every instance has been told of the change just committed (decision 040). */
  const settled = () => changes?.sessionsSettled() ?? Promise.resolve();
  const withTicket = (viewer: Omit<SignedInViewer, "member">): SignedInViewer => ({
    ...viewer,
    member: isTicketValid(viewer.validThrough, calendar.today()),
  });

  /**
   * Deletes the sessions `which` names and notes on their account (`userId`, else the first
   * session's) that its sessions were ended now: a sign-up's replay then starts none (decision 047).
   */
  async function endSessions(which: SQL, userId?: string): Promise<void> {
    await transactionRetrying(db, async (txn) => {
      const tx = txn as unknown as Database;
      const ended = await tx.delete(sessions).where(which).returning({ userId: sessions.userId });
      const account = userId ?? ended[0]?.userId;
      if (account) await tx.update(users).set({ sessionsEndedAt: now() }).where(eq(users.id, account));
    });
    await settled();
  }

  /** The owner requires an app or a passkey of staff, and this staff account has neither (decision 055). */
  async function mustSetUpFactor(userId: string): Promise<boolean> {
    const [row] = await db
      .select({
        required: sql<boolean>`coalesce((select ${siteSettings.value} = 'true'::jsonb from ${siteSettings} where ${siteSettings.key} = 'staff_second_factor_required'), false)`,
        strong: sql<boolean>`(exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId}) or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId}))`,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return Boolean(row?.required) && !row?.strong;
  }

  return {
    /** The key a session is named by in its person's list (its token's keyed hash). */
    idOf: (token: string) => hash(token),

    /** Every live session of `userId`, the last seen first; `currentToken`'s is marked. */
    async listFor(userId: string, currentToken?: string): Promise<SessionListing[]> {
      const current = currentToken ? hash(currentToken) : null;
      const rows = await db
        .select({ id: sessions.tokenHash, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, userAgent: sessions.userAgent, clientIp: sessions.clientIp })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now())))
        .orderBy(sql`${sessions.lastSeenAt} desc`);
      return rows.map((r) => ({ ...r, current: r.id === current }));
    },

    /** Ends one session of `userId`, named by its id in the list; false when there is none such. */
    async endListed(userId: string, id: string): Promise<boolean> {
      const ended = await db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.tokenHash, id))).returning({ id: sessions.tokenHash });
      await settled();
      return ended.length > 0;
    },

    /** Starts a session for `userId`; returns the token for the cookie. */
    async create(userId: string, origin: SessionOrigin = {}): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now().getTime() + SESSION_DAYS * 86_400_000);
      const userAgent = origin.userAgent?.slice(0, 300) ?? null;
      const clientIp = origin.clientIp?.slice(0, 64) ?? null;
      // Sent again after a lost connection (`resendable`, decision 052): a new random token, so a row already
      // there is this insert's own, stored before the connection ended.
      await resendable(async () => {
        await db
          .insert(sessions)
          .values({ tokenHash: hash(token), userId, expiresAt, createdAt: now(), lastSeenAt: now(), passwordAt: now(), userAgent, clientIp })
          .onConflictDoNothing({ target: sessions.tokenHash });
      });
      return { token, expiresAt };
    },

    /** Ends the session holding `token` without telling its account (a new session takes its place). */
    async destroy(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, hash(token)));
      await settled();
    },

    /** Logout: ends the session holding `token` and notes on its account that its sessions were ended (decision 047). */
    end: (token: string) => endSessions(eq(sessions.tokenHash, hash(token))),

    /** Ends every session of `userId` (a password reset). */
    destroyAllFor: (userId: string) => endSessions(eq(sessions.userId, userId), userId),

    /** Ends every session of `userId` but the one holding `keepToken` (a password change). */
    destroyOthersFor: (userId: string, keepToken: string) => endSessions(and(eq(sessions.userId, userId), ne(sessions.tokenHash, hash(keepToken)))!, userId),

    /**
     * Starts a session for the account a sign-up created, when its answer is sent (decision 047).
     * The first answer always signs in. A replay of that answer (`answeredAt`: when it was stored)
     * signs in only an account that still exists, is not deactivated and whose sessions nobody
     * ended since (logout, password change or reset): "ended" starts none, "gone" says the account
     * was deleted.
     */
    async startForSignUp(userId: string, answeredAt?: Date): Promise<{ token: string } | "ended" | "gone"> {
      if (answeredAt) {
        const [account] = await db.select({ deactivatedAt: users.deactivatedAt, endedAt: users.sessionsEndedAt }).from(users).where(eq(users.id, userId)).limit(1);
        if (!account) return "gone";
        if (account.deactivatedAt || (account.endedAt && account.endedAt.getTime() >= answeredAt.getTime())) return "ended";
      }
      return { token: (await this.create(userId)).token };
    },

    /** Waits until every instance knows of an account's access change just committed (a ticket granted). */
    settled,

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

    /** The viewer behind `token`: null for a visitor, else the account and its access state. `clientIp`: where a staff session is seen from now. */
    async viewerFor(token: string | undefined, clientIp?: string): Promise<SignedInViewer | null> {
      if (!token || token.length > 200) return null;
      const tokenHash = hash(token);
      const before = version();
      const known = remembered?.get(tokenHash);
      if (known && before !== null && known.version === before && known.expiresAt > now()) return withTicket(known.viewer);
      const [row] = await viewerByTokenHash.execute({ tokenHash, now: now() });
      if (!row) return null;
      const { deactivatedAt, memberAccount, lastSeenAt, startedAt, clientIp: lastIp, expiresAt, ...account } = row;
      // A deactivated staff account that is also a member's is a member again; any other has no session (decision 049).
      const role = actingRole({ role: account.role, deactivatedAt, memberAccount });
      if (role === null) {
        await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
        return null;
      }
      const viewer = { ...account, role };
      // Kept only if nothing changed while it was read: a change committed meanwhile may not be in it.
      if (remembered && viewer.role === "member" && before !== null && before === version()) remembered.set(tokenHash, { version: before, expiresAt, viewer });
      if (viewer.role !== "member") {
        // Staff sessions end after 30 minutes idle (decision 015) and 12 hours after sign-in (decision 055).
        const idle = now().getTime() - lastSeenAt.getTime();
        if (idle > staffIdleMs || now().getTime() - startedAt.getTime() > staffMaxMs) {
          await db.delete(sessions).where(eq(sessions.tokenHash, hash(token)));
          return null;
        }
        // Setting the time again is harmless: sent again after a lost connection (`resendable`, decision 052).
        const movedIp = clientIp !== undefined && clientIp !== lastIp;
        if (idle > LAST_SEEN_GRANULARITY_MS || movedIp) {
          await resendable(async () => {
            await db
              .update(sessions)
              .set({ lastSeenAt: now(), ...(clientIp !== undefined ? { clientIp: clientIp.slice(0, 64) } : {}) })
              .where(eq(sessions.tokenHash, hash(token)));
          });
        }
        return { ...withTicket(viewer), mustSetUpFactor: await mustSetUpFactor(account.userId) };
      }
      return withTicket(viewer);
    },

    /** How long ago the password was last entered on this session, in ms (null: no such session). */
    async passwordAgeMs(token: string | undefined): Promise<number | null> {
      if (!token || token.length > 200) return null;
      const [row] = await db.select({ at: sessions.passwordAt }).from(sessions).where(eq(sessions.tokenHash, hash(token))).limit(1);
      return row ? now().getTime() - row.at.getTime() : null;
    },

    /** Records that the password was entered again on this session (before a sensitive action). */
    async markPasswordEntered(token: string): Promise<void> {
      await db.update(sessions).set({ passwordAt: now() }).where(eq(sessions.tokenHash, hash(token)));
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** The person behind a session, as the host hands it to loaders, actions and API handlers. */
/** `mustSetUpFactor`: a staff account the owner's requirement leads to set up an app or a passkey before anything else. */
export type SignedInViewer = Viewer & { userId: string; role: (typeof users.$inferSelect)["role"]; mustSetUpFactor?: boolean };
