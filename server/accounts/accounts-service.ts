/**
 * Accounts: sign-up, login (paid / expired / unpaid), session restore, logout, and password
 * reset by emailed single-use token. Sign-up with emailOptIn records the subscription in the
 * same transaction as the account.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { SignUpInput } from "../../app/lib/account-schemas";
import { calendarDateIn } from "../../app/lib/access";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { passwordResetTokens, users } from "../db/schema";
import { accessStatus, type AccessStatus } from "../membership/ticket";
import { enqueue } from "../outbox/outbox";
import type { NewsletterService } from "../newsletter/newsletter-service";
import { decoyHash, hashPassword, verifyPassword } from "./passwords";
import type { SessionStore } from "./sessions";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

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

export interface AccountsDeps {
  db: Database;
  sessions: SessionStore;
  newsletter: NewsletterService;
  publicUrl: string;
  timeZone: string;
  now?: () => Date;
  onEnqueued?: () => void;
}

export function createAccounts({ db, sessions, newsletter, publicUrl, timeZone, now = () => new Date(), onEnqueued }: AccountsDeps) {
  const today = () => calendarDateIn(timeZone, now());

  async function findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
    return row;
  }

  return {
    findByEmail,

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Creates the account and signs it in, or reports that the email is taken. */
    async signUp(input: SignUpInput): Promise<{ ok: true; account: AccountView; token: string } | { ok: false; reason: "email_taken" }> {
      const passwordHash = await hashPassword(input.password);
      try {
        const user = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(users)
            .values({
              firstName: input.firstName,
              lastName: input.lastName,
              email: input.emailAddress.trim(),
              passwordHash,
              emailOptIn: input.emailOptIn,
              termsAcceptedAt: now(),
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
        const { token } = await sessions.create(user.id);
        return { ok: true, account: accountView(user), token };
      } catch (error) {
        if (isUniqueViolation(error)) return { ok: false, reason: "email_taken" };
        throw error;
      }
    },

    /** Checks the password; on success starts a session and says whether the ticket is paid, expired or unpaid. */
    async login(
      email: string,
      password: string,
    ): Promise<{ ok: true; status: AccessStatus; account: AccountView; token: string; userId: string } | { ok: false }> {
      const user = await findByEmail(email);
      if (!user) {
        await verifyPassword(await decoyHash(), password);
        return { ok: false };
      }
      if (!(await verifyPassword(user.passwordHash, password))) return { ok: false };
      const { token } = await sessions.create(user.id);
      return { ok: true, status: accessStatus(user.validThrough, today()), account: accountView(user), token, userId: user.id };
    },

    status(validThrough: string | null): AccessStatus {
      return accessStatus(validThrough, today());
    },

    /** Emails a reset link when the account exists; the caller answers the same either way. */
    async requestPasswordReset(email: string): Promise<void> {
      const user = await findByEmail(email);
      if (!user) return;
      const token = randomBytes(32).toString("base64url");
      const link = `${publicUrl}/password/reset?token=${token}`;
      await db.transaction(async (tx) => {
        await tx.insert(passwordResetTokens).values({
          tokenHash: sha256(token),
          userId: user.id,
          expiresAt: new Date(now().getTime() + RESET_TOKEN_TTL_MS),
        });
        await enqueue(tx, {
          kind: "email",
          payload: {
            to: user.email,
            purpose: "password-reset",
            subject: "Reset your Pittsburgh Sports Museum password",
            text: [
              `Hello ${user.firstName},`,
              "",
              "Someone (we hope you) asked to reset the password of your museum account.",
              "Open this link within one hour to choose a new password:",
              "",
              link,
              "",
              "If you did not ask for this, you can ignore this email: your password stays the same.",
              "",
              "Pittsburgh Sports Museum & Hall of Fame",
            ].join("\n"),
          },
        }, now());
      });
      onEnqueued?.();
    },

    /** Sets a new password with a valid, unused, unexpired token; ends every session of the account. */
    async resetPassword(token: string, password: string): Promise<boolean> {
      const passwordHash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
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
        await tx.update(users).set({ passwordHash }).where(eq(users.id, claimed.userId));
        return claimed.userId;
      });
      if (!userId) return false;
      await sessions.destroyAllFor(userId);
      return true;
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
