CREATE TABLE "bff"."role_policies" (
	"role" text PRIMARY KEY NOT NULL,
	"mfa_required" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bff"."sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "bff"."staff" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bff"."staff" ADD COLUMN "mfa_secret" text;--> statement-breakpoint
ALTER TABLE "bff"."staff" ADD COLUMN "mfa_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bff"."staff" ADD COLUMN "mfa_pending_secret" text;--> statement-breakpoint
ALTER TABLE "bff"."staff" ADD COLUMN "mfa_last_step" bigint;