CREATE SCHEMA "service";
--> statement-breakpoint
CREATE TABLE "service"."api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service"."connected_sources" (
	"user_id" uuid NOT NULL,
	"provider_slug" text NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connected_sources_user_id_provider_slug_pk" PRIMARY KEY("user_id","provider_slug")
);
--> statement-breakpoint
CREATE TABLE "service"."mindfulness_minutes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."mindfulness_minutes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"provider_slug" text NOT NULL,
	"source_type" text DEFAULT 'unknown' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	"timezone_offset" integer
);
--> statement-breakpoint
CREATE TABLE "service"."providers" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"logo" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"client_user_id" text NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"fallback_time_zone" text,
	"fallback_time_zone_source" text,
	"fallback_time_zone_updated_at" timestamp with time zone,
	"fallback_birth_date" date,
	"fallback_birth_date_source" text,
	"fallback_birth_date_updated_at" timestamp with time zone,
	"ingestion_start" date,
	"ingestion_end" date
);
--> statement-breakpoint
ALTER TABLE "service"."api_keys" ADD CONSTRAINT "api_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."connected_sources" ADD CONSTRAINT "connected_sources_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."connected_sources" ADD CONSTRAINT "connected_sources_provider_slug_providers_slug_fk" FOREIGN KEY ("provider_slug") REFERENCES "service"."providers"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."mindfulness_minutes" ADD CONSTRAINT "mindfulness_minutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."users" ADD CONSTRAINT "users_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "service"."api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_team_idx" ON "service"."api_keys" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "mindfulness_user_start_idx" ON "service"."mindfulness_minutes" USING btree ("user_id","start_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_team_client_idx" ON "service"."users" USING btree ("team_id","client_user_id");--> statement-breakpoint
CREATE INDEX "users_team_order_idx" ON "service"."users" USING btree ("team_id","created_on","id");