-- Keeps ticket_day_counts (schema.ts, docs/decisions/062) equal to what it counts: per event, the
-- tickets not revoked whose admitted_days is null (day 0) and, per day d >= 1, those whose
-- admitted_days lists d (each ticket once per day, however often the list repeats it). Statement
-- triggers with transition tables, so an import of many tickets costs one upsert per statement; they
-- run inside the writing transaction, so the counts commit (or roll back) with the tickets.
CREATE FUNCTION ticket_day_counts_ticket_days(admitted_days integer[]) RETURNS SETOF integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT d FROM unnest(CASE WHEN admitted_days IS NULL THEN ARRAY[0] ELSE admitted_days END) AS d
  WHERE d IS NOT NULL AND (admitted_days IS NULL OR d >= 1)
$$;
--> statement-breakpoint
CREATE FUNCTION ticket_day_counts_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- The statement's net change per (event, day): +1 per new row that counts, -1 per old row that did.
  change_events uuid[];
  change_days integer[];
  change_deltas bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(event_id), array_agg(day), array_agg(delta) INTO change_events, change_days, change_deltas
    FROM (SELECT event_id, day, sum(delta) AS delta FROM (SELECT t.event_id, d.day, +1 AS delta FROM new_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL) AS counted GROUP BY event_id, day HAVING sum(delta) <> 0) AS changes;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(event_id), array_agg(day), array_agg(delta) INTO change_events, change_days, change_deltas
    FROM (SELECT event_id, day, sum(delta) AS delta FROM (SELECT t.event_id, d.day, +1 AS delta FROM new_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL
      UNION ALL SELECT t.event_id, d.day, -1 AS delta FROM old_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL) AS counted GROUP BY event_id, day HAVING sum(delta) <> 0) AS changes;
  ELSE
    SELECT array_agg(event_id), array_agg(day), array_agg(delta) INTO change_events, change_days, change_deltas
    FROM (SELECT event_id, day, sum(delta) AS delta FROM (SELECT t.event_id, d.day, -1 AS delta FROM old_rows t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day) WHERE t.revoked_at IS NULL) AS counted GROUP BY event_id, day HAVING sum(delta) <> 0) AS changes;
  END IF;
  -- Lock the rows this statement changes in key order, so that two writers of one event (an import
  -- batch, a revoke, an edit of days) wait for each other instead of deadlocking.
  PERFORM 1 FROM ticket_day_counts AS c JOIN unnest(change_events, change_days) AS d(event_id, day) USING (event_id, day)
  ORDER BY c.event_id, c.day FOR UPDATE OF c;
  -- Additions may create a row; subtractions only ever meet a row that exists (its count was
  -- positive) and never insert one (a cascade from a deleted event may already have removed it).
  WITH delta AS (
    SELECT * FROM unnest(change_events, change_days, change_deltas) AS d(event_id, day, delta)
  ), added AS (
    INSERT INTO ticket_day_counts AS c (event_id, day, valid_tickets)
    SELECT event_id, day, delta FROM delta WHERE delta > 0 ORDER BY event_id, day
    ON CONFLICT (event_id, day) DO UPDATE SET valid_tickets = c.valid_tickets + excluded.valid_tickets
  )
  UPDATE ticket_day_counts AS c SET valid_tickets = c.valid_tickets + delta.delta
  FROM delta WHERE delta.delta < 0 AND c.event_id = delta.event_id AND c.day = delta.day;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_day_counts_insert AFTER INSERT ON tickets REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION ticket_day_counts_apply();
--> statement-breakpoint
CREATE TRIGGER ticket_day_counts_update AFTER UPDATE ON tickets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION ticket_day_counts_apply();
--> statement-breakpoint
CREATE TRIGGER ticket_day_counts_delete AFTER DELETE ON tickets REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION ticket_day_counts_apply();
--> statement-breakpoint
CREATE FUNCTION ticket_day_counts_clear() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM ticket_day_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_day_counts_truncate AFTER TRUNCATE ON tickets
FOR EACH STATEMENT EXECUTE FUNCTION ticket_day_counts_clear();
--> statement-breakpoint
-- The tickets already stored.
INSERT INTO ticket_day_counts (event_id, day, valid_tickets)
SELECT t.event_id, d.day, count(*) FROM tickets t CROSS JOIN LATERAL ticket_day_counts_ticket_days(t.admitted_days) AS d(day)
WHERE t.revoked_at IS NULL GROUP BY t.event_id, d.day;
