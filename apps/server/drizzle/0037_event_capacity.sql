CREATE TABLE "event_slots" (
	"event_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"ticket_id" uuid,
	"day" integer,
	"expires_at" timestamp with time zone,
	CONSTRAINT "event_slots_pkey" PRIMARY KEY("event_id","slot")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "event_slots" ADD CONSTRAINT "event_slots_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_slots_ticket_idx" ON "event_slots" USING btree ("event_id","ticket_id","day");--> statement-breakpoint
CREATE INDEX "event_slots_free_idx" ON "event_slots" USING btree ("event_id","slot") WHERE "event_slots"."ticket_id" is null;