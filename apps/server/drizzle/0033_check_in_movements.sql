CREATE TYPE "public"."movement_direction" AS ENUM('entry', 'exit');--> statement-breakpoint
CREATE TABLE "check_in_movements" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"check_in_id" uuid NOT NULL,
	"direction" "movement_direction" NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"staff_user_id" uuid NOT NULL,
	"scan_id" uuid,
	"device_id" text,
	"received_at" timestamp with time zone,
	"is_late" boolean DEFAULT false NOT NULL,
	"undone_at" timestamp with time zone,
	CONSTRAINT "check_in_movements_pkey" PRIMARY KEY("event_id","id")
);
--> statement-breakpoint
ALTER TABLE "check_in_movements" ADD CONSTRAINT "check_in_movements_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_movements" ADD CONSTRAINT "check_in_movements_check_in_fk" FOREIGN KEY ("event_id","check_in_id") REFERENCES "public"."check_ins"("event_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_movements_scan_key" ON "check_in_movements" USING btree ("event_id","scan_id","staff_user_id","check_in_id") WHERE "check_in_movements"."scan_id" is not null and "check_in_movements"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "check_in_movements_check_in_at_idx" ON "check_in_movements" USING btree ("event_id","check_in_id","at");