/**
 * Seals small secrets (an authenticator app's TOTP secret) with SECRETS_KEY: AES-256-GCM from
 * Node's crypto, a fresh 96-bit nonce per seal, and `context` (the account's id) as associated
 * data, so a sealed value copied onto another account does not open. Sealed text:
 * `v1.<nonce>.<tag>.<ciphertext>`, base64url. Recovery codes are hashed under a second key derived
 * from the same SECRETS_KEY, so they move with the app's secret from one site to another.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

export interface SecretBox {
  seal(plain: string, context: string): string;
  /** The plain text, or null when `sealed` is damaged, was sealed under another key or for another context. */
  open(sealed: string, context: string): string | null;
  /** HMAC-SHA-256 of `value` under a key of its own derived from the same SECRETS_KEY (recovery codes). */
  keyedHash(value: string): string;
}

export function createSecretBox(secretsKey: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", secretsKey, "museum-site", "sealed secrets v1", 32));
  const hashKey = Buffer.from(hkdfSync("sha256", secretsKey, "museum-site", "keyed hashes v1", 32));
  return {
    keyedHash: (value) => createHmac("sha256", hashKey).update(value).digest("base64url"),
    seal(plain, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", nonce, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
    },
    open(sealed, context) {
      const [version, nonce, tag, body] = sealed.split(".");
      if (version !== "v1" || !nonce || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url")).setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
