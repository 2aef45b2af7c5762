/**
 * Secrets the operator sets, or that the embedded single-instance site generates once into
 * DATA_DIR: SESSION_SECRET keys session token hashes (every instance must share it) and
 * SECRETS_KEY seals the staff's authenticator-app secrets (decision 055).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** `configured` when set, else the secret kept in `DATA_DIR/<file>`, made on first use (readable by its owner only). */
export function resolveGeneratedSecret(configured: string | undefined, dataDir: string, file: string): string {
  if (configured) return configured;
  const where = path.join(dataDir, file);
  try {
    const existing = readFileSync(where, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start: generate below
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(where, secret, { mode: 0o600 });
  return secret;
}

export const resolveSessionSecret = (configured: string | undefined, dataDir: string) => resolveGeneratedSecret(configured, dataDir, "session-secret");

/**
 * SECRETS_KEY: as set; else generated into DATA_DIR, except for a production site on PostgreSQL,
 * whose instances could not share a generated key: there it is null, and an authenticator app
 * cannot be set up until the operator sets one (passkeys and emailed codes still work).
 */
export function resolveSecretsKey(configured: string | undefined, dataDir: string, sharedDatabase: boolean): string | null {
  if (configured) return configured;
  return sharedDatabase ? null : resolveGeneratedSecret(undefined, dataDir, "secrets-key");
}
