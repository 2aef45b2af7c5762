/**
 * Staff accounts: the first admin (the `admin:create` command), invitations by email with a
 * one-time link to choose a password, role changes, deactivation, and the password asked again
 * before sensitive actions. A one-time link is a password-reset token with a longer life, so
 * the site's own reset page (/password/reset) sets the password; no default password exists.
 *
 * A member's own account is never made staff by an invitation (decision 049): she gets
 * a link to /staff/invitation, and the role is hers only when she accepts it there, signed in as
 * herself. Her ticket, payments and member page stay hers; deactivating her staff access closes
 * the console only, and she signs in as the member she is.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, max, ne, sql } from "drizzle-orm";
import type { StaffRole } from "../../app/shared/console-areas";
import type { Database } from "../db/client";
import { auditLog, passwordResetTokens, sessions, staffInvitations, users } from "../db/schema";
import { clockTimeIn } from "../../app/shared/calendar";
import { verifyPassword } from "../accounts/passwords";
import { enqueue } from "../outbox/outbox";
import { recordAudit, type Actor } from "../audit/audit-trail";
import { signInSecurityNoticeEmail, staffInvitationEmail, staffMemberInvitationEmail, type Inviter } from "../mail/templates";
import { STAFF_MESSAGES } from "../../app/shared/staff-messages";
import type { EditConflict } from "../../app/shared/edit-conflict";
import { transactionRetrying } from "../db/retrying";
import { plural } from "../../app/shared/plural";

/** How long an invitation's (or the first admin's) one-time link stays valid. */
export const INVITE_TTL_MS = 72 * 60 * 60_000;

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const normalEmail = (email: string) => email.trim().toLowerCase();
/** A password hash no password matches: the account signs in only after the one-time link. */
const NO_PASSWORD = "!no-password-set";

export interface StaffDeps {
  db: Database;
  publicUrl: string;
  now?: () => Date;
  onEnqueued?: () => void;
  /** The museum's zone, for the time of a role change another admin made (an edit conflict's message). */
  timeZone?: string;
}

export type StaffOutcome = { ok: true; message: string } | { ok: false; message: string; conflict?: EditConflict };

export interface StaffMember {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: StaffRole;
  deactivatedAt: Date | null;
  lastSeenAt: Date | null;
  /** Invited and no password chosen yet, or a member's invitation not accepted yet: the link has not been used. */
  pending: boolean;
  /** Also a member's own account: stays under Members; deactivating leaves her member access. */
  memberAccount: boolean;
  /** A member's invitation not accepted yet: `role` is the role offered, none is held. */
  invitation: boolean;
}

/** An invitation a member may accept, as /staff/invitation shows it. */
export interface OpenInvitation {
  userId: string;
  email: string;
  role: StaffRole;
}

