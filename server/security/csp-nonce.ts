/**
 * Per-request CSP nonces: 128 random bits each, base64. Drawn from a pool of crypto randomness
 * refilled 256 nonces at a time, so a request costs a slice of a buffer, not a call into
 * OpenSSL (the same technique Node uses for crypto.randomUUID).
 */
import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
const pool = Buffer.alloc(NONCE_BYTES * 256);
let offset = pool.length;

export function cspNonce(): string {
  if (offset + NONCE_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}
