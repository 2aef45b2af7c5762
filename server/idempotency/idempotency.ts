/**
 * Idempotent writes (decision 025). A client names a write with a key (the JSON API's
 * `Idempotency-Key` header, a page form's hidden `idempotencyKey` field); the first answer to it
 * is stored in the SAME transaction as the write, so a retry with the same key gets that answer
 * back and writes nothing, and a crash can leave neither the write without its answer nor the
 * answer without its write.
 *
 * - Scope: the route and the owner (the account id when signed in, '' for anonymous calls).
 * - The body is fingerprinted (an HMAC keyed with the site's secret, so a stored fingerprint
 *   tells nothing about a password in it); the same key with another body answers 422.
 * - Two requests with one key never both run: the first holds a transaction-scoped advisory
 *   lock on the scope until it commits; a duplicate waits for it (at most the connection's
 *   lock_timeout, 2 s on PostgreSQL) and then gets the stored answer, or 409 if it is still
 *   running. PGlite runs one transaction at a time, so there the duplicate simply waits.
 * - Only answers the write produced are stored: bad input (400) and failures (an exception,
 *   rolled back with the write) leave the key free for the retry.
 * - Keys expire after 24 h: a row past that is ignored and replaced, and housekeeping purges it.
 */
import { createHmac } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { idempotencyKeys } from "../db/schema";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
import { IDEMPOTENCY_FIELD, IDEMPOTENCY_MESSAGES } from "../../app/shared/idempotency";
import { transactionRetrying } from "../db/retrying";

export { IDEMPOTENCY_FIELD, IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES } from "../../app/shared/idempotency";
/** 8 to 200 visible ASCII characters (no space, no control character). */
const KEY_PATTERN = /^[\x21-\x7e]{8,200}$/;
/** The first argument of the two-int advisory lock: a space of its own, apart from the site's one-bigint locks. */
const LOCK_CLASS = 22_006;
/** Fields that prove a human, not part of what is written: a retry may carry a fresh token. */
const NOT_FINGERPRINTED = new Set([IDEMPOTENCY_FIELD, "recaptchaToken", "g-recaptcha-response"]);

/** A header or field value: null when absent (the write runs as without keys), an error when malformed. */
export function parseIdempotencyKey(raw: unknown): { ok: true; key: string | null } | { ok: false; message: string } {
  if (raw === undefined || raw === null || raw === "") return { ok: true, key: null };
  if (typeof raw === "string" && KEY_PATTERN.test(raw)) return { ok: true, key: raw };
  return { ok: false, message: IDEMPOTENCY_MESSAGES.malformed };
}

/** JSON with object keys sorted, so the same fields in another order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => v !== undefined && !NOT_FINGERPRINTED.has(k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What tells two requests with one key apart: an HMAC of the body's canonical JSON, keyed with the site's secret. */
export function requestFingerprint(secret: string, body: unknown): string {
  return createHmac("sha256", secret).update(canonical(body)).digest("base64url");
}

/** The answer stored and replayed: status, JSON body, and what it created when a replay needs it. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  ref?: string | null;
  /** A replayed answer's time of storing (absent on a fresh one): a replay may depend on what happened since (decision 047). */
  storedAt?: Date;
}

export interface IdempotencyScope {
  /** e.g. `POST /api/contact` or `form:contact`. */
  route: string;
  /** The account id when signed in; null or '' for anonymous calls. */
  owner: string | null;
  key: string;
  /** The request body (fields named in NOT_FINGERPRINTED and the key itself are left out). */
  body: unknown;
}

export type IdempotentOutcome =
  | { kind: "fresh" | "replayed"; answer: StoredAnswer }
  | { kind: "mismatch" }
  | { kind: "in-flight" };

/** The duplicate waited its lock_timeout for the first request with the key. */
class StillInFlight extends Error {}

function isLockTimeout(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === "55P03") return true;
  }
  return false;
}

export interface IdempotencyDeps {
  db: Database;
  /** PGlite runs one transaction at a time: the duplicate waits anyway, and an advisory lock (re-entrant in its one session) would add nothing. */
  serialized?: boolean;
  /** Keys the body fingerprints. */
  secret: string;
  now?: () => Date;
  /** Told after a fresh write commits (the services' outbox wake-up: a job queued inside the transaction is visible only now). */
  onCommitted?: () => void;
}

export function createIdempotency({ db, serialized = false, secret, now = () => new Date(), onCommitted }: IdempotencyDeps) {
  const fingerprint = (body: unknown) => requestFingerprint(secret, body);

  function where(scope: IdempotencyScope, tx: Database = db) {
    const cutoff = new Date(now().getTime() - IDEMPOTENCY_TTL_MS);
    return tx
      .select({ fingerprint: idempotencyKeys.fingerprint, status: idempotencyKeys.status, body: idempotencyKeys.body, ref: idempotencyKeys.ref, createdAt: idempotencyKeys.createdAt })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.route, scope.route), eq(idempotencyKeys.owner, scope.owner ?? ""), eq(idempotencyKeys.key, scope.key), gt(idempotencyKeys.createdAt, cutoff)))
      .limit(1);
  }

  /** Waits for the transaction of another request with this key (lock_timeout at most), held until this one ends. */
  async function lockScope(tx: Database, name: string): Promise<void> {
    try {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int, hashtext(${name}))`);
    } catch (error) {
      throw isLockTimeout(error) ? new StillInFlight() : error;
    }
  }

  function outcomeOf(scope: IdempotencyScope, row: { fingerprint: string; status: number; body: unknown; ref: string | null; createdAt: Date }): IdempotentOutcome {
    if (row.fingerprint !== fingerprint(scope.body)) return { kind: "mismatch" };
    return { kind: "replayed", answer: { status: row.status, body: row.body, ref: row.ref, storedAt: row.createdAt } };
  }

  return {
    /**
     * The stored answer for this key, if any, without running anything: for the steps a
     * replay must skip (a reCAPTCHA token is good once, so a retry is not checked again).
     */
    async peek(scope: IdempotencyScope): Promise<IdempotentOutcome | null> {
      const [row] = await where(scope);
      return row ? outcomeOf(scope, row) : null;
    },

    /**
     * Runs `write` in a transaction with its answer stored under the key, or answers with what
     * is stored. `write` must do all its writing through the transaction it is given.
     */
    async run(scope: IdempotencyScope, write: (tx: Database) => Promise<StoredAnswer>): Promise<IdempotentOutcome> {
      const owner = scope.owner ?? "";
      let outcome: IdempotentOutcome;
      try {
        outcome = await transactionRetrying(db, async (txn) => {
          const tx = txn as unknown as Database;
          if (!serialized) await lockScope(tx, `${scope.route}\n${owner}\n${scope.key}`);
          const [row] = await where(scope, tx);
          if (row) return outcomeOf(scope, row);
          const answer = await write(tx);
          const stored = { fingerprint: fingerprint(scope.body), status: answer.status, body: answer.body ?? {}, ref: answer.ref ?? null, createdAt: now() };
          // An expired row not purged yet is replaced: after 24 h a key is new again.
          await tx
            .insert(idempotencyKeys)
            .values({ route: scope.route, owner, key: scope.key, ...stored })
            .onConflictDoUpdate({ target: [idempotencyKeys.route, idempotencyKeys.owner, idempotencyKeys.key], set: stored });
          return { kind: "fresh", answer } as const;
        });
      } catch (error) {
        if (error instanceof StillInFlight) return { kind: "in-flight" };
        throw error;
      }
      if (outcome.kind === "fresh") onCommitted?.();
      return outcome;
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
