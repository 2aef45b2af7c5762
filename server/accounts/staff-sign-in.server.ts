/**
 * Staff sign-in's second step (decision 055). A staff account's correct password does
 * not start a session by itself: it starts a sign-in step (a short-lived cookie), finished by
 *
 * - a code from the authenticator app (TOTP, RFC 6238, via `otpauth`; each 30-second step's code
 *   is accepted once) or one of the ten single-use recovery codes, when the account has an app;
 * - a passkey (server/accounts/passkeys.server.ts), when it has one;
 * - else, on a browser this account has not finished a sign-in on, a six-digit code emailed to
 *   the account (as Ghost does). A browser it has finished one on signs in with the password.
 *
 * Wrong codes are slowed down per account and per address (the login's own slow-down rule), a
 * step ends after five of them, and every factor change is in the audit log and mailed to the
 * person. The app's secret is sealed with SECRETS_KEY; recovery and emailed codes are kept as
 * keyed hashes only.
 */
import { createHmac, randomBytes, randomInt } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import { SITE_SHORT_NAME } from "../../app/shared/site";
import { SIGN_IN_MESSAGES } from "../../app/shared/staff-sign-in-words";
import type { Database } from "../db/client";
import { knownDevices, passkeys, recoveryCodes, signInSteps, siteSettings, totpFactors, users } from "../db/schema";
import { recordAudit, type Actor } from "../audit/audit-trail";
import { enqueue } from "../outbox/outbox";
import { signInCodeEmail, signInSecurityNoticeEmail } from "../mail/templates";
import { clientKey, createSlowDown, type SlowDownRule } from "../security/throttle";
import { transactionRetrying } from "../db/retrying";
import { LOGIN_SLOWDOWN } from "./accounts-service";
import type { SecretBox } from "./secret-box";

/** How long a sign-in step (password given, second factor not yet) lasts. */
export const SIGN_IN_STEP_MS = 10 * 60_000;
/** Wrong codes on one step before it ends (the password is asked again). */
export const STEP_MAX_FAILURES = 5;
/** A new emailed code may be asked for this long after the last one. */
export const EMAIL_CODE_RESEND_MS = 60_000;
export const RECOVERY_CODE_COUNT = 10;
/** How long an app's setup (QR code shown, code not yet typed) stays valid. */
const APP_SETUP_MS = 30 * 60_000;
/** The device cookie's life: a browser stays known for 400 days after its last sign-in. */
export const DEVICE_DAYS = 400;
const REQUIREMENT_KEY = "staff_second_factor_required";

/** Wrong codes per account and per address: the login's rule (five at once, then 1, 2, 4, 8 min, then every 15 min). */
export const CODE_SLOWDOWN: SlowDownRule = { ...LOGIN_SLOWDOWN, name: "second-factor" };

export type CodeCheck = "ok" | "wrong" | "used" | "throttled";

export interface StaffSignInDeps {
  db: Database;
  /** The session secret: keys the hashes of steps' tokens, device tokens and codes. */
  secret: string;
  /** Null when SECRETS_KEY is missing where it must be set: no app can be set up. */
  secretBox: SecretBox | null;
  now: () => Date;
  onEnqueued?: () => void;
  relaxedLimits?: boolean;
}

export interface SignInStep {
  /** Null for a passkey sign-in's step: the passkey says whose account it is. */
  userId: string | null;
  purpose: "sign-in" | "passkey" | "register" | "confirm";
  challenge: string | null;
  emailSentAt: Date | null;
  redirectTo: string | null;
  failures: number;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}

export interface FactorSummary {
  app: boolean;
  recoveryCodesLeft: number;
  passkeys: { id: string; name: string; createdAt: Date; lastUsedAt: Date | null }[];
}

/** A new authenticator app being set up: shown as a QR code and as text, confirmed by a code from it. */
export interface AppSetup {
  secret: string;
  uri: string;
  qrSvg: string;
  /** The secret sealed for this account, carried by the setup form and opened when the code is checked. */
  sealed: string;
}

