-- Keeps check_in_arrivals (schema.ts, docs/decisions/127) equal to what it counts: per event, day,
-- check-in list and 5-minute slot of checked_in_at (date_bin, aligned on 2000-01-01 UTC: slots start
-- at :00, :05, … as the contract's ARRIVALS_SLOT_MINUTES = 5), the check-ins not undone. Row
-- triggers in the writing transaction, so the counts commit (or roll back) with the check-ins. Each
-- change is one statement on one counter row: the upsert adds under the row's lock (ON CONFLICT DO
-- UPDATE waits for a concurrent writer of the same slot and adds to what it committed), so
-- concurrent check-ins never lose a count. An UPDATE that touches none of the counted columns (an
-- exit, a re-entry, a note) does not run the function at all (the triggers' WHEN).
CREATE FUNCTION check_in_arrivals_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.undone_at IS NULL THEN
    -- The row exists: its count went up when this check-in was counted (a cascade from a deleted
    -- event or list may have removed it already, then this updates nothing).
    UPDATE check_in_arrivals SET arrivals = arrivals - 1
    WHERE event_id = OLD.event_id AND day = OLD.day AND check_in_list_id = OLD.check_in_list_id
      AND slot_start = date_bin('5 minutes'::interval, OLD.checked_in_at, timestamptz '2000-01-01T00:00:00Z');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.undone_at IS NULL THEN
    INSERT INTO check_in_arrivals AS a (event_id, day, check_in_list_id, slot_start, arrivals)
    VALUES (NEW.event_id, NEW.day, NEW.check_in_list_id, date_bin('5 minutes'::interval, NEW.checked_in_at, timestamptz '2000-01-01T00:00:00Z'), 1)
    ON CONFLICT (event_id, day, check_in_list_id, slot_start) DO UPDATE SET arrivals = a.arrivals + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER check_in_arrivals_insert AFTER INSERT ON check_ins
FOR EACH ROW WHEN (NEW.undone_at IS NULL) EXECUTE FUNCTION check_in_arrivals_apply();
--> statement-breakpoint
CREATE TRIGGER check_in_arrivals_update AFTER UPDATE ON check_ins
FOR EACH ROW WHEN (
  OLD.undone_at IS DISTINCT FROM NEW.undone_at OR OLD.checked_in_at IS DISTINCT FROM NEW.checked_in_at
  OR OLD.check_in_list_id IS DISTINCT FROM NEW.check_in_list_id OR OLD.day IS DISTINCT FROM NEW.day
  OR OLD.event_id IS DISTINCT FROM NEW.event_id
) EXECUTE FUNCTION check_in_arrivals_apply();
--> statement-breakpoint
CREATE TRIGGER check_in_arrivals_delete AFTER DELETE ON check_ins
FOR EACH ROW WHEN (OLD.undone_at IS NULL) EXECUTE FUNCTION check_in_arrivals_apply();
--> statement-breakpoint
CREATE FUNCTION check_in_arrivals_clear() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM check_in_arrivals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER check_in_arrivals_truncate AFTER TRUNCATE ON check_ins
FOR EACH STATEMENT EXECUTE FUNCTION check_in_arrivals_clear();
--> statement-breakpoint
-- The check-ins already stored (the triggers above already hold check_ins' write lock in this
-- transaction, so no check-in lands between them and this count).
INSERT INTO check_in_arrivals (event_id, day, check_in_list_id, slot_start, arrivals)
SELECT event_id, day, check_in_list_id, date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z'), count(*)
FROM check_ins WHERE undone_at IS NULL
GROUP BY 1, 2, 3, 4;
