/**
 * Accounts: sign-up, login (paid / expired / unpaid) under a slow-down per client IP and
 * account, and password reset by emailed single-use token. Sign-up with emailOptIn records the
 * subscription in the same transaction as the account.
 *
 * A reset request is one insert whatever the address (an outbox job carrying it), so the answer
 * takes the same time for a known and an unknown email; the outbox worker looks the account
 * up, creates the token and queues the email, and drops unknown addresses.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { SignUpInput } from "../../app/shared/account-schemas";
import type { MuseumCalendar } from "../membership/museum-calendar";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { passwordResetTokens, users } from "../db/schema";
import { accessStatus, type AccessStatus } from "../membership/ticket";
import { enqueue, type PasswordResetJob } from "../outbox/outbox";
import type { NewsletterService } from "../newsletter/newsletter-service";
import { clientKey, createSlowDown, type SlowDownRule } from "../security/throttle";
import { decoyHash, hashPassword, verifyPassword } from "./passwords";
import type { SessionOrigin, SessionStore } from "./sessions";
import { actingRole } from "../../app/shared/console-areas";
import { passwordResetEmail } from "../mail/templates";
import { transactionRetrying } from "../db/retrying";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * Login attempts per client IP and account (decision 010): five at once, then one after 1 min,
 * 2 min, 4 min, 8 min, then every 15 min; counting restarts a day after the last attempt, and
 * a correct password or a password reset clears it. There is no limit per account alone, so
 * attempts from other addresses never keep the owner out; the host limits each IP overall.
 */
export const LOGIN_SLOWDOWN: SlowDownRule = {
  name: "login-ip-account",
  free: 5,
  baseDelayMs: 60_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};

export type SessionStart =
  | { outcome: "signed_in"; status: AccessStatus; account: AccountView; token: string; userId: string }
  /** A staff account's password was right: its sign-in goes on to a second step (decision 055), no session yet. */
  | { outcome: "second_step"; userId: string }
  | { outcome: "invalid" }
  | { outcome: "throttled"; retryAfterMs: number };

/** The account as the client holds it (spec section 3). */
export interface AccountView {
  firstName: string;
  lastName: string;
  emailAddress: string;
  validThrough: string | null;
}

type UserRow = typeof users.$inferSelect;

