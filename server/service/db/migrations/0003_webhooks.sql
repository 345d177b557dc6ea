CREATE TABLE "service"."webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"subject" text,
	"status" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"job_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."webhook_delivery_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."webhook_delivery_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"delivery_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status_code" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "service"."webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" jsonb NOT NULL,
	"secret" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."webhook_outbox" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "service"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_seq_webhook_outbox_id_fk" FOREIGN KEY ("seq") REFERENCES "service"."webhook_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "service"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_seq_idx" ON "service"."webhook_deliveries" USING btree ("endpoint_id","seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_subject_idx" ON "service"."webhook_deliveries" USING btree ("endpoint_id","subject","seq") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "service"."webhook_deliveries" USING btree ("status") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "service"."webhook_delivery_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_team_idx" ON "service"."webhook_endpoints" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_outbox_undispatched_idx" ON "service"."webhook_outbox" USING btree ("id") WHERE dispatched_at IS NULL;--> statement-breakpoint
-- Events recorded before webhook endpoints existed had nowhere to go.
UPDATE "service"."webhook_outbox" SET "dispatched_at" = "created_at" WHERE "dispatched_at" IS NULL;
