-- The live door's denials by reason kept in denial_counts (docs/decisions/149): statement triggers on
-- scan_log keep it in the writing transaction, whatever wrote the rows (verify's coalesced scan-log
-- write, a door transaction, a manual check-in, an offline upload, a database-level edit or delete).
-- A row counts when its verdict is 'denied', under its event, day and reason ('unknown' when null),
-- as the live door's GROUP BY over scan_log counted it before.
--
-- Additions go to the writing connection's shard (backend pid modulo 64): denials of one reason on
-- different connections then mostly lock different rows, and one statement's rows are summed per
-- key and upserted in key order (a coalesced batch of 50 denials is one upsert per reason, and two
-- batches on one shard lock their rows in the same order: no deadlock between them).
CREATE FUNCTION denial_counts_add(change_events uuid[], change_days integer[], change_reasons text[], change_deltas integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF change_events IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO denial_counts AS c (event_id, day, reason, shard, denials)
  SELECT ch.event_id, ch.day, ch.reason, (pg_backend_pid() % 64)::smallint, ch.delta
  FROM unnest(change_events, change_days, change_reasons, change_deltas) AS ch(event_id, day, reason, delta)
  WHERE ch.delta > 0 ORDER BY 1, 2, 3
  ON CONFLICT (event_id, day, reason, shard) DO UPDATE SET denials = c.denials + excluded.denials;
  -- Subtractions (a deleted or changed denied row) take from the reason's lowest shard: the read sums
  -- the shards, so which one does not matter. They never insert a row: a cascade from a deleted
  -- event may have removed the counts already (and a new row would point at the event going away).
  UPDATE denial_counts AS c SET denials = c.denials + ch.delta
  FROM unnest(change_events, change_days, change_reasons, change_deltas) AS ch(event_id, day, reason, delta)
  WHERE ch.delta < 0 AND c.event_id = ch.event_id AND c.day = ch.day AND c.reason = ch.reason
    AND c.shard = (SELECT min(s.shard) FROM denial_counts AS s WHERE s.event_id = ch.event_id AND s.day = ch.day AND s.reason = ch.reason);
END
$$;
--> statement-breakpoint
-- Inserts, verify's path: one upsert per (event, day, reason) of the statement's denied rows; a
-- statement without one (an approval, an undo, an info scan) upserts nothing.
CREATE FUNCTION denial_counts_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO denial_counts AS c (event_id, day, reason, shard, denials)
  SELECT n.event_id, n.day, coalesce(n.reason, 'unknown'), (pg_backend_pid() % 64)::smallint, count(*)::integer
  FROM new_rows AS n WHERE n.verdict = 'denied'
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (event_id, day, reason, shard) DO UPDATE SET denials = c.denials + excluded.denials;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Updates and deletes (Gatecheck does neither to scan_log; an event deleted at the database cascades
-- to its log): -1 per denied row before, +1 per denied row after, summed per key.
CREATE FUNCTION denial_counts_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  change_events uuid[]; change_days integer[]; change_reasons text[]; change_deltas integer[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(event_id), array_agg(day), array_agg(reason), array_agg(delta)
    INTO change_events, change_days, change_reasons, change_deltas
    FROM (
      SELECT o.event_id, o.day, coalesce(o.reason, 'unknown') AS reason, -count(*)::integer AS delta
      FROM old_rows AS o WHERE o.verdict = 'denied' GROUP BY 1, 2, 3
    ) AS changes;
  ELSE
    SELECT array_agg(event_id), array_agg(day), array_agg(reason), array_agg(delta)
    INTO change_events, change_days, change_reasons, change_deltas
    FROM (
      SELECT event_id, day, reason, sum(delta)::integer AS delta FROM (
        SELECT n.event_id, n.day, coalesce(n.reason, 'unknown') AS reason, 1 AS delta FROM new_rows AS n WHERE n.verdict = 'denied'
        UNION ALL
        SELECT o.event_id, o.day, coalesce(o.reason, 'unknown'), -1 FROM old_rows AS o WHERE o.verdict = 'denied'
      ) AS counted GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
    ) AS changes;
  END IF;
  PERFORM denial_counts_add(change_events, change_days, change_reasons, change_deltas);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION denial_counts_clear() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM denial_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER denial_counts_insert AFTER INSERT ON scan_log REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION denial_counts_inserted();
--> statement-breakpoint
CREATE TRIGGER denial_counts_update AFTER UPDATE ON scan_log REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION denial_counts_changed();
--> statement-breakpoint
CREATE TRIGGER denial_counts_delete AFTER DELETE ON scan_log REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION denial_counts_changed();
--> statement-breakpoint
CREATE TRIGGER denial_counts_truncate AFTER TRUNCATE ON scan_log
FOR EACH STATEMENT EXECUTE FUNCTION denial_counts_clear();
--> statement-breakpoint
-- The denied rows already stored. CREATE TRIGGER above took scan_log's SHARE ROW EXCLUSIVE lock, held
-- to the end of this transaction (drizzle's migrator runs every pending migration in one): writes to
-- scan_log wait from there, so nothing lands between the triggers and this count; reads go on. The
-- count reads the denied rows by scan_log_denials_idx, the partial index the live door read before.
INSERT INTO denial_counts (event_id, day, reason, shard, denials)
SELECT event_id, day, coalesce(reason, 'unknown'), 0, count(*)::integer
FROM scan_log WHERE verdict = 'denied'
GROUP BY 1, 2, 3;
--> statement-breakpoint
-- Nothing reads the partial index from here. Dropped last: DROP INDEX takes ACCESS EXCLUSIVE on
-- scan_log (every read waits), so taken first it would block the live door's reads of scan_log for the
-- whole count; here it is held only from this statement to the commit.
DROP INDEX "scan_log_denials_idx";
