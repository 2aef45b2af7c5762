/**
 * The `Idempotency-Key` header on the JSON API's writes (decision 025): a malformed key answers
 * 400; a retry with the same key and body gets the first answer (status and body, marked
 * `Idempotent-Replayed: true`) and writes nothing; the same key with another body answers 422;
 * a duplicate of a request still running answers 409 with `Retry-After`. Without the header a
 * write runs as it always did.
 */
import type { Request, Response } from "express";
import type { Database } from "../db/client";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES, parseIdempotencyKey, type Idempotency, type IdempotencyScope, type IdempotentOutcome, type StoredAnswer } from "../idempotency/idempotency";

export function createKeyedWrites(idempotency: Idempotency, db: Database) {
  /** Answers a stored outcome's refusals; returns the answer to send, or null when answered. */
  function settle(res: Response, outcome: IdempotentOutcome): StoredAnswer | null {
    switch (outcome.kind) {
      case "mismatch":
        res.status(422).json({ success: false, message: IDEMPOTENCY_MESSAGES.mismatch });
        return null;
      case "in-flight":
        res.setHeader("Retry-After", "1");
        res.status(409).json({ success: false, message: IDEMPOTENCY_MESSAGES.inFlight });
        return null;
      case "replayed":
        res.setHeader("Idempotent-Replayed", "true");
        return outcome.answer;
      case "fresh":
        return outcome.answer;
    }
  }

  return {
    /**
     * The key's scope for this request: null without a key, undefined when the key was
     * malformed and 400 was answered. Scoped per route, and per account when signed in.
     */
    scope(req: Request, res: Response, route: string): IdempotencyScope | null | undefined {
      const parsed = parseIdempotencyKey(req.get(IDEMPOTENCY_HEADER));
      if (!parsed.ok) {
        res.status(400).json({ success: false, message: parsed.message });
        return undefined;
      }
      if (!parsed.key) return null;
      const owner = (res.locals.viewer as { userId?: string } | null | undefined)?.userId ?? null;
      return { route, owner, key: parsed.key, body: req.body ?? {} };
    },

    /** Sends the stored answer (or its refusal) if the key has one; true when answered. */
    async replayed(res: Response, scope: IdempotencyScope | null): Promise<boolean> {
      if (!scope) return false;
      const outcome = await idempotency.peek(scope);
      if (!outcome) return false;
      const answer = settle(res, outcome);
      if (answer) res.status(answer.status).json(answer.body);
      return true;
    },

    /**
     * Runs the write (with its answer stored under the key, in its transaction) or takes the
     * stored answer; returns the answer for the caller to send, null when a refusal was sent.
     */
    async answer(res: Response, scope: IdempotencyScope | null, write: (tx: Database) => Promise<StoredAnswer>): Promise<StoredAnswer | null> {
      if (!scope) return write(db);
      return settle(res, await idempotency.run(scope, write));
    },
  };
}
