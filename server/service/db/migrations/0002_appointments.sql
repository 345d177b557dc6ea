CREATE TABLE "service"."appointment_booking_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."appointment_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service"."appointment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"appointment_id" uuid NOT NULL,
	"status" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service"."appointment_slots" (
	"provider" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "appointment_slots_provider_start_at_pk" PRIMARY KEY("provider","start_at")
);
--> statement-breakpoint
CREATE TABLE "service"."appointments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text DEFAULT 'phlebotomy' NOT NULL,
	"provider" text NOT NULL,
	"provider_id" text NOT NULL,
	"status" text NOT NULL,
	"event_status" text NOT NULL,
	"address" jsonb NOT NULL,
	"location" jsonb NOT NULL,
	"iana_timezone" text,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"price" integer,
	"is_priority" boolean DEFAULT false NOT NULL,
	"appointment_notes" text,
	"booking_key_id" text,
	"mode" text NOT NULL,
	"confirm_deadline" timestamp with time zone,
	"provider_record" jsonb NOT NULL,
	"event_data" jsonb NOT NULL,
	"external_id" text,
	"cancellation_reason_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service"."appointment_booking_keys" ADD CONSTRAINT "appointment_booking_keys_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "service"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."appointment_events" ADD CONSTRAINT "appointment_events_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "service"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."appointments" ADD CONSTRAINT "appointments_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "service"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service"."appointments" ADD CONSTRAINT "appointments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "service"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_events_appointment_idx" ON "service"."appointment_events" USING btree ("appointment_id","id");--> statement-breakpoint
CREATE INDEX "appointments_order_idx" ON "service"."appointments" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_booking_key_idx" ON "service"."appointments" USING btree ("booking_key_id");