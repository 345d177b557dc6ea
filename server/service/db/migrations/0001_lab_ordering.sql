CREATE TABLE "service"."idempotency_keys" (
	"team_id" uuid NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "idempotency_keys_team_id_operation_key_pk" PRIMARY KEY("team_id","operation","key")
);
--> statement-breakpoint
CREATE TABLE "service"."jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 10 NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"done_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."lab_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"lab_slug" text NOT NULL,
	"status" text NOT NULL,
	"delegated_flow" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"account_name" text,
	"org_id" text,
	"default_clinical_notes" text,
	"business_units" jsonb,
	"allowed_billing" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."lab_tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid,
	"lab_id" integer NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"sample_type" text NOT NULL,
	"method" text NOT NULL,
	"price" double precision NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"fasting" boolean DEFAULT false NOT NULL,
	"marker_ids" jsonb NOT NULL,
	"auto_generated" boolean DEFAULT false NOT NULL,
	"is_delegated" boolean DEFAULT false NOT NULL,
	"common_tat_days" integer,
	"worst_case_tat_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."labs" (
	"id" integer PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"first_line_address" text NOT NULL,
	"city" text NOT NULL,
	"zipcode" text NOT NULL,
	"collection_methods" jsonb NOT NULL,
	"sample_types" jsonb NOT NULL,
	CONSTRAINT "labs_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "service"."markers" (
	"id" integer PRIMARY KEY NOT NULL,
	"lab_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"provider_id" text NOT NULL,
	"type" text NOT NULL,
	"unit" text,
	"price" text,
	"a_la_carte_enabled" boolean DEFAULT true NOT NULL,
	"is_orderable" boolean DEFAULT true NOT NULL,
	"common_tat_days" integer,
	"worst_case_tat_days" integer,
	"aoe" jsonb,
	"expected_results" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."order_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"lab_test_id" uuid NOT NULL,
	"lab_account_id" uuid,
	"collection_method" text NOT NULL,
	"status" text NOT NULL,
	"low_level_status" text NOT NULL,
	"origin" text DEFAULT 'created' NOT NULL,
	"patient_details" jsonb NOT NULL,
	"patient_address" jsonb NOT NULL,
	"physician" jsonb,
	"billing_type" text,
	"icd_codes" jsonb,
	"consents" jsonb,
	"aoe_answers" jsonb,
	"priority" boolean DEFAULT false NOT NULL,
	"activate_by" text,
	"passthrough" text,
	"clinical_notes" text,
	"sample_id" text,
	"notes" text,
	"update_reason" text,
	"original_order_id" uuid,
	"details_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid,
	"shipment" jsonb,
	"interpretation" text,
	"has_missing_results" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."webhook_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."webhook_outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."idempotency_keys" ADD CONSTRAINT "idempotency_keys_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."lab_accounts" ADD CONSTRAINT "lab_accounts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."lab_tests" ADD CONSTRAINT "lab_tests_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."lab_tests" ADD CONSTRAINT "lab_tests_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "service"."labs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."markers" ADD CONSTRAINT "markers_lab_id_labs_id_fk" FOREIGN KEY ("lab_id") REFERENCES "service"."labs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "service"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."orders" ADD CONSTRAINT "orders_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."orders" ADD CONSTRAINT "orders_lab_test_id_lab_tests_id_fk" FOREIGN KEY ("lab_test_id") REFERENCES "service"."lab_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."orders" ADD CONSTRAINT "orders_lab_account_id_lab_accounts_id_fk" FOREIGN KEY ("lab_account_id") REFERENCES "service"."lab_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."webhook_outbox" ADD CONSTRAINT "webhook_outbox_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "service"."jobs" USING btree ("run_at") WHERE done_at IS NULL AND failed_at IS NULL;--> statement-breakpoint
CREATE INDEX "jobs_kind_idx" ON "service"."jobs" USING btree ("kind");--> statement-breakpoint
CREATE INDEX "lab_accounts_team_idx" ON "service"."lab_accounts" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "lab_tests_team_idx" ON "service"."lab_tests" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "lab_tests_lab_idx" ON "service"."lab_tests" USING btree ("lab_id");--> statement-breakpoint
CREATE INDEX "markers_lab_idx" ON "service"."markers" USING btree ("lab_id");--> statement-breakpoint
CREATE UNIQUE INDEX "markers_lab_provider_idx" ON "service"."markers" USING btree ("lab_id","provider_id");--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "service"."order_events" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_team_created_idx" ON "service"."orders" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_team_status_idx" ON "service"."orders" USING btree ("team_id","low_level_status");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "service"."orders" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "webhook_outbox_team_idx" ON "service"."webhook_outbox" USING btree ("team_id","id");