const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function recoveryCode(): string {
  let code = "";
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What a person typed as a code: digits for the app and emailed codes, letters and digits for recovery codes. */
export function normalCode(typed: string): string {
  return typed.toLowerCase().replace(/[\s-]/g, "");
}

export function createStaffSignIn({ db, secret, secretBox, now, onEnqueued, relaxedLimits = false }: StaffSignInDeps) {
  const keyed = (kind: string, value: string) => createHmac("sha256", secret).update(`${kind}:${value}`).digest("base64url");
  const slowDown = createSlowDown(db, CODE_SLOWDOWN, relaxedLimits, now);
  /** Recovery codes are keyed by SECRETS_KEY (they travel with the app's sealed secret); without it there are none. */
  const recoveryHash = (code: string) => (secretBox ? secretBox.keyedHash(`recovery:${code}`) : "");
  const totpFor = (label: string, base32: string) =>
    new OTPAuth.TOTP({ issuer: SITE_SHORT_NAME, label, algorithm: "SHA1", digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(base32) });

  async function person(from: Pick<Database, "select">, userId: string) {
    const [row] = await from.select({ email: users.email, firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, userId)).limit(1);
    return row;
  }

  /** Audit row and email for a change of the person's sign-in factors. */
  async function recordChange(tx: Database, userId: string, actor: Actor, action: string, summary: string, notice: string, entityType: "staff" | "member" = "staff") {
    const who = await person(tx, userId);
    await recordAudit(tx, actor, { action, entityType, entityId: userId, summary }, now());
    if (who) await enqueue(tx, { kind: "email", payload: signInSecurityNoticeEmail(who.email, who, notice) }, now());
  }

  /** The slow-down keys of a code attempt: the account's and the address's. */
  const limitKeys = (userId: string, ip: string | undefined) => [`account|${userId}`, `ip|${clientKey(ip)}`];

  async function limited(userId: string, ip: string | undefined): Promise<boolean> {
    let refused = false;
    for (const key of limitKeys(userId, ip)) if (!(await slowDown.attempt(key)).allowed) refused = true;
    return refused;
  }

  async function checkAppCode(userId: string, code: string): Promise<CodeCheck> {
    if (!secretBox || !/^\d{6}$/.test(code)) return "wrong";
    const [factor] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
    const base32 = factor && secretBox.open(factor.secretSealed, userId);
    if (!base32) return "wrong";
    const at = now().getTime();
    const delta = totpFor("", base32).validate({ token: code, timestamp: at, window: 1 });
    if (delta === null) return "wrong";
    const step = Math.floor(at / 30_000) + delta;
    // Accepted once: only a step later than the last accepted one moves it on.
    const moved = await db
      .update(totpFactors)
      .set({ lastStep: step })
      .where(and(eq(totpFactors.userId, userId), lt(totpFactors.lastStep, step)))
      .returning({ userId: totpFactors.userId });
    return moved.length ? "ok" : "used";
  }

  async function spendRecoveryCode(userId: string, code: string): Promise<CodeCheck> {
    if (!secretBox || !/^[a-z0-9]{10}$/.test(code)) return "wrong";
    const codeHash = recoveryHash(code);
    return transactionRetrying(db, async (txn) => {
      const tx = txn as unknown as Database;
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: now() })
        .where(and(eq(recoveryCodes.codeHash, codeHash), eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
        .returning({ codeHash: recoveryCodes.codeHash });
      if (!used.length) return "wrong" as const;
      const [{ left }] = await tx
        .select({ left: sql<number>`count(*)::int` })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      await recordChange(tx, userId, { userId, email: (await person(tx, userId))?.email ?? "" }, "staff.recovery_code_used", `Recovery code used (${left} left)`, `A recovery code was used to sign in to your staff account. ${left} of your recovery codes are left.`);
      return "ok" as const;
    });
  }

  /** A setup's secret as its form carries it sealed, while the setup lasts (30 minutes). */
  function openedSetup(userId: string, sealed: string): string | null {
    const [base32, started] = secretBox?.open(sealed, `setup:${userId}`)?.split("|") ?? [];
    return base32 && now().getTime() - Number(started) < APP_SETUP_MS ? base32 : null;
  }

  async function shownSetup(label: string, base32: string, sealed: string): Promise<AppSetup> {
    const uri = totpFor(label, base32).toString();
    return { secret: base32, uri, qrSvg: await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" }), sealed };
  }

  async function stepRow(token: string | undefined) {
    if (!token || token.length > 200) return undefined;
    const [row] = await db
      .select({ step: signInSteps, email: users.email, firstName: users.firstName, lastName: users.lastName })
      .from(signInSteps)
      .leftJoin(users, eq(users.id, signInSteps.userId))
      .where(and(eq(signInSteps.tokenHash, keyed("step", token)), gt(signInSteps.expiresAt, now())))
      .limit(1);
    return row;
  }

  const service = {
    /** Whether the owner requires an app or a passkey of every staff account. */
    async required(): Promise<boolean> {
      const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, REQUIREMENT_KEY)).limit(1);
      return row?.value === true;
    },

    async setRequired(actor: Actor, required: boolean): Promise<void> {
      await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        await tx
          .insert(siteSettings)
          .values({ key: REQUIREMENT_KEY, value: required, updatedAt: now(), updatedBy: actor.email })
          .onConflictDoUpdate({ target: siteSettings.key, set: { value: required, updatedAt: now(), updatedBy: actor.email } });
        await recordAudit(
          tx,
          actor,
          { action: required ? "staff.second_step_required" : "staff.second_step_optional", entityType: "staff", entityId: null, summary: required ? "Required an authenticator app or a passkey of every staff account" : "Stopped requiring an authenticator app or a passkey of staff", before: { required: !required }, after: { required } },
          now(),
        );
      });
    },

    async factors(userId: string): Promise<FactorSummary> {
      const [app] = await db.select({ userId: totpFactors.userId }).from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
      const [{ left }] = await db
        .select({ left: sql<number>`count(*)::int` })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      const keys = await db
        .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
        .orderBy(passkeys.createdAt);
      return { app: Boolean(app), recoveryCodesLeft: left, passkeys: keys };
    },

    /** The accounts that have an app or a passkey (the Staff page's "Second step" column). */
    async usersWithStrongFactor(): Promise<Set<string>> {
      const apps = await db.select({ userId: totpFactors.userId }).from(totpFactors);
      const keys = await db.selectDistinct({ userId: passkeys.userId }).from(passkeys);
      return new Set([...apps, ...keys].map((r) => r.userId));
    },

    /** An app or a passkey: what the owner's requirement asks for, and what replaces the emailed code. */
    async hasStrongFactor(userId: string): Promise<boolean> {
      const f = await service.factors(userId);
      return f.app || f.passkeys.length > 0;
    },

    /** A new secret for an authenticator app, not kept until a code from the app confirms it. */
    async beginApp(userId: string, label: string): Promise<AppSetup | null> {
      if (!secretBox) return null;
      const base32 = new OTPAuth.Secret({ size: 20 }).base32;
      return shownSetup(label, base32, secretBox.seal(`${base32}|${now().getTime()}`, `setup:${userId}`));
    },

    /** The QR code and text of a setup under way again (its code was refused), or null when it is no longer valid. */
    async reopenApp(userId: string, label: string, sealed: string): Promise<AppSetup | null> {
      const base32 = openedSetup(userId, sealed);
      return base32 ? shownSetup(label, base32, sealed) : null;
    },

    /**
     * Keeps the app whose secret `sealed` holds when `code` is its current code; answers the ten
     * new recovery codes (shown once; any earlier ones stop working).
     */
    async confirmApp(userId: string, actor: Actor, sealed: string, typed: string): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; message: string }> {
      if (!secretBox) return { ok: false, message: SIGN_IN_MESSAGES.noSecretsKey };
      const base32 = openedSetup(userId, sealed);
      if (!base32) return { ok: false, message: SIGN_IN_MESSAGES.setupExpired };
      const code = normalCode(typed);
      const at = now().getTime();
      const delta = /^\d{6}$/.test(code) ? totpFor("", base32).validate({ token: code, timestamp: at, window: 1 }) : null;
      if (delta === null) return { ok: false, message: SIGN_IN_MESSAGES.wrongCode };
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
      await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        const values = { userId, secretSealed: secretBox.seal(base32, userId), lastStep: Math.floor(at / 30_000) + delta, createdAt: now() };
        await tx.insert(totpFactors).values(values).onConflictDoUpdate({ target: totpFactors.userId, set: values });
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryHash(normalCode(c)), createdAt: now() })));
        await recordChange(tx, userId, actor, "staff.app_added", "Authenticator app set up (10 new recovery codes)", "An authenticator app was set up for your staff account, with ten new recovery codes.");
      });
      onEnqueued?.();
      return { ok: true, recoveryCodes: codes };
    },

    /** Ten new recovery codes in place of the old ones (the app stays); null without SECRETS_KEY. */
    async renewRecoveryCodes(userId: string, actor: Actor): Promise<string[] | null> {
      if (!secretBox) return null;
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
      await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: recoveryHash(normalCode(c)), createdAt: now() })));
        await recordChange(tx, userId, actor, "staff.recovery_codes_renewed", "Recovery codes renewed", "New recovery codes were made for your staff account; the earlier ones no longer work.");
      });
      onEnqueued?.();
      return codes;
    },

    async removeApp(userId: string, actor: Actor): Promise<void> {
      await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        const removed = await tx.delete(totpFactors).where(eq(totpFactors.userId, userId)).returning({ userId: totpFactors.userId });
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        if (removed.length) await recordChange(tx, userId, actor, "staff.app_removed", "Authenticator app removed", "The authenticator app was removed from your staff account, with its recovery codes.");
      });
      onEnqueued?.();
    },

    /** Passkey changes are recorded and mailed the same way (passkeys.server.ts calls this in its transaction). */
    recordChange,

    /**
     * A code typed at a second step or before a sensitive act: the app's current code or an
     * unused recovery code. Slowed down per account and per address first.
     */
    async checkCode(userId: string, typed: string, ip: string | undefined): Promise<CodeCheck> {
      if (await limited(userId, ip)) return "throttled";
      const code = normalCode(typed);
      const result = code.length === 6 ? await checkAppCode(userId, code) : await spendRecoveryCode(userId, code);
      if (result === "ok") for (const key of limitKeys(userId, ip)) await slowDown.clear(key);
      if (result === "ok") onEnqueued?.();
      return result;
    },

    // ---- sign-in steps ------------------------------------------------------------------

    /** Starts a step for `userId` (password given; null for a passkey sign-in); answers the token for its cookie. */
    async startStep(userId: string | null, purpose: SignInStep["purpose"], redirectTo: string | null = null, challenge: string | null = null): Promise<string> {
      const token = randomBytes(32).toString("base64url");
      await db.delete(signInSteps).where(lt(signInSteps.expiresAt, now()));
      await db.insert(signInSteps).values({ tokenHash: keyed("step", token), userId, purpose, redirectTo, challenge, expiresAt: new Date(now().getTime() + SIGN_IN_STEP_MS), createdAt: now() });
      return token;
    },

    /** The step a cookie holds, while it lasts. */
    async step(token: string | undefined): Promise<SignInStep | null> {
      const row = await stepRow(token);
      if (!row) return null;
      const { step } = row;
      return { userId: step.userId, purpose: step.purpose, challenge: step.challenge, emailSentAt: step.emailSentAt, redirectTo: step.redirectTo, failures: step.failures, email: row.email, firstName: row.firstName, lastName: row.lastName };
    },

    async setChallenge(token: string, challenge: string): Promise<void> {
      await db.update(signInSteps).set({ challenge }).where(eq(signInSteps.tokenHash, keyed("step", token)));
    },

    async endStep(token: string): Promise<void> {
      await db.delete(signInSteps).where(eq(signInSteps.tokenHash, keyed("step", token)));
    },

    /** Counts a wrong code on the step; true when that was its last (the step is ended). */
    async stepFailed(token: string): Promise<boolean> {
      const [row] = await db
        .update(signInSteps)
        .set({ failures: sql`${signInSteps.failures} + 1` })
        .where(eq(signInSteps.tokenHash, keyed("step", token)))
        .returning({ failures: signInSteps.failures });
      if (row && row.failures < STEP_MAX_FAILURES) return false;
      await service.endStep(token);
      return true;
    },

    /** Emails a new six-digit code for the step (not more than once a minute). */
    async sendEmailCode(token: string): Promise<"sent" | "wait" | "ended"> {
      const row = await stepRow(token);
      if (!row?.email || row.step.purpose !== "sign-in") return "ended";
      const to = { email: row.email, firstName: row.firstName ?? "", lastName: row.lastName ?? "" };
      if (row.step.emailSentAt && now().getTime() - row.step.emailSentAt.getTime() < EMAIL_CODE_RESEND_MS) return "wait";
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        await tx.update(signInSteps).set({ emailCodeHash: keyed("email", code), emailSentAt: now() }).where(eq(signInSteps.tokenHash, keyed("step", token)));
        await enqueue(tx, { kind: "email", payload: signInCodeEmail(to.email, to, code) }, now());
      });
      onEnqueued?.();
      return "sent";
    },

    /** The emailed code of the step: accepted once (the step ends when the sign-in finishes). */
    async checkEmailCode(token: string, typed: string, ip: string | undefined): Promise<CodeCheck> {
      const row = await stepRow(token);
      if (!row?.step.emailCodeHash || !row.step.userId) return "wrong";
      if (await limited(row.step.userId, ip)) return "throttled";
      const code = normalCode(typed);
      if (!/^\d{6}$/.test(code)) return "wrong";
      const taken = await db
        .update(signInSteps)
        .set({ emailCodeHash: null })
        .where(and(eq(signInSteps.tokenHash, keyed("step", token)), eq(signInSteps.emailCodeHash, keyed("email", code))))
        .returning({ userId: signInSteps.userId });
      if (!taken.length) return "wrong";
      for (const key of limitKeys(row.step.userId, ip)) await slowDown.clear(key);
      return "ok";
    },

    // ---- known devices ------------------------------------------------------------------

    async isKnownDevice(userId: string, deviceToken: string | undefined): Promise<boolean> {
      if (!deviceToken || deviceToken.length > 200) return false;
      const [row] = await db
        .select({ userId: knownDevices.userId })
        .from(knownDevices)
        .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, keyed("device", deviceToken)), gt(knownDevices.lastSeenAt, new Date(now().getTime() - DEVICE_DAYS * 86_400_000))))
        .limit(1);
      return Boolean(row);
    },

    /** Notes the browser as known to `userId`; answers its device token (a new one when it had none). */
    async rememberDevice(userId: string, deviceToken: string | undefined): Promise<string> {
      const token = deviceToken && /^[A-Za-z0-9_-]{20,200}$/.test(deviceToken) ? deviceToken : randomBytes(32).toString("base64url");
      const deviceHash = keyed("device", token);
      await db.insert(knownDevices).values({ userId, deviceHash, createdAt: now(), lastSeenAt: now() }).onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.deviceHash], set: { lastSeenAt: now() } });
      return token;
    },

    /** The recovery command (`admin:create --remove-factors`): every factor and known device of the account gone. */
    async removeEveryFactor(userId: string, actor: Actor): Promise<void> {
      await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.delete(passkeys).where(eq(passkeys.userId, userId));
        await tx.delete(knownDevices).where(eq(knownDevices.userId, userId));
        await recordChange(tx, userId, actor, "staff.factors_removed", "Every sign-in factor removed from the machine (recovery command)", "Every authenticator app, passkey and recovery code of your staff account was removed by the recovery command on the site's machine.");
      });
      onEnqueued?.();
    },
  };
  return service;
}

