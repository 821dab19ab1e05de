-- Issue 14 item 6: the check-in tables' primary keys become (event_id, id) / (event_id, scan_id)
-- in the next migration, so they can be distributed by event (Citus). drizzle-kit cannot name the
-- old single-column keys it would drop (it leaves that step commented out), so they go here. The
-- foreign key that used check_ins_pkey was dropped by the previous migration.
ALTER TABLE "check_ins" DROP CONSTRAINT "check_ins_pkey";--> statement-breakpoint
ALTER TABLE "scan_log" DROP CONSTRAINT "scan_log_pkey";--> statement-breakpoint
ALTER TABLE "offline_scans" DROP CONSTRAINT "offline_scans_pkey";
