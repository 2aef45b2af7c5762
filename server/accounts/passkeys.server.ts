/**
 * Passkeys (WebAuthn, decision 056) through `@simplewebauthn/server`: a staff member's second
 * step or whole sign-in, and an extra way in for members (their password keeps working).
 *
 * Each ceremony's challenge is kept on a sign-in step (server/accounts/staff-sign-in.server.ts,
 * the `museum_signin` cookie) and checked once: the step ends with the ceremony. Only the
 * credential's public key, its signature counter and its transports are stored. A sign-in asks
 * the authenticator to verify the person (PIN, fingerprint, face): a passkey is then a
 * possession and a knowledge or a body factor at once, which is why it finishes a staff sign-in
 * by itself. Every added or removed passkey is in the audit log and mailed to the person.
 */
import { and, eq } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import { SITE_SHORT_NAME } from "../../app/shared/site";
import { actingRole } from "../../app/shared/console-areas";
import type { Database } from "../db/client";
import { passkeys, users } from "../db/schema";
import { transactionRetrying } from "../db/retrying";
import type { Actor } from "../audit/audit-trail";
import type { createStaffSignIn } from "./staff-sign-in.server";

/** Where the ceremony runs: the relying party's id (a domain) and the page's origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** A passkey's name as shown in lists: what the person typed, else what made it. */
export const PASSKEY_NAME_MAX = 60;
/** How long the browser waits for the person (milliseconds). */
const CEREMONY_TIMEOUT_MS = 120_000;

/**
 * The relying party for a request. On a public address it is PUBLIC_URL's host. A site opened on
 * a loopback address (development, the tests) is a passkey's only on `localhost`, which WebAuthn
 * accepts without https; an IP address is never a relying party id.
 */
export function relyingParty(publicUrl: string, request: Request): RelyingParty {
  const site = new URL(publicUrl);
  const loopback = site.hostname === "localhost" || site.hostname === "127.0.0.1" || site.hostname === "[::1]";
  if (!loopback) return { id: site.hostname, origin: site.origin };
  const asked = new URL(request.url);
  return { id: "localhost", origin: `${asked.protocol}//localhost${asked.port ? `:${asked.port}` : ""}` };
}

const transportsOf = (stored: string | null) => (stored ? (stored.split(",") as AuthenticatorTransport[]) : undefined);

export interface PasskeyDeps {
  db: Database;
  staffSignIn: ReturnType<typeof createStaffSignIn>;
  now: () => Date;
}

export function createPasskeys({ db, staffSignIn, now }: PasskeyDeps) {
  async function account(userId: string) {
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    return user;
  }
  const kindOf = (user: typeof users.$inferSelect) => (actingRole(user) === "member" ? ("member" as const) : ("staff" as const));

  return {
    /** Options for adding a passkey to the account (none it already has); null for no account. */
    async registrationOptions(userId: string, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON | null> {
      const user = await account(userId);
      if (!user) return null;
      const existing = await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
      return generateRegistrationOptions({
        rpName: SITE_SHORT_NAME,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: `${user.firstName} ${user.lastName}`,
        userID: isoBase64URL.toBuffer(isoBase64URL.fromUTF8String(user.id)),
        attestationType: "none",
        timeout: CEREMONY_TIMEOUT_MS,
        excludeCredentials: existing.map((k) => ({ id: k.id, transports: transportsOf(k.transports) })),
        // A discoverable credential: it can sign in without the email typed first.
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
      });
    },

    /** Checks the browser's new credential against the challenge and keeps it. */
    async register(userId: string, actor: Actor, response: RegistrationResponseJSON, challenge: string, rp: RelyingParty, name: string): Promise<boolean> {
      const user = await account(userId);
      if (!user) return false;
      const verified = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true }).catch(() => null);
      if (!verified?.verified) return false;
      const { credential } = verified.registrationInfo;
      const kind = kindOf(user);
      const label = name.trim().slice(0, PASSKEY_NAME_MAX) || "Passkey";
      const added = await transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        const rows = await tx
          .insert(passkeys)
          .values({ id: credential.id, userId, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports?.join(",") ?? null, name: label, createdAt: now() })
          .onConflictDoNothing()
          .returning({ id: passkeys.id });
        if (!rows.length) return false;
        await staffSignIn.recordChange(tx, userId, actor, `${kind}.passkey_added`, `Added the passkey "${label}"`, `A passkey named "${label}" was added to your account. It can now sign you in.`, kind);
        return true;
      });
      return added;
    },

    /** Options for a sign-in: any passkey of this site (userId null), or one of the account's. */
    async authenticationOptions(userId: string | null, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const allow = userId ? await db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId)) : [];
      return generateAuthenticationOptions({
        rpID: rp.id,
        timeout: CEREMONY_TIMEOUT_MS,
        userVerification: "required",
        allowCredentials: allow.map((k) => ({ id: k.id, transports: transportsOf(k.transports) })),
      });
    },

    /**
     * The account the browser's signature proves, when it answers the challenge with a passkey
     * this site keeps (of `userId` when given), verified by the person; else null. A signature
     * counter that went backwards (a cloned authenticator) is refused.
     */
    async authenticate(response: AuthenticationResponseJSON, challenge: string, rp: RelyingParty, userId: string | null): Promise<string | null> {
      if (typeof response?.id !== "string" || response.id.length > 1024) return null;
      const [key] = await db.select().from(passkeys).where(eq(passkeys.id, response.id)).limit(1);
      if (!key || (userId && key.userId !== userId)) return null;
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
        credential: { id: key.id, publicKey: isoBase64URL.toBuffer(key.publicKey), counter: key.counter, transports: transportsOf(key.transports) },
      }).catch(() => null);
      if (!verified?.verified) return null;
      await db.update(passkeys).set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: now() }).where(eq(passkeys.id, key.id));
      return key.userId;
    },

    /** The account's passkeys, oldest first. */
    async list(userId: string) {
      return db
        .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
        .orderBy(passkeys.createdAt);
    },

    /** Removes one of the account's passkeys; false when it has no such passkey. */
    async remove(userId: string, actor: Actor, id: string): Promise<boolean> {
      const user = await account(userId);
      if (!user) return false;
      const kind = kindOf(user);
      return transactionRetrying(db, async (txn) => {
        const tx = txn as unknown as Database;
        const [gone] = await tx
          .delete(passkeys)
          .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
          .returning({ name: passkeys.name });
        if (!gone) return false;
        await staffSignIn.recordChange(tx, userId, actor, `${kind}.passkey_removed`, `Removed the passkey "${gone.name}"`, `The passkey named "${gone.name}" was removed from your account. It can no longer sign you in.`, kind);
        return true;
      });
    },
  };
}
