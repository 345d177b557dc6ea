ALTER TABLE "service"."jobs" ADD COLUMN "fair_key" text;--> statement-breakpoint
ALTER TABLE "service"."jobs" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "jobs_fair_idx" ON "service"."jobs" USING btree ("kind","fair_key","claimed_at");