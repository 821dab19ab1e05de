ALTER TYPE "public"."scan_verdict" ADD VALUE 'exited';--> statement-breakpoint
ALTER TYPE "public"."scan_verdict" ADD VALUE 'info';--> statement-breakpoint
CREATE INDEX "check_ins_active_arrivals_idx" ON "check_ins" USING btree ("event_id","day","check_in_list_id","checked_in_at") WHERE "check_ins"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "scan_log_denials_idx" ON "scan_log" USING btree ("event_id","day","reason") WHERE "scan_log"."verdict" = 'denied';