/**
 * What the page forms and the server share for idempotent writes (decision 025): the JSON API's
 * request header, the forms' hidden field, the refusals' messages, and a fresh key (one per
 * page render).
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_FIELD = "idempotencyKey";

export const IDEMPOTENCY_MESSAGES = {
  malformed: "Idempotency-Key must be 8 to 200 visible ASCII characters (letters, digits and punctuation, no spaces).",
  mismatch: "This Idempotency-Key was already used with a different request. Send a new key for a new request.",
  inFlight: "A request with this Idempotency-Key is still being processed. Retry in a moment to get its answer.",
} as const;

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
