-- A sign-up replayed with its Idempotency-Key (issue 35, decision 047) signs in again only when
-- nobody ended the account's sessions since the answer was stored: the time they were last ended
-- by the person or for them (logout, password change or reset), set by server/accounts/sessions.ts.
ALTER TABLE "users" ADD COLUMN "sessions_ended_at" timestamp with time zone;
