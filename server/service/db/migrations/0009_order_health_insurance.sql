ALTER TABLE "service"."orders" ADD COLUMN "health_insurance" jsonb;--> statement-breakpoint
ALTER TABLE "service"."orders" ADD COLUMN "health_insurance_id" uuid;