ALTER TABLE "offline_scans" DROP CONSTRAINT "offline_scans_conflicting_check_in_id_check_ins_id_fk";
--> statement-breakpoint
DROP INDEX "check_ins_active_ticket_day_key";--> statement-breakpoint
ALTER TABLE "check_ins" ALTER COLUMN "event_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_active_event_ticket_day_key" ON "check_ins" USING btree ("event_id","ticket_id","day") WHERE "check_ins"."undone_at" is null;