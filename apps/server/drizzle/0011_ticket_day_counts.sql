CREATE TABLE "ticket_day_counts" (
	"event_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"valid_tickets" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ticket_day_counts_pkey" PRIMARY KEY("event_id","day")
);
--> statement-breakpoint
ALTER TABLE "ticket_day_counts" ADD CONSTRAINT "ticket_day_counts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_ins_active_event_day_idx" ON "check_ins" USING btree ("event_id","day") WHERE "check_ins"."undone_at" is null;