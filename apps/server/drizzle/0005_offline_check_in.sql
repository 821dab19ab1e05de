CREATE TYPE "public"."offline_scan_status" AS ENUM('recorded', 'duplicate', 'conflict', 'rejected');--> statement-breakpoint
ALTER TYPE "public"."scan_source" ADD VALUE 'offline';--> statement-breakpoint
CREATE TABLE "event_signing_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "event_signing_keys_event_key_id_key" UNIQUE("event_id","key_id")
);
--> statement-breakpoint
CREATE TABLE "offline_scans" (
	"scan_id" uuid PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"code" text NOT NULL,
	"ticket_id" uuid,
	"offline_verdict" "scan_verdict" NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"status" "offline_scan_status" NOT NULL,
	"reason" text,
	"message" text,
	"checked_in_at" timestamp with time zone,
	"checked_in_by" text,
	"conflicting_check_in_id" uuid
);
--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "changed_xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "changed_xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "event_signing_keys" ADD CONSTRAINT "event_signing_keys_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_scans" ADD CONSTRAINT "offline_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_scans" ADD CONSTRAINT "offline_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_scans" ADD CONSTRAINT "offline_scans_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_scans" ADD CONSTRAINT "offline_scans_conflicting_check_in_id_check_ins_id_fk" FOREIGN KEY ("conflicting_check_in_id") REFERENCES "public"."check_ins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_signing_keys_one_active_key" ON "event_signing_keys" USING btree ("event_id") WHERE "event_signing_keys"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "offline_scans_event_day_status_idx" ON "offline_scans" USING btree ("event_id","day","status");--> statement-breakpoint
CREATE INDEX "check_ins_day_changed_xid_idx" ON "check_ins" USING btree ("day","changed_xid");--> statement-breakpoint
CREATE INDEX "tickets_event_changed_xid_idx" ON "tickets" USING btree ("event_id","changed_xid");