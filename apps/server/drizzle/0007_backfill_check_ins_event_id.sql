-- Issue 14 item 6: every check-in carries its ticket's event (the key the check-in tables are
-- distributed by on Citus). Rows written before this migration take it from their ticket.
UPDATE "check_ins" SET "event_id" = "tickets"."event_id" FROM "tickets" WHERE "tickets"."id" = "check_ins"."ticket_id" AND "check_ins"."event_id" IS NULL;
