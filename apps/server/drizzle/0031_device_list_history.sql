CREATE TABLE "device_list_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"device_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"check_in_list_id" uuid,
	"bound_from" timestamp with time zone NOT NULL,
	"bound_until" timestamp with time zone NOT NULL,
	"told_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_list_history" ADD CONSTRAINT "device_list_history_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_list_history" ADD CONSTRAINT "device_list_history_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_list_history" ADD CONSTRAINT "device_list_history_check_in_list_fk" FOREIGN KEY ("event_id","check_in_list_id") REFERENCES "public"."check_in_lists"("event_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_list_history_device_id_idx" ON "device_list_history" USING btree ("device_id","event_id");