export function createStaffService({ db, publicUrl, now = () => new Date(), onEnqueued, timeZone = "UTC" }: StaffDeps) {
  type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

  async function findByEmail(tx: Pick<Database, "select">, email: string) {
    const [row] = await tx.select().from(users).where(sql`lower(${users.email}) = ${normalEmail(email)}`).limit(1);
    return row;
  }

  /**
   * A one-time link that sets the password of `userId`, valid INVITE_TTL_MS: on /password/reset
   * (the first admin's, printed by admin:create), or on the invitation page, /staff/invitation,
   * which says what it is for and opens the console after (decision 063).
   */
  async function oneTimeLink(tx: Pick<Database, "insert">, userId: string, page: "/password/reset" | "/staff/invitation" = "/password/reset"): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await tx.insert(passwordResetTokens).values({ tokenHash: sha256(token), userId, expiresAt: new Date(now().getTime() + INVITE_TTL_MS) });
    return `${publicUrl}${page}?token=${token}`;
  }

  /** Who sends an invitation, as its email names them: their name (their email when they have none) and email. */
  async function inviterOf(tx: Pick<Database, "select">, actor: Actor): Promise<Inviter> {
    const [row] = actor.userId ? await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, actor.userId)).limit(1) : [];
    const name = row ? `${row.firstName} ${row.lastName}`.replace(/\s+/g, " ").trim() : "";
    return { name: name || actor.email, email: actor.email };
  }

  /** The invitation email (through the outbox), naming who sent it, with a fresh one-time link to the invitation page. */
  async function sendInvitation(tx: Tx, actor: Actor, user: typeof users.$inferSelect, role: StaffRole) {
    const link = await oneTimeLink(tx, user.id, "/staff/invitation");
    await enqueue(tx, { kind: "email", payload: staffInvitationEmail(user.email, user, { role, link, publicUrl, inviter: await inviterOf(tx, actor) }) }, now());
  }

  /** A member's invitation (through the outbox): a link to /staff/invitation she follows signed in as herself. */
  async function sendMemberInvitation(tx: Tx, actor: Actor, user: typeof users.$inferSelect, role: StaffRole) {
    await tx.update(staffInvitations).set({ usedAt: now() }).where(and(eq(staffInvitations.userId, user.id), isNull(staffInvitations.usedAt)));
    const token = randomBytes(32).toString("base64url");
    await tx.insert(staffInvitations).values({ tokenHash: sha256(token), userId: user.id, role, invitedBy: actor.email, expiresAt: new Date(now().getTime() + INVITE_TTL_MS) });
    const link = `${publicUrl}/staff/invitation?token=${token}`;
    await enqueue(tx, { kind: "email", payload: staffMemberInvitationEmail(user.email, user, { role, link, inviter: await inviterOf(tx, actor) }) }, now());
  }

  /** The latest invitation of a member not yet accepted, withdrawn or replaced (expired ones too: "Send again" renews them). */
  async function unusedInvitation(tx: Pick<Database, "select">, userId: string) {
    const [row] = await tx
      .select()
      .from(staffInvitations)
      .where(and(eq(staffInvitations.userId, userId), isNull(staffInvitations.usedAt)))
      .orderBy(desc(staffInvitations.createdAt))
      .limit(1);
    return row;
  }

  /** The open invitation behind `token` with its account, the row locked when `tx` locks. */
  async function openInvitation(tx: Pick<Database, "select">, token: string) {
    const [row] = await tx
      .select({ userId: users.id, email: users.email, role: staffInvitations.role, accountRole: users.role })
      .from(staffInvitations)
      .innerJoin(users, eq(users.id, staffInvitations.userId))
      .where(and(eq(staffInvitations.tokenHash, sha256(token)), isNull(staffInvitations.usedAt), gt(staffInvitations.expiresAt, now())))
      .limit(1);
    return row;
  }

  const staffView = (u: typeof users.$inferSelect) => ({ email: u.email, firstName: u.firstName, lastName: u.lastName, role: u.role, deactivatedAt: u.deactivatedAt });

  return {
    /**
     * The first admin (or an existing account made admin), for the `admin:create` command:
     * returns the one-time link that sets the password. Audited as the command.
     */
    async createAdmin(input: { email: string; firstName: string; lastName: string }): Promise<{ link: string; created: boolean; userId: string }> {
      return transactionRetrying(db, async (tx) => {
        const existing = await findByEmail(tx, input.email);
        const [user] = existing
          ? await tx.update(users).set({ role: "admin", deactivatedAt: null, memberAccount: existing.memberAccount || existing.role === "member" }).where(eq(users.id, existing.id)).returning()
          : await tx
              .insert(users)
              .values({ email: input.email.trim(), firstName: input.firstName, lastName: input.lastName, passwordHash: NO_PASSWORD, role: "admin" })
              .returning();
        const link = await oneTimeLink(tx, user.id);
        await recordAudit(
          tx,
          { userId: null, email: "npm run admin:create" },
          { action: existing ? "staff.role" : "staff.create", entityType: "staff", entityId: user.id, summary: `${user.email} made admin from the command line`, before: existing ? staffView(existing) : undefined, after: staffView(user) },
          now(),
        );
        return { link, created: !existing, userId: user.id };
      });
    },

    async list(): Promise<StaffMember[]> {
      const rows = await db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          role: users.role,
          deactivatedAt: users.deactivatedAt,
          lastSeenAt: max(sessions.lastSeenAt),
          pending: sql<boolean>`${users.passwordHash} = ${NO_PASSWORD}`,
          memberAccount: users.memberAccount,
          invitation: sql<boolean>`false`,
        })
        .from(users)
        .leftJoin(sessions, eq(sessions.userId, users.id))
        .where(inArray(users.role, ["curator", "admin"]))
        .groupBy(users.id)
        .orderBy(desc(users.role), users.email);
      // Members invited and not accepted yet: listed with the role offered, holding none.
      const invited = await db
        .selectDistinctOn([staffInvitations.userId], {
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          role: staffInvitations.role,
        })
        .from(staffInvitations)
        .innerJoin(users, eq(users.id, staffInvitations.userId))
        .where(and(isNull(staffInvitations.usedAt), eq(users.role, "member")))
        .orderBy(staffInvitations.userId, desc(staffInvitations.createdAt));
      return [
        ...(rows as StaffMember[]),
        ...invited
          .map((r) => ({ ...r, deactivatedAt: null, lastSeenAt: null, pending: true, memberAccount: true, invitation: true }))
          .sort((a, b) => a.email.localeCompare(b.email)),
      ];
    },

    /**
     * Invites a staff member: a new account without a password gets the role, and the email
     * (through the outbox) carries the one-time link to choose it. A member's own account gets
     * an invitation to accept instead, and nothing about it changes until she does.
     */
    async invite(actor: Actor, input: { email: string; firstName: string; lastName: string; role: StaffRole }): Promise<StaffOutcome> {
      const result = await transactionRetrying(db, async (tx: Tx) => {
        const existing = await findByEmail(tx, input.email);
        if (existing && existing.role !== "member") return { ok: false as const, message: `${existing.email} is already on the staff.` };
        if (existing) {
          await sendMemberInvitation(tx, actor, existing, input.role);
          await recordAudit(tx, actor, { action: "staff.invite", entityType: "staff", entityId: existing.id, summary: `Invited member ${existing.email} to accept ${input.role} access` }, now());
          return { ok: true as const, message: STAFF_MESSAGES.memberInvited(existing.email) };
        }
        const [user] = await tx
          .insert(users)
          .values({ email: input.email.trim(), firstName: input.firstName, lastName: input.lastName, passwordHash: NO_PASSWORD, role: input.role })
          .returning();
        await sendInvitation(tx, actor, user, input.role);
        await recordAudit(tx, actor, { action: "staff.invite", entityType: "staff", entityId: user.id, summary: `Invited ${user.email} as ${input.role}`, after: staffView(user) }, now());
        return { ok: true as const, message: STAFF_MESSAGES.invitationSent(user.email) };
      });
      if (result.ok) onEnqueued?.();
      return result;
    },

    /**
     * Sends a pending invitation again: a new one-time link (the earlier ones stop working) by
     * email through the outbox, audited. Only for staff who have not chosen a password yet.
     */
    async resendInvitation(actor: Actor, userId: string): Promise<StaffOutcome> {
      const result = await transactionRetrying(db, async (tx: Tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
        const invitation = user?.role === "member" ? await unusedInvitation(tx, user.id) : undefined;
        if (user && invitation) {
          await sendMemberInvitation(tx, actor, user, invitation.role);
          await recordAudit(tx, actor, { action: "staff.invite", entityType: "staff", entityId: user.id, summary: `Sent the invitation to member ${user.email} again` }, now());
          return { ok: true as const, message: `Invitation sent again to ${user.email}.` };
        }
        if (!user || user.role === "member") return { ok: false as const, message: "No such staff member." };
        if (user.passwordHash !== NO_PASSWORD) return { ok: false as const, message: `${user.email} has already chosen a password: there is no invitation to send again.` };
        if (user.deactivatedAt) return { ok: false as const, message: `${user.email} is deactivated: reactivate the account first.` };
        await tx.update(passwordResetTokens).set({ usedAt: now() }).where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
        await sendInvitation(tx, actor, user, user.role as StaffRole);
        await recordAudit(tx, actor, { action: "staff.invite", entityType: "staff", entityId: user.id, summary: `Sent the invitation to ${user.email} again` }, now());
        return { ok: true as const, message: `Invitation sent again to ${user.email}.` };
      });
      if (result.ok) onEnqueued?.();
      return result;
    },

    /** Withdraws a member's invitation not accepted yet: its link stops working. */
    async withdrawInvitation(actor: Actor, userId: string): Promise<StaffOutcome> {
      return transactionRetrying(db, async (tx: Tx) => {
        const withdrawn = await tx
          .update(staffInvitations)
          .set({ usedAt: now() })
          .where(and(eq(staffInvitations.userId, userId), isNull(staffInvitations.usedAt)))
          .returning({ userId: staffInvitations.userId });
        const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
        if (!user || withdrawn.length === 0) return { ok: false, message: "There is no invitation to withdraw." };
        await recordAudit(tx, actor, { action: "staff.withdraw", entityType: "staff", entityId: userId, summary: `Withdrew the invitation to ${user.email}` }, now());
        return { ok: true, message: STAFF_MESSAGES.invitationWithdrawn(user.email) };
      });
    },

    /** The open invitation behind an emailed token (not used, withdrawn, replaced or expired), or null. */
    /**
     * The state of a new staff member's invitation link (a one-time password link of a staff
     * account), checked as the page opens, spending nothing: usable (with the account), used (the
     * password was chosen with it), replaced (a newer invitation was sent), expired, or unknown
     * (no such link, or one of a member's account: a password reset, not an invitation).
     */
    async passwordInvitation(token: string): Promise<{ state: "usable"; email: string; role: StaffRole } | { state: "used" | "replaced" | "expired" | "unknown" }> {
      const [row] = await db
        .select({ usedAt: passwordResetTokens.usedAt, expiresAt: passwordResetTokens.expiresAt, email: users.email, role: users.role, passwordHash: users.passwordHash, deactivatedAt: users.deactivatedAt })
        .from(passwordResetTokens)
        .innerJoin(users, eq(users.id, passwordResetTokens.userId))
        .where(eq(passwordResetTokens.tokenHash, sha256(token)))
        .limit(1);
      if (!row || row.role === "member" || row.deactivatedAt) return { state: "unknown" };
      if (row.usedAt) return { state: row.passwordHash === NO_PASSWORD ? "replaced" : "used" };
      if (row.expiresAt.getTime() <= now().getTime()) return { state: "expired" };
      return { state: "usable", email: row.email, role: row.role as StaffRole };
    },

    async checkInvitation(token: string): Promise<OpenInvitation | null> {
      const row = await openInvitation(db, token);
      return row ? { userId: row.userId, email: row.email, role: row.role } : null;
    },

    /**
     * A member accepts her invitation, signed in as herself (`userId`): the role is hers from now
     * on, her account stays a member's, and her sessions count their idle time from now (a staff
     * session ends after 30 minutes idle, and she may have been signed in for days). Audited as her.
     */
    async acceptInvitation(token: string, userId: string): Promise<{ ok: true; role: StaffRole } | { ok: false; reason: "invalid" | "other_account" }> {
      return transactionRetrying(db, async (tx: Tx) => {
        const invitation = await openInvitation(tx, token);
        if (!invitation) return { ok: false, reason: "invalid" };
        if (invitation.userId !== userId) return { ok: false, reason: "other_account" };
        const [before] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
        await tx.update(staffInvitations).set({ usedAt: now() }).where(and(eq(staffInvitations.userId, userId), isNull(staffInvitations.usedAt)));
        // Someone on the staff already (an admin made her staff meanwhile) keeps the role she has.
        if (before.role !== "member") return { ok: true, role: before.role as StaffRole };
        const [after] = await tx.update(users).set({ role: invitation.role, memberAccount: true, deactivatedAt: null }).where(eq(users.id, userId)).returning();
        await tx.update(sessions).set({ lastSeenAt: now() }).where(eq(sessions.userId, userId));
        await recordAudit(
          tx,
          { userId, email: after.email },
          { action: "staff.accept", entityType: "staff", entityId: userId, summary: `${after.email} accepted ${invitation.role} access`, before: staffView(before), after: staffView(after) },
          now(),
        );
        return { ok: true, role: invitation.role };
      });
    },

    /**
     * Changes a staff member's role (never one's own, so the admin making the change remains).
     * `fromRole` is the role the page showed (decision 029): when someone else changed it since,
     * nothing is changed and the answer says to what, by whom and when (the audit log's last
     * role change), with the choice "keep mine" / "take theirs" for the one field.
     */
    async changeRole(actor: Actor, userId: string, role: StaffRole, fromRole?: string): Promise<StaffOutcome> {
      if (userId === actor.userId) return { ok: false, message: "You cannot change your own role." };
      return transactionRetrying(db, async (tx: Tx) => {
        const [before] = await tx.select().from(users).where(and(eq(users.id, userId), ne(users.role, "member"))).for("update");
        if (!before) return { ok: false, message: "No such staff member." };
        if (before.role === role) return { ok: true, message: `${before.email} is already ${role}.` };
        if (fromRole !== undefined && fromRole !== before.role) {
          const [last] = await tx
            .select({ by: auditLog.actorEmail, at: auditLog.at })
            .from(auditLog)
            .where(and(eq(auditLog.entityType, "staff"), eq(auditLog.entityId, userId), inArray(auditLog.action, ["staff.role", "staff.invite", "staff.create"])))
            .orderBy(desc(auditLog.at))
            .limit(1);
          const who = last ? ` (changed by ${last.by} at ${clockTimeIn(timeZone, last.at)})` : "";
          return {
            ok: false,
            message: `Someone else changed the role of ${before.email} while you were looking. Nothing was changed: you chose ${role}; it is now ${before.role}${who}. Keep yours or take theirs, then change the role.`,
            conflict: { version: before.role, fields: [{ field: "role", mine: role, theirs: before.role }] },
          };
        }
        const [after] = await tx.update(users).set({ role }).where(eq(users.id, userId)).returning();
        await recordAudit(tx, actor, { action: "staff.role", entityType: "staff", entityId: userId, summary: `${after.email}: ${before.role} → ${role}`, before: staffView(before), after: staffView(after) }, now());
        return { ok: true, message: `${after.email} is now ${role}.` };
      });
    },

    /**
     * Deactivates a staff account: it can no longer open the console. An account that is not a
     * member's loses its sessions at once; a member's keeps them, as the member she is again.
     */
    async setActive(actor: Actor, userId: string, active: boolean): Promise<StaffOutcome> {
      if (userId === actor.userId) return { ok: false, message: "You cannot deactivate your own account." };
      return transactionRetrying(db, async (tx: Tx) => {
        const [before] = await tx.select().from(users).where(and(eq(users.id, userId), ne(users.role, "member"))).for("update");
        if (!before) return { ok: false, message: "No such staff member." };
        const [after] = await tx.update(users).set({ deactivatedAt: active ? null : now() }).where(eq(users.id, userId)).returning();
        if (!active && !before.memberAccount) await tx.delete(sessions).where(eq(sessions.userId, userId));
        await recordAudit(
          tx,
          actor,
          { action: active ? "staff.reactivate" : "staff.deactivate", entityType: "staff", entityId: userId, summary: `${active ? "Reactivated" : "Deactivated"} ${after.email}`, before: staffView(before), after: staffView(after) },
          now(),
        );
        if (active) return { ok: true, message: `${after.email} reactivated.` };
        return { ok: true, message: before.memberAccount ? STAFF_MESSAGES.deactivatedMember(after.email) : STAFF_MESSAGES.deactivated(after.email) };
      });
    },

    /** Ends every session of a staff account (leaving, a lost laptop), in the audit log and told to the person (decision 055). */
    async endSessions(actor: Actor, userId: string): Promise<StaffOutcome> {
      if (userId === actor.userId) return { ok: false, message: "Your own sessions are ended from Sign-in and security." };
      const outcome = await transactionRetrying(db, async (tx: Tx) => {
        const [who] = await tx.select().from(users).where(and(eq(users.id, userId), ne(users.role, "member"))).limit(1);
        if (!who) return { ok: false as const, message: "No such staff member." };
        const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ userId: sessions.userId });
        await tx.update(users).set({ sessionsEndedAt: now() }).where(eq(users.id, userId));
        await recordAudit(tx, actor, { action: "staff.end_sessions", entityType: "staff", entityId: userId, summary: `Ended ${plural(ended.length, "session")} of ${who.email}` }, now());
        await enqueue(tx, { kind: "email", payload: signInSecurityNoticeEmail(who.email, who, `Every session of your staff account was ended by ${actor.email}. Sign in again to go on.`) }, now());
        return { ok: true as const, message: `${who.email} is logged out everywhere (${plural(ended.length, "session")} ended).` };
      });
      if (outcome.ok) onEnqueued?.();
      return outcome;
    },

    /** Whether `password` is this account's password (the re-authentication before sensitive actions). */
    async checkPassword(userId: string, password: string): Promise<boolean> {
      const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
      return row ? verifyPassword(row.hash, password) : false;
    },
  };
}

