DROP TABLE "service"."appointment_booking_keys" CASCADE;--> statement-breakpoint
DROP INDEX "service"."appointments_booking_key_idx";--> statement-breakpoint
ALTER TABLE "service"."appointments" DROP COLUMN "booking_key_id";
