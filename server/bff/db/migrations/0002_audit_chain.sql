ALTER TABLE "bff"."audit_events" ADD COLUMN "staff_role" text;--> statement-breakpoint
ALTER TABLE "bff"."audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "bff"."audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
-- The trail is append-only: the service account the BFF runs as cannot change or remove an event.
-- (Someone who can drop this trigger can also edit rows: the hash chain makes that visible.)
CREATE FUNCTION "bff"."audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "bff"."audit_events"
  FOR EACH ROW EXECUTE FUNCTION "bff"."audit_events_append_only"();
