/**
 * Names shared by the page forms and the server for idempotent writes (decision 025): the JSON
 * API's request header, the forms' hidden field, and a fresh key (one per page render).
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_FIELD = "idempotencyKey";

export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
