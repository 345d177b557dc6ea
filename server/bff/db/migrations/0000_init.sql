CREATE SCHEMA "bff";
--> statement-breakpoint
CREATE TABLE "bff"."audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bff"."audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"staff_id" uuid,
	"staff_email" text,
	"action" text NOT NULL,
	"resource" text NOT NULL,
	"record_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"outcome" text DEFAULT 'ok' NOT NULL,
	"status_code" integer,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "bff"."cursor_cache" (
	"key" text NOT NULL,
	"page" integer NOT NULL,
	"cursor" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bff"."sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"staff_id" uuid NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bff"."staff" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bff"."sessions" ADD CONSTRAINT "sessions_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "bff"."staff"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "bff"."audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_staff_idx" ON "bff"."audit_events" USING btree ("staff_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "cursor_cache_key_page_idx" ON "bff"."cursor_cache" USING btree ("key","page");--> statement-breakpoint
CREATE INDEX "cursor_cache_expiry_idx" ON "bff"."cursor_cache" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_staff_idx" ON "bff"."sessions" USING btree ("staff_id");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_email_idx" ON "bff"."staff" USING btree ("email");