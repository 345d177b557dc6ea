CREATE TABLE "service"."parsing_job_files" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."parsing_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "service"."parsing_jobs_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"stage" text NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"review_requested" boolean DEFAULT false NOT NULL,
	"needs_human_review" boolean DEFAULT false NOT NULL,
	"is_reviewed" boolean DEFAULT false NOT NULL,
	"data" jsonb,
	"review_reasons" jsonb,
	"stats" jsonb,
	"failure_reason" text,
	"review" jsonb,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."parsing_job_files" ADD CONSTRAINT "parsing_job_files_job_id_parsing_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "service"."parsing_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."parsing_jobs" ADD CONSTRAINT "parsing_jobs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."parsing_jobs" ADD CONSTRAINT "parsing_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "parsing_jobs_team_seq_idx" ON "service"."parsing_jobs" USING btree ("team_id","seq");--> statement-breakpoint
CREATE INDEX "parsing_jobs_team_stage_idx" ON "service"."parsing_jobs" USING btree ("team_id","stage","seq");