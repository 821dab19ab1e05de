CREATE TABLE "check_in_arrivals" (
	"event_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"check_in_list_id" uuid NOT NULL,
	"slot_start" timestamp with time zone NOT NULL,
	"arrivals" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "check_in_arrivals_pkey" PRIMARY KEY("event_id","day","check_in_list_id","slot_start")
);
--> statement-breakpoint
DROP INDEX "check_ins_active_arrivals_idx";--> statement-breakpoint
ALTER TABLE "check_in_arrivals" ADD CONSTRAINT "check_in_arrivals_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_arrivals" ADD CONSTRAINT "check_in_arrivals_check_in_list_fk" FOREIGN KEY ("event_id","check_in_list_id") REFERENCES "public"."check_in_lists"("event_id","id") ON DELETE cascade ON UPDATE no action;