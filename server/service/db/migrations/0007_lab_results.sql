CREATE TABLE "service"."biomarker_results" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."biomarker_results_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"order_id" uuid,
	"parsing_job_id" uuid,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"loinc" text,
	"loinc_slug" text,
	"result" text NOT NULL,
	"type" text NOT NULL,
	"unit" text,
	"value" double precision,
	"reference_range" text,
	"min_range_value" double precision,
	"max_range_value" double precision,
	"is_above_max_range" boolean,
	"is_below_min_range" boolean,
	"interpretation" text,
	"notes" text,
	"source_markers" jsonb,
	"performing_laboratory" text,
	"source_sample_id" text,
	"normalized_value" double precision,
	"normalized_unit" text,
	"observed_at" timestamp with time zone NOT NULL,
	"reported_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."order_results" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"specimen_number" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"missing_results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"interpretation" text NOT NULL,
	"collected_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"reported_at" timestamp with time zone NOT NULL,
	"critical_notified_at" timestamp with time zone,
	"critical_acknowledged_at" timestamp with time zone,
	"critical_acknowledged_by" text,
	"critical_acknowledgement_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."teams" ADD COLUMN "partial_results_webhooks" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "service"."biomarker_results" ADD CONSTRAINT "biomarker_results_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."biomarker_results" ADD CONSTRAINT "biomarker_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."biomarker_results" ADD CONSTRAINT "biomarker_results_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "service"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."biomarker_results" ADD CONSTRAINT "biomarker_results_parsing_job_id_parsing_jobs_id_fk" FOREIGN KEY ("parsing_job_id") REFERENCES "service"."parsing_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."order_results" ADD CONSTRAINT "order_results_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "service"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."order_results" ADD CONSTRAINT "order_results_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."order_results" ADD CONSTRAINT "order_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "biomarker_results_user_loinc_idx" ON "service"."biomarker_results" USING btree ("user_id","loinc","observed_at");--> statement-breakpoint
CREATE INDEX "biomarker_results_order_idx" ON "service"."biomarker_results" USING btree ("order_id","position");--> statement-breakpoint
CREATE INDEX "biomarker_results_job_idx" ON "service"."biomarker_results" USING btree ("parsing_job_id");--> statement-breakpoint
CREATE INDEX "order_results_team_critical_idx" ON "service"."order_results" USING btree ("team_id","interpretation","critical_acknowledged_at");