CREATE TABLE "ticket_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"check_in_note" text DEFAULT '' NOT NULL,
	"requires_attention" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_types_event_name_key" UNIQUE("event_id","name")
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "check_in_note" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "requires_attention" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every type the tickets already name becomes a ticket type without a note (docs/decisions/102).
INSERT INTO "ticket_types" ("event_id", "name") SELECT DISTINCT "event_id", "ticket_type" FROM "tickets" ON CONFLICT DO NOTHING;
