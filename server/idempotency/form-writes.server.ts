/**
 * Idempotent page forms (decision 025): each form carries a hidden key rendered with the page
 * (a new one per render), so a double submit or a browser's retry of the same POST gets the
 * first answer back and writes nothing. Scoped per form, and per account when signed in. A
 * form posted without a key (a page rendered before this) is written as before.
 */
import { data, redirect } from "react-router";
import type { Database } from "../db/client";
import { IDEMPOTENCY_FIELD, IDEMPOTENCY_MESSAGES, parseIdempotencyKey, type Idempotency, type IdempotencyScope, type IdempotentOutcome, type StoredAnswer } from "./idempotency";

/** A redirect as a stored answer: replayed as the same redirect. */
export const redirectAnswer = (location: string, ref?: string): StoredAnswer => ({ status: 302, body: { location }, ref });

/** The action's answer: a redirect, or the data with its status. `headers` go on either. */
export function actionAnswer<T = unknown>(answer: StoredAnswer, headers?: HeadersInit) {
  const location = (answer.body as { location?: unknown } | null)?.location;
  if (answer.status >= 300 && answer.status < 400 && typeof location === "string") return redirect(location, { headers });
  return data(answer.body as T, { status: answer.status, headers });
}

export interface FormWriteOptions<R> {
  idempotency: Idempotency;
  db: Database;
  /** e.g. `form:contact`. */
  route: string;
  /** The signed-in account's id, if any. */
  owner: string | null;
  form: Record<string, unknown>;
  /** The form's own failure answer with a message (`{ ok: false, message }` and the like). */
  refusal: (message: string) => R;
}

export function formKeys<R>({ idempotency, db, route, owner, form, refusal }: FormWriteOptions<R>) {
  const parsed = parseIdempotencyKey(form[IDEMPOTENCY_FIELD]);
  const scope: IdempotencyScope | null = parsed.ok && parsed.key ? { route, owner, key: parsed.key, body: form } : null;
  const settle = (outcome: IdempotentOutcome): StoredAnswer => {
    if (outcome.kind === "mismatch") return { status: 422, body: refusal(IDEMPOTENCY_MESSAGES.mismatch) };
    if (outcome.kind === "in-flight") return { status: 409, body: refusal(IDEMPOTENCY_MESSAGES.inFlight) };
    return outcome.answer;
  };
  return {
    /** 400 with the form's message when the hidden key is malformed; null when it is fine or absent. */
    malformed: parsed.ok ? null : ({ status: 400, body: refusal(parsed.message) } satisfies StoredAnswer),
    /** The answer already stored for this key (or the refusal of a different body), if any. */
    async stored(): Promise<StoredAnswer | null> {
      const outcome = scope ? await idempotency.peek(scope) : null;
      return outcome ? settle(outcome) : null;
    },
    /** Writes through `write` with its answer stored under the key in the same transaction, or answers with what is stored. */
    async run(write: (tx: Database) => Promise<StoredAnswer>): Promise<StoredAnswer> {
      return scope ? settle(await idempotency.run(scope, write)) : write(db);
    },
  };
}
