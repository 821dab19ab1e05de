-- ticket_day_counts per ticket type (docs/decisions/101): a check-in list's M (the tickets it admits
-- on a day) is the sum of the rows of its types, as the event's M is the sum of every type's rows.
-- The triggers of 0012 now count per (event, day, ticket type); the table is refilled from tickets.
DELETE FROM "ticket_day_counts";--> statement-breakpoint
ALTER TABLE "ticket_day_counts" ADD COLUMN "ticket_type" text NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_day_counts" DROP CONSTRAINT "ticket_day_counts_pkey";--> statement-breakpoint
ALTER TABLE "ticket_day_counts" ADD CONSTRAINT "ticket_day_counts_pkey" PRIMARY KEY("event_id","day","ticket_type");--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_day_counts_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- The statement's net change per (event, day, type): +1 per new row that counts, -1 per old row that did.
  change_events uuid[];
  change_days integer[];
  change_types text[];
  change_deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(event_id), array_agg(day), array_agg(ticket_type), array_agg(delta) INTO change_events, change_days, change_types, change_deltas
    FROM (SELECT event_id, day, ticket_type, sum(delta) AS delta FROM (SELECT t.event_id, d.day, t.ticket_type, +1 AS delta FROM new_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL) AS counted GROUP BY event_id, day, ticket_type HAVING sum(delta) <> 0) AS changes;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(event_id), array_agg(day), array_agg(ticket_type), array_agg(delta) INTO change_events, change_days, change_types, change_deltas
    FROM (SELECT event_id, day, ticket_type, sum(delta) AS delta FROM (SELECT t.event_id, d.day, t.ticket_type, +1 AS delta FROM new_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL
      UNION ALL SELECT t.event_id, d.day, t.ticket_type, -1 AS delta FROM old_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL) AS counted GROUP BY event_id, day, ticket_type HAVING sum(delta) <> 0) AS changes;
  ELSE
    SELECT array_agg(event_id), array_agg(day), array_agg(ticket_type), array_agg(delta) INTO change_events, change_days, change_types, change_deltas
    FROM (SELECT event_id, day, ticket_type, sum(delta) AS delta FROM (SELECT t.event_id, d.day, t.ticket_type, -1 AS delta FROM old_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL) AS counted GROUP BY event_id, day, ticket_type HAVING sum(delta) <> 0) AS changes;
  END IF;
  -- Lock the rows this statement changes in key order, so that two writers of one event (an import
  -- batch, a revoke, an edit of days or type) wait for each other instead of deadlocking.
  PERFORM 1 FROM ticket_day_counts AS c JOIN unnest(change_events, change_days, change_types) AS d(event_id, day, ticket_type) USING (event_id, day, ticket_type)
  ORDER BY c.event_id, c.day, c.ticket_type FOR UPDATE OF c;
  -- Additions may create a row; subtractions only ever meet a row that exists (its count was
  -- positive) and never insert one (a cascade from a deleted event may already have removed it).
  WITH delta AS (
    SELECT * FROM unnest(change_events, change_days, change_types, change_deltas) AS d(event_id, day, ticket_type, delta)
  ), added AS (
    INSERT INTO ticket_day_counts AS c (event_id, day, ticket_type, valid_tickets)
    SELECT event_id, day, ticket_type, delta FROM delta WHERE delta > 0 ORDER BY event_id, day, ticket_type
    ON CONFLICT (event_id, day, ticket_type) DO UPDATE SET valid_tickets = c.valid_tickets + excluded.valid_tickets
  )
  UPDATE ticket_day_counts AS c SET valid_tickets = c.valid_tickets + delta.delta
  FROM delta WHERE delta.delta < 0 AND c.event_id = delta.event_id AND c.day = delta.day AND c.ticket_type = delta.ticket_type;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The tickets already stored.
INSERT INTO ticket_day_counts (event_id, day, ticket_type, valid_tickets)
SELECT t.event_id, d.day, t.ticket_type, count(*) FROM tickets t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day)
WHERE t.revoked_at IS NULL GROUP BY t.event_id, d.day, t.ticket_type;
