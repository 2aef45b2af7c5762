-- Signed-in requests on PostgreSQL (decision 040): each worker remembers a member's session as it
-- last read it, until PostgreSQL says a session or an account may have changed. These triggers
-- say so on the `museum_sessions` channel, delivered when the writing transaction commits: a
-- session ended (logout, password change, purge, account deleted) or an account's name, email,
-- role, ticket or deactivation changed. One notification per statement; its payload is empty.
CREATE OR REPLACE FUNCTION museum_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('museum_sessions', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER sessions_ended AFTER DELETE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION museum_sessions_changed();--> statement-breakpoint
CREATE TRIGGER sessions_moved AFTER UPDATE OF token_hash, user_id, expires_at ON sessions FOR EACH STATEMENT EXECUTE FUNCTION museum_sessions_changed();--> statement-breakpoint
CREATE TRIGGER users_access_changed AFTER UPDATE OF first_name, last_name, email, role, valid_through, deactivated_at ON users FOR EACH STATEMENT EXECUTE FUNCTION museum_sessions_changed();--> statement-breakpoint
CREATE TRIGGER users_deleted AFTER DELETE ON users FOR EACH STATEMENT EXECUTE FUNCTION museum_sessions_changed();
