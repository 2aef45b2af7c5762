/**
 * Changing a signed-in account's name, email and password (decision 017).
 *
 * - The password change needs the current password and ends every other session of the account.
 * - An email change needs the current password too, and takes effect only when the link sent to
 *   the new address is opened by the same account, signed in: the token is single use, expires
 *   after 24 hours, is stored as its hash, and a newer request ends the older ones. The old
 *   address is told of the request, and again once the change is made. Making it ends the
 *   account's password-reset tokens (they went to the old address) and moves the newsletter
 *   subscription to the new address.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { emailChangeTokens, passwordResetTokens, subscribers, users } from "../db/schema";
import { enqueue } from "../outbox/outbox";
import { hashPassword, verifyPassword } from "./passwords";
import type { SessionStore } from "./sessions";
import { emailChangeConfirmEmail, emailChangeDoneEmail, emailChangeNoticeEmail } from "../mail/templates";
import { transactionRetrying } from "../db/retrying";

export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const lower = (email: string) => email.trim().toLowerCase();

export type EmailChangeRequest = { ok: true } | { ok: false; reason: "wrong_password" | "same_email" | "email_taken" | "no_account" };
export type EmailChangeCheck =
  | { ok: true; newEmail: string }
  | { ok: false; reason: "invalid" | "other_account" };
export type EmailChangeResult = EmailChangeCheck | { ok: false; reason: "email_taken" };

export interface AccountSettingsDeps {
  db: Database;
  sessions: SessionStore;
  publicUrl: string;
  now?: () => Date;
  onEnqueued?: () => void;
}

export function createAccountSettings({ db, sessions, publicUrl, now = () => new Date(), onEnqueued }: AccountSettingsDeps) {
  async function userById(userId: string) {
    const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    return row;
  }

  /** The token's row if it can still be used: known, unused, unexpired. */
  async function liveToken(token: string, from: Pick<Database, "select"> = db) {
    const [row] = await from
      .select()
      .from(emailChangeTokens)
      .where(and(eq(emailChangeTokens.tokenHash, sha256(token)), isNull(emailChangeTokens.usedAt), gt(emailChangeTokens.expiresAt, now())))
      .limit(1);
    return row;
  }

  return {
    async changeName(userId: string, name: { firstName: string; lastName: string }): Promise<boolean> {
      const updated = await db.update(users).set(name).where(eq(users.id, userId)).returning({ id: users.id });
      // The header's name on the next page, whichever worker answers it (decision 040).
      await sessions.settled();
      return updated.length > 0;
    },

    /** Checks the current password, sets the new one and ends every other session of the account. */
    async changePassword(userId: string, keepToken: string, current: string, next: string): Promise<"changed" | "wrong_password"> {
      const user = await userById(userId);
      if (!user || !(await verifyPassword(user.passwordHash, current))) return "wrong_password";
      const passwordHash = await hashPassword(next);
      await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
      await sessions.destroyOthersFor(userId, keepToken);
      await sessions.markPasswordEntered(keepToken);
      return "changed";
    },

    /** Sends the confirmation link to the new address and tells the old one; changes nothing yet. */
    async requestEmailChange(userId: string, newEmailInput: string, password: string): Promise<EmailChangeRequest> {
      const user = await userById(userId);
      if (!user) return { ok: false, reason: "no_account" };
      if (!(await verifyPassword(user.passwordHash, password))) return { ok: false, reason: "wrong_password" };
      const newEmail = newEmailInput.trim();
      if (lower(newEmail) === lower(user.email)) return { ok: false, reason: "same_email" };
      const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${lower(newEmail)}`).limit(1);
      if (taken) return { ok: false, reason: "email_taken" };
      const token = randomBytes(32).toString("base64url");
      const link = `${publicUrl}/account/email/confirm?token=${token}`;
      await transactionRetrying(db, async (tx) => {
        // Only the newest link works.
        await tx.update(emailChangeTokens).set({ usedAt: now() }).where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt)));
        await tx.insert(emailChangeTokens).values({ tokenHash: sha256(token), userId, newEmail, expiresAt: new Date(now().getTime() + EMAIL_CHANGE_TTL_MS), createdAt: now() });
        await enqueue(tx, { kind: "email", payload: emailChangeConfirmEmail(newEmail, user, link) }, now());
        await enqueue(tx, { kind: "email", payload: emailChangeNoticeEmail(user.email, newEmail, publicUrl) }, now());
      });
      onEnqueued?.();
      return { ok: true };
    },

    /** Whether `token` can confirm an email change for `userId` (the page before the button). */
    async checkEmailChange(token: string, userId: string): Promise<EmailChangeCheck> {
      const row = await liveToken(token);
      if (!row) return { ok: false, reason: "invalid" };
      if (row.userId !== userId) return { ok: false, reason: "other_account" };
      return { ok: true, newEmail: row.newEmail };
    },

    /** Uses the token (once) and makes the change, if it belongs to `userId`. */
    async confirmEmailChange(token: string, userId: string): Promise<EmailChangeResult> {
      try {
        const result = await transactionRetrying(db, async (tx): Promise<EmailChangeResult> => {
          const row = await liveToken(token, tx);
          if (!row) return { ok: false, reason: "invalid" };
          // Another account's link is refused and stays usable by its owner.
          if (row.userId !== userId) return { ok: false, reason: "other_account" };
          const [claimed] = await tx
            .update(emailChangeTokens)
            .set({ usedAt: now() })
            .where(and(eq(emailChangeTokens.tokenHash, row.tokenHash), isNull(emailChangeTokens.usedAt)))
            .returning({ userId: emailChangeTokens.userId });
          if (!claimed) return { ok: false, reason: "invalid" };
          const [before] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
          if (!before) return { ok: false, reason: "invalid" };
          await tx.update(users).set({ email: row.newEmail }).where(eq(users.id, userId));
          // Reset links went to the old address: none of them works any more.
          await tx.update(passwordResetTokens).set({ usedAt: now() }).where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
          // The newsletter follows the account to its new address (unless that address has its own row).
          await tx.execute(
            sql`update ${subscribers} set email = ${lower(row.newEmail)}, updated_at = ${now().toISOString()}::timestamptz
                where email = ${lower(before.email)} and not exists (select 1 from ${subscribers} s2 where s2.email = ${lower(row.newEmail)})`,
          );
          await enqueue(tx, { kind: "email", payload: emailChangeDoneEmail(before.email, row.newEmail) }, now());
          return { ok: true, newEmail: row.newEmail };
        });
        if (result.ok) await sessions.settled();
        return result;
      } catch (error) {
        // Someone took the address between the request and the confirmation.
        if (isUniqueViolation(error)) return { ok: false, reason: "email_taken" };
        throw error;
      } finally {
        onEnqueued?.();
      }
    },
  };
}