export function accountView(u: Pick<UserRow, "firstName" | "lastName" | "email" | "validThrough">): AccountView {
  return { firstName: u.firstName, lastName: u.lastName, emailAddress: u.email, validThrough: u.validThrough };
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const normalEmail = (email: string) => email.trim().toLowerCase();
/** The account part of a slow-down key: a hash, so the counters table holds no addresses. */
const accountKey = (email: string) => `${sha256(normalEmail(email)).slice(0, 32)}|`;

export interface AccountsDeps {
  db: Database;
  sessions: SessionStore;
  newsletter: NewsletterService;
  publicUrl: string;
  /** The museum's clock (decision 023): the one "today", and the injected clock. */
  calendar: MuseumCalendar;
  onEnqueued?: () => void;
  /** RATE_LIMIT_RELAXED: more free login attempts for automated test runs. */
  relaxedLimits?: boolean;
}

export function createAccounts({ db, sessions, newsletter, publicUrl, calendar, onEnqueued, relaxedLimits = false }: AccountsDeps) {
  const now = calendar.now;
  const today = calendar.today;
  const loginSlowDown = createSlowDown(db, LOGIN_SLOWDOWN, relaxedLimits, now);

  async function findByEmail(email: string, from: Pick<Database, "select"> = db): Promise<UserRow | undefined> {
    const [row] = await from.select().from(users).where(sql`lower(${users.email}) = ${normalEmail(email)}`).limit(1);
    return row;
  }

  /** Checks the password; on success starts a session. Unknown emails cost the same hash check. */
  async function verifyAndStart(email: string, password: string, origin: SessionOrigin) {
    const user = await findByEmail(email);
    if (!user) {
      await verifyPassword(await decoyHash(), password);
      return null;
    }
    if (!(await verifyPassword(user.passwordHash, password))) return null;
    if (actingRole(user) !== "member") return { outcome: "second_step" as const, userId: user.id };
    const { token } = await sessions.create(user.id, origin);
    return { outcome: "signed_in" as const, status: accessStatus(user.validThrough, today()), account: accountView(user), token, userId: user.id };
  }

  /**
   * The account and, with emailOptIn, its subscription, in one transaction (inside `within`
   * when given: an idempotent write's transaction, decision 025); no session yet.
   */
  async function createAccount(input: SignUpInput, within: Database = db): Promise<{ ok: true; account: AccountView; userId: string } | { ok: false; reason: "email_taken" }> {
    const passwordHash = await hashPassword(input.password);
    try {
      const user = await transactionRetrying(within, async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({
            firstName: input.firstName,
            lastName: input.lastName,
            email: input.emailAddress.trim(),
            passwordHash,
            emailOptIn: input.emailOptIn,
            termsAcceptedAt: now(),
            memberAccount: true,
          })
          .returning();
        if (input.emailOptIn) {
          await newsletter.record(tx, {
            email: row.email,
            firstName: row.firstName,
            lastName: row.lastName,
            consent: true,
            source: "signup",
          });
        }
        return row;
      });
      if (input.emailOptIn) onEnqueued?.();
      return { ok: true, account: accountView(user), userId: user.id };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: "email_taken" };
      throw error;
    }
  }

  return {
    findByEmail,

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Creates the account and signs it in, or reports that the email is taken. */
    async signUp(input: SignUpInput): Promise<{ ok: true; account: AccountView; token: string } | { ok: false; reason: "email_taken" }> {
      const created = await createAccount(input);
      if (!created.ok) return created;
      const { token } = await sessions.create(created.userId);
      return { ok: true, account: created.account, token };
    },

    createAccount,

    /**
     * Login (the use case both adapters call): the slow-down for this client IP and account
     * first, so a held-back attempt never reaches the password check; then the password. Says
     * whether the ticket is paid, expired or unpaid.
     */
    async startSession(email: string, password: string, clientIp: string | undefined, userAgent?: string | null): Promise<SessionStart> {
      const key = accountKey(email) + clientKey(clientIp);
      const verdict = await loginSlowDown.attempt(key);
      if (!verdict.allowed) return { outcome: "throttled", retryAfterMs: verdict.retryAfterMs };
      const started = await verifyAndStart(email, password, { clientIp, userAgent });
      if (!started) return { outcome: "invalid" };
      await loginSlowDown.clear(key);
      return started;
    },

    status(validThrough: string | null): AccessStatus {
      return accessStatus(validThrough, today());
    },

    /**
     * Queues a reset for the address: the same single insert whether or not an account has it
     * (no enumeration by answer or by timing). The outbox runs `issuePasswordReset`.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const job: PasswordResetJob = { email: normalEmail(email) };
      await enqueue(db, { kind: "password-reset", payload: job }, now());
      onEnqueued?.();
    },

    /**
     * The outbox job behind a reset request, run in the transaction that marks the job done:
     * for a known address, a token (stored as its hash) and the email with its link; an
     * unknown address is dropped.
     */
    async issuePasswordReset(tx: Database, job: PasswordResetJob): Promise<void> {
      const user = await findByEmail(job.email, tx);
      if (!user) return;
      const token = randomBytes(32).toString("base64url");
      const link = `${publicUrl}/password/reset?token=${token}`;
      await tx.insert(passwordResetTokens).values({
        tokenHash: sha256(token),
        userId: user.id,
        expiresAt: new Date(now().getTime() + RESET_TOKEN_TTL_MS),
      });
      await enqueue(tx, { kind: "email", payload: passwordResetEmail(user.email, user, link) }, now());
    },

    /**
     * What a reset link's token is, read when the link is opened (nothing is spent): usable,
     * used (or replaced by a later reset or password change), expired, or unknown (cut short,
     * mistyped, or never sent).
     */
    async resetLinkState(token: string): Promise<"usable" | "used" | "expired" | "unknown"> {
      const [row] = await db
        .select({ usedAt: passwordResetTokens.usedAt, expiresAt: passwordResetTokens.expiresAt })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.tokenHash, sha256(token)))
        .limit(1);
      if (!row) return "unknown";
      if (row.usedAt) return "used";
      return row.expiresAt.getTime() > now().getTime() ? "usable" : "expired";
    },

    /**
     * Sets a new password with a valid, unused, unexpired token. Ends every session and every
     * other reset token of the account, and clears its login slow-downs (decision 010). Answers
     * the account's id, or false when the token is not valid.
     */
    async resetPassword(token: string, password: string): Promise<false | { userId: string }> {
      const passwordHash = await hashPassword(password);
      const user = await transactionRetrying(db, async (tx) => {
        const [claimed] = await tx
          .update(passwordResetTokens)
          .set({ usedAt: now() })
          .where(
            and(
              eq(passwordResetTokens.tokenHash, sha256(token)),
              isNull(passwordResetTokens.usedAt),
              gt(passwordResetTokens.expiresAt, now()),
            ),
          )
          .returning({ userId: passwordResetTokens.userId });
        if (!claimed) return null;
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: now() })
          .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
        const [updated] = await tx
          .update(users)
          .set({ passwordHash })
          .where(eq(users.id, claimed.userId))
          .returning({ id: users.id, email: users.email });
        return updated ?? null;
      });
      if (!user) return false;
      await sessions.destroyAllFor(user.id);
      await loginSlowDown.clearPrefix(accountKey(user.email));
      return { userId: user.id };
    },
  };
}
