CREATE TABLE "bff"."order_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" text NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bff"."order_triage" (
	"order_id" text PRIMARY KEY NOT NULL,
	"team" text,
	"owner_id" uuid,
	"claimed_at" timestamp with time zone,
	"outcome" text,
	"resolution_note" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolved_status" text,
	"resolved_status_event_id" integer,
	"replacement_order_id" text
);
--> statement-breakpoint
ALTER TABLE "bff"."order_notes" ADD CONSTRAINT "order_notes_author_id_staff_id_fk" FOREIGN KEY ("author_id") REFERENCES "bff"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bff"."order_triage" ADD CONSTRAINT "order_triage_owner_id_staff_id_fk" FOREIGN KEY ("owner_id") REFERENCES "bff"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bff"."order_triage" ADD CONSTRAINT "order_triage_resolved_by_staff_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "bff"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_notes_order_idx" ON "bff"."order_notes" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_triage_owner_idx" ON "bff"."order_triage" USING btree ("owner_id");