-- Every BFF process keeps the sessions it has seen in memory (server/bff/auth/sessionCache.ts) and
-- forgets one the moment anything that decides it changes, whoever changed it: this process,
-- another BFF process, or an operator's SQL. The triggers announce it on LISTEN/NOTIFY at commit.
-- Payloads: 's:<token hash>' (one session), 'm:<staff id>' (a member's sessions), '*' (all).
CREATE FUNCTION "bff"."announce_session_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('labdesk_bff_sessions', '*');
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('labdesk_bff_sessions', 's:' || OLD.token_hash);
  ELSE
    PERFORM pg_notify('labdesk_bff_sessions', 'm:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Sign-out, revocation, expiry sweeps, a member deleted (the cascade fires this too).
CREATE TRIGGER "sessions_ended" AFTER DELETE ON "bff"."sessions"
  FOR EACH ROW EXECUTE FUNCTION "bff"."announce_session_change"();--> statement-breakpoint
-- Any change but a forward slide of last_seen_at: sliding is how a session stays alive, and every
-- process checks expiry on what it knows; moving it back (an operator ending a session) is announced.
CREATE TRIGGER "sessions_changed" AFTER UPDATE ON "bff"."sessions"
  FOR EACH ROW WHEN (
    NEW.last_seen_at < OLD.last_seen_at
    OR ROW(NEW.token_hash, NEW.staff_id, NEW.csrf_token, NEW.created_at) IS DISTINCT FROM ROW(OLD.token_hash, OLD.staff_id, OLD.csrf_token, OLD.created_at)
  ) EXECUTE FUNCTION "bff"."announce_session_change"();--> statement-breakpoint
-- What a session carries of its member: role, disabled, name, e-mail, two-factor; and the password
-- (a reset). Sign-in bookkeeping (last sign-in, TOTP steps, a pending enrolment) is not announced.
CREATE TRIGGER "staff_access_changed" AFTER UPDATE ON "bff"."staff"
  FOR EACH ROW WHEN (
    ROW(NEW.id, NEW.email, NEW.name, NEW.role, NEW.disabled_at, NEW.password_hash, NEW.mfa_secret, NEW.mfa_enabled_at)
    IS DISTINCT FROM ROW(OLD.id, OLD.email, OLD.name, OLD.role, OLD.disabled_at, OLD.password_hash, OLD.mfa_secret, OLD.mfa_enabled_at)
  ) EXECUTE FUNCTION "bff"."announce_session_change"();--> statement-breakpoint
CREATE TRIGGER "staff_removed" AFTER DELETE ON "bff"."staff"
  FOR EACH ROW EXECUTE FUNCTION "bff"."announce_session_change"();--> statement-breakpoint
-- A role's two-factor rule decides what its sessions may do: any change forgets every session.
CREATE TRIGGER "role_policies_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "bff"."role_policies"
  FOR EACH STATEMENT EXECUTE FUNCTION "bff"."announce_session_change"();--> statement-breakpoint
CREATE TRIGGER "sessions_truncated" AFTER TRUNCATE ON "bff"."sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "bff"."announce_session_change"();--> statement-breakpoint
CREATE TRIGGER "staff_truncated" AFTER TRUNCATE ON "bff"."staff"
  FOR EACH STATEMENT EXECUTE FUNCTION "bff"."announce_session_change"();
