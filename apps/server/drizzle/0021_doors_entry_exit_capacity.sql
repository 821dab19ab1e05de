ALTER TYPE "public"."scan_verdict" ADD VALUE 'exited';--> statement-breakpoint
ALTER TYPE "public"."scan_verdict" ADD VALUE 'info';--> statement-breakpoint
CREATE TABLE "check_in_list_slots" (
	"event_id" uuid NOT NULL,
	"check_in_list_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"check_in_id" uuid,
	"day" integer,
	"held_since" timestamp with time zone,
	CONSTRAINT "check_in_list_slots_pkey" PRIMARY KEY("event_id","check_in_list_id","slot")
);
--> statement-breakpoint
ALTER TABLE "check_in_lists" ADD COLUMN "allows_reentry" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "check_in_lists" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "check_in_lists" ADD COLUMN "daily_checkout_time" text;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "last_entered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "exited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "exited_by" uuid;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "exit_scan_id" uuid;--> statement-breakpoint
ALTER TABLE "check_in_list_slots" ADD CONSTRAINT "check_in_list_slots_list_fk" FOREIGN KEY ("event_id","check_in_list_id") REFERENCES "public"."check_in_lists"("event_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_in_list_slots_check_in_idx" ON "check_in_list_slots" USING btree ("check_in_id");--> statement-breakpoint
CREATE INDEX "check_in_list_slots_free_idx" ON "check_in_list_slots" USING btree ("event_id","check_in_list_id","slot") WHERE "check_in_list_slots"."check_in_id" is null;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_exited_by_users_id_fk" FOREIGN KEY ("exited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_ins_inside_list_day_idx" ON "check_ins" USING btree ("event_id","check_in_list_id","day") WHERE "check_ins"."undone_at" is null and "check_ins"."exited_at" is null;--> statement-breakpoint
ALTER TABLE "check_in_lists" ADD CONSTRAINT "check_in_lists_capacity_positive" CHECK ("check_in_lists"."capacity" is null or "check_in_lists"."capacity" > 0);--> statement-breakpoint
ALTER TABLE "check_in_lists" ADD CONSTRAINT "check_in_lists_daily_checkout_time_format" CHECK ("check_in_lists"."daily_checkout_time" is null or "check_in_lists"."daily_checkout_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');