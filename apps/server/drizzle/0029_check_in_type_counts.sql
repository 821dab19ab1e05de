CREATE TABLE "check_in_type_counts" (
	"event_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"check_in_list_id" uuid NOT NULL,
	"ticket_type" text NOT NULL,
	"checked_in" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "check_in_type_counts_pkey" PRIMARY KEY("event_id","day","check_in_list_id","ticket_type")
);
--> statement-breakpoint
ALTER TABLE "check_in_type_counts" ADD CONSTRAINT "check_in_type_counts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_type_counts" ADD CONSTRAINT "check_in_type_counts_check_in_list_fk" FOREIGN KEY ("event_id","check_in_list_id") REFERENCES "public"."check_in_lists"("event_id","id") ON DELETE cascade ON UPDATE no action;