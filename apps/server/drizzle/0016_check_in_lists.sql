-- Check-in lists (docs/decisions/100). Every event that exists gets one list, 'All tickets' (every
-- ticket type, every day), and every check-in it has is on that list: the event behaves as before
-- (one check-in per ticket and day), now as one per ticket, list and day.
CREATE TABLE "check_in_lists" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"ticket_types" text[],
	"days" integer[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "check_in_lists_pkey" PRIMARY KEY("event_id","id")
);
--> statement-breakpoint
ALTER TABLE "check_in_lists" ADD CONSTRAINT "check_in_lists_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_lists_event_name_key" ON "check_in_lists" USING btree ("event_id",lower("name"));--> statement-breakpoint
-- Every event gets its first list in the statement that makes it, whoever makes it (the service, the
-- demo seed, an operator's SQL): 'All tickets' (DEFAULT_CHECK_IN_LIST_NAME in the contract).
CREATE FUNCTION events_first_check_in_list() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_in_lists (event_id, name, position) SELECT id, 'All tickets', 1 FROM new_events;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_first_check_in_list AFTER INSERT ON events REFERENCING NEW TABLE AS new_events
FOR EACH STATEMENT EXECUTE FUNCTION events_first_check_in_list();
--> statement-breakpoint
INSERT INTO "check_in_lists" ("event_id", "name", "position") SELECT "id", 'All tickets', 1 FROM "events";--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "check_in_list_id" uuid;--> statement-breakpoint
UPDATE "check_ins" SET "check_in_list_id" = l."id" FROM "check_in_lists" l WHERE l."event_id" = "check_ins"."event_id";--> statement-breakpoint
ALTER TABLE "check_ins" ALTER COLUMN "check_in_list_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_check_in_list_fk" FOREIGN KEY ("event_id","check_in_list_id") REFERENCES "public"."check_in_lists"("event_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_active_list_day_ticket_key" ON "check_ins" USING btree ("event_id","check_in_list_id","day","ticket_id") WHERE "check_ins"."undone_at" is null;--> statement-breakpoint
DROP INDEX "check_ins_active_event_ticket_day_key";
