ALTER TABLE "check_ins" DROP CONSTRAINT "check_ins_last_entered_by_users_id_fk";
--> statement-breakpoint
ALTER TABLE "check_ins" DROP COLUMN "exit_scan_id";--> statement-breakpoint
ALTER TABLE "check_ins" DROP COLUMN "last_entry_scan_id";--> statement-breakpoint
ALTER TABLE "check_ins" DROP COLUMN "last_entered_by";