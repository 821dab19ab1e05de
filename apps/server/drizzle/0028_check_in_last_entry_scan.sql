ALTER TABLE "check_ins" ADD COLUMN "last_entry_scan_id" uuid;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "last_entered_by" uuid;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_last_entered_by_users_id_fk" FOREIGN KEY ("last_entered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;