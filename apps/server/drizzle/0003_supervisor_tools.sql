CREATE TYPE "public"."scan_source" AS ENUM('scan', 'manual', 'undo');--> statement-breakpoint
ALTER TYPE "public"."scan_verdict" ADD VALUE 'undone';--> statement-breakpoint
CREATE TABLE "ticket_search_terms" (
	"ticket_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"term" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "check_ins" DROP CONSTRAINT "check_ins_ticket_day_key";--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "role" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "role" SET DEFAULT 'staff'::text;--> statement-breakpoint
-- Hand-written (docs/decisions/037): the old 'owner' role becomes 'admin' (both managed the organization).
UPDATE "memberships" SET "role" = 'admin' WHERE "role" = 'owner';--> statement-breakpoint
DROP TYPE "public"."membership_role";--> statement-breakpoint
CREATE TYPE "public"."membership_role" AS ENUM('staff', 'supervisor', 'admin');--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "role" SET DEFAULT 'staff'::"public"."membership_role";--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "role" SET DATA TYPE "public"."membership_role" USING "role"::"public"."membership_role";--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "undone_by" uuid;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "undo_reason" text;--> statement-breakpoint
ALTER TABLE "scan_log" ADD COLUMN "source" "scan_source" DEFAULT 'scan' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_search_terms" ADD CONSTRAINT "ticket_search_terms_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_search_terms" ADD CONSTRAINT "ticket_search_terms_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_search_terms_event_term_idx" ON "ticket_search_terms" USING btree ("event_id","term" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "ticket_search_terms_ticket_id_idx" ON "ticket_search_terms" USING btree ("ticket_id");--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_active_ticket_day_key" ON "check_ins" USING btree ("ticket_id","day") WHERE "check_ins"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "check_ins_ticket_id_idx" ON "check_ins" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "scan_log_event_time_idx" ON "scan_log" USING btree ("event_id","scanned_at","id");--> statement-breakpoint
-- Hand-written (docs/decisions/038): search terms of the tickets already stored — the code and every
-- word-start suffix of the holder name, in lower case. The server folds new terms with a
-- transliteration library; `npm run admin -- tickets reindex-search` refolds old ones the same way.
INSERT INTO "ticket_search_terms" ("ticket_id", "event_id", "term")
SELECT "id", "event_id", lower("code") FROM "tickets"
UNION ALL
SELECT t."id", t."event_id", array_to_string(w.words[i:array_length(w.words, 1)], ' ')
FROM "tickets" t
CROSS JOIN LATERAL (SELECT regexp_split_to_array(lower(btrim(t."holder_name")), '\s+') AS words) w
CROSS JOIN LATERAL generate_series(1, array_length(w.words, 1)) AS i
WHERE btrim(t."holder_name") <> '';
