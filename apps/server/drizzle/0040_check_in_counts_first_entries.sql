-- The counters' statement trigger (0030, decisions 127 and 132) with a short path for the common
-- INSERT (docs/decisions/160): a batch of first entries, each its ticket's only active check-in
-- that day (every check-in at an event with one list, the default), is counted by three statements
-- — the new rows' arrays, the tickets' lock, which also reads their types, and one statement of
-- two upserts — instead of the general case's seven (the arrays, the lock, the arrivals' upsert,
-- the per-type recount, check_in_type_counts_add's call and its two statements). The rule and the
-- turns the writers of one ticket take are unchanged; any other statement (one check-in, an
-- update, a delete), and an INSERT the short path does not hold for, runs the general case as
-- before (its text is 0030's).
CREATE OR REPLACE FUNCTION check_in_counts_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- The statement's check-ins that counted before it (old) and count after it (new), of the rows
  -- where it changed whether or where they count (an exit or a re-entry changes neither).
  old_ids uuid[]; old_events uuid[]; old_tickets uuid[]; old_days integer[]; old_lists uuid[]; old_slots timestamptz[];
  new_ids uuid[]; new_events uuid[]; new_tickets uuid[]; new_days integer[]; new_lists uuid[]; new_slots timestamptz[];
  ticket_ids uuid[]; ticket_types text[];
  one_id uuid; one_event uuid; one_ticket uuid; one_day integer; one_list uuid; one_type text; one_found boolean; first_other uuid;
  change_events uuid[]; change_days integer[]; change_lists uuid[]; change_types text[]; change_deltas integer[];
  is_counted boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(id), array_agg(event_id), array_agg(ticket_id), array_agg(day), array_agg(check_in_list_id),
      array_agg(date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z'))
    INTO new_ids, new_events, new_tickets, new_days, new_lists, new_slots
    FROM new_rows WHERE undone_at IS NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(id), array_agg(event_id), array_agg(ticket_id), array_agg(day), array_agg(check_in_list_id),
      array_agg(date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z'))
    INTO old_ids, old_events, old_tickets, old_days, old_lists, old_slots
    FROM old_rows WHERE undone_at IS NULL;
  ELSE
    SELECT array_agg(o.id) FILTER (WHERE o.undone_at IS NULL), array_agg(o.event_id) FILTER (WHERE o.undone_at IS NULL),
      array_agg(o.ticket_id) FILTER (WHERE o.undone_at IS NULL), array_agg(o.day) FILTER (WHERE o.undone_at IS NULL),
      array_agg(o.check_in_list_id) FILTER (WHERE o.undone_at IS NULL),
      array_agg(date_bin('5 minutes'::interval, o.checked_in_at, timestamptz '2000-01-01T00:00:00Z')) FILTER (WHERE o.undone_at IS NULL),
      array_agg(n.id) FILTER (WHERE n.undone_at IS NULL), array_agg(n.event_id) FILTER (WHERE n.undone_at IS NULL),
      array_agg(n.ticket_id) FILTER (WHERE n.undone_at IS NULL), array_agg(n.day) FILTER (WHERE n.undone_at IS NULL),
      array_agg(n.check_in_list_id) FILTER (WHERE n.undone_at IS NULL),
      array_agg(date_bin('5 minutes'::interval, n.checked_in_at, timestamptz '2000-01-01T00:00:00Z')) FILTER (WHERE n.undone_at IS NULL)
    INTO old_ids, old_events, old_tickets, old_days, old_lists, old_slots, new_ids, new_events, new_tickets, new_days, new_lists, new_slots
    FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
    WHERE (o.undone_at IS NULL) <> (n.undone_at IS NULL) OR o.event_id <> n.event_id OR o.ticket_id <> n.ticket_id
      OR o.day <> n.day OR o.check_in_list_id <> n.check_in_list_id OR o.checked_in_at <> n.checked_in_at;
  END IF;
  IF old_ids IS NULL AND new_ids IS NULL THEN
    RETURN NULL;
  END IF;
  old_ids := coalesce(old_ids, '{}'); new_ids := coalesce(new_ids, '{}');

  -- The common INSERT of several check-ins (a coalesced batch of scans; docs/decisions/160): every
  -- check-in it makes active is its ticket's only active check-in that day. Each then counts one
  -- arrival at its list and slot and its ticket once at its list, under its type: after the
  -- tickets' lock (which also reads their types), one statement of two upserts, in place of the
  -- general case's six below (the lock, the arrivals' upsert, the per-type recount,
  -- check_in_type_counts_add's call and its two statements). Whether it holds is read after the
  -- lock, as the general case reads the tickets' other check-ins: an event with one list cannot
  -- hold a second active check-in of a ticket on a day (every check-in's list is a list of its
  -- event, and the list's unique key allows one active check-in per ticket and day), so only the
  -- rows of events with several lists are looked up, by the ticket's index. When it does not hold
  -- (a ticket already in at another list, or twice in this statement) that statement changed
  -- nothing and the general case below answers the whole statement. One check-in (a quiet door's
  -- scan) keeps the general case's keyed statements, which cost less than this one for one row.
  IF TG_OP = 'INSERT' AND cardinality(new_ids) > 1 THEN
    SELECT array_agg(id), array_agg(ticket_type) INTO ticket_ids, ticket_types
    FROM (SELECT id, ticket_type FROM tickets WHERE id = ANY (new_tickets) ORDER BY id FOR NO KEY UPDATE) AS locked;
    -- The arrivals' upsert is read before the per-type one's rows are made (the count(*) in its
    -- condition), so the counter rows are locked in the general case's order: arrivals first, each
    -- table's rows in key order.
    WITH n AS MATERIALIZED (
      SELECT * FROM unnest(new_ids, new_events, new_tickets, new_days, new_lists, new_slots) AS n(id, event_id, ticket_id, day, check_in_list_id, slot_start)
    ), several_lists AS MATERIALIZED (
      SELECT l.event_id FROM check_in_lists AS l WHERE l.event_id IN (SELECT event_id FROM n) GROUP BY l.event_id HAVING count(*) > 1
    ), other AS MATERIALIZED (
      SELECT 1 FROM n CROSS JOIN LATERAL (
        SELECT c.id, c.event_id, c.day, c.undone_at FROM check_ins AS c WHERE c.ticket_id = n.ticket_id OFFSET 0
      ) AS c
      WHERE n.event_id IN (SELECT event_id FROM several_lists)
        AND c.event_id = n.event_id AND c.day = n.day AND c.undone_at IS NULL AND c.id <> n.id
      LIMIT 1
    ), arrived AS (
      INSERT INTO check_in_arrivals AS a (event_id, day, check_in_list_id, slot_start, arrivals)
      SELECT event_id, day, check_in_list_id, slot_start, count(*)
      FROM n WHERE NOT EXISTS (SELECT 1 FROM other) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (event_id, day, check_in_list_id, slot_start) DO UPDATE SET arrivals = a.arrivals + excluded.arrivals
      RETURNING 1
    ), typed AS (
      INSERT INTO check_in_type_counts AS c (event_id, day, check_in_list_id, ticket_type, checked_in)
      SELECT n.event_id, n.day, n.check_in_list_id, t.ticket_type, count(*)
      FROM n JOIN unnest(ticket_ids, ticket_types) AS t(id, ticket_type) ON t.id = n.ticket_id
      WHERE NOT EXISTS (SELECT 1 FROM other) AND (SELECT count(*) FROM arrived) >= 0
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
      ON CONFLICT (event_id, day, check_in_list_id, ticket_type) DO UPDATE SET checked_in = c.checked_in + excluded.checked_in
      RETURNING 1
    )
    SELECT NOT EXISTS (SELECT 1 FROM other) AND (SELECT count(*) FROM typed) >= 0 INTO is_counted;
    IF is_counted THEN
      RETURN NULL;
    END IF;
  END IF;

  -- Take turns with every other writer of these tickets (see above) first, before any counter row
  -- is touched: a scan that waits for its ticket (a rename of its type updates every ticket of the
  -- type in one transaction) then holds no list's arrivals row while it waits, and the other scans
  -- at that list and slot go on. Read the tickets' types now (a ticket deleted with its check-ins,
  -- the cascade, is no longer found: its BEFORE DELETE trigger took its counts away while they
  -- could still be read).
  IF cardinality(old_ids) + cardinality(new_ids) = 1 THEN
    IF cardinality(new_ids) = 1 THEN
      one_id := new_ids[1]; one_event := new_events[1]; one_ticket := new_tickets[1]; one_day := new_days[1]; one_list := new_lists[1];
    ELSE
      one_id := old_ids[1]; one_event := old_events[1]; one_ticket := old_tickets[1]; one_day := old_days[1]; one_list := old_lists[1];
    END IF;
    SELECT ticket_type INTO one_type FROM tickets WHERE id = one_ticket FOR NO KEY UPDATE;
    one_found := FOUND;
  ELSE
    SELECT array_agg(id), array_agg(ticket_type) INTO ticket_ids, ticket_types
    FROM (SELECT id, ticket_type FROM tickets WHERE id = ANY (coalesce(old_tickets, '{}') || coalesce(new_tickets, '{}')) ORDER BY id FOR NO KEY UPDATE) AS locked;
  END IF;

  -- Arrivals (check_in_arrivals, decision 127): +1 per check-in that counts now at its list and
  -- 5-minute slot, -1 per one that counted before, summed per row in one upsert (a row per slot,
  -- not per check-in). Subtractions only ever meet a row that exists and never insert one (a
  -- cascade from a deleted event or list may have removed it).
  IF cardinality(old_ids) + cardinality(new_ids) = 1 THEN
    IF cardinality(new_ids) = 1 THEN
      INSERT INTO check_in_arrivals AS a (event_id, day, check_in_list_id, slot_start, arrivals)
      VALUES (new_events[1], new_days[1], new_lists[1], new_slots[1], 1)
      ON CONFLICT (event_id, day, check_in_list_id, slot_start) DO UPDATE SET arrivals = a.arrivals + 1;
    ELSE
      UPDATE check_in_arrivals SET arrivals = arrivals - 1
      WHERE event_id = old_events[1] AND day = old_days[1] AND check_in_list_id = old_lists[1] AND slot_start = old_slots[1];
    END IF;
  ELSE
    WITH changes AS (
      SELECT event_id, day, check_in_list_id, slot_start, sum(delta)::integer AS delta FROM (
        SELECT n.event_id, n.day, n.check_in_list_id, n.slot_start, 1 AS delta FROM unnest(new_events, new_days, new_lists, new_slots) AS n(event_id, day, check_in_list_id, slot_start)
        UNION ALL
        SELECT o.event_id, o.day, o.check_in_list_id, o.slot_start, -1 FROM unnest(old_events, old_days, old_lists, old_slots) AS o(event_id, day, check_in_list_id, slot_start)
      ) AS counted GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
    ), added AS (
      INSERT INTO check_in_arrivals AS a (event_id, day, check_in_list_id, slot_start, arrivals)
      SELECT event_id, day, check_in_list_id, slot_start, delta FROM changes WHERE delta > 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (event_id, day, check_in_list_id, slot_start) DO UPDATE SET arrivals = a.arrivals + excluded.arrivals
    )
    UPDATE check_in_arrivals AS a SET arrivals = a.arrivals + changes.delta FROM changes
    WHERE changes.delta < 0 AND a.event_id = changes.event_id AND a.day = changes.day
      AND a.check_in_list_id = changes.check_in_list_id AND a.slot_start = changes.slot_start;
  END IF;

  -- Checked in per ticket type (check_in_type_counts).
  IF cardinality(old_ids) + cardinality(new_ids) = 1 THEN
    -- One check-in counted or no longer counted (a scan, an undo: the hot path): the same rule in
    -- statements the planner answers by key, without the general case's sets (its ticket locked
    -- and read above).
    IF NOT one_found THEN
      RETURN NULL;
    END IF;
    -- The first list of the ticket's other active check-ins that day: it counts the ticket both
    -- before and after, unless this one's list comes first.
    -- (Its check-ins by the ticket's index alone, OFFSET 0 keeping the other conditions out of that
    -- scan: with statistics behind a bulk load the planner would otherwise pick the index of the
    -- event's day and read every check-in of the day for this one ticket.)
    SELECT c.check_in_list_id INTO first_other
    FROM (SELECT id, event_id, day, check_in_list_id, undone_at FROM check_ins WHERE ticket_id = one_ticket OFFSET 0) AS c
    WHERE c.event_id = one_event AND c.day = one_day AND c.undone_at IS NULL AND c.id <> one_id
    ORDER BY c.check_in_list_id LIMIT 1;
    IF first_other IS NOT NULL AND first_other <= one_list THEN
      RETURN NULL;
    END IF;
    IF cardinality(new_ids) = 1 THEN
      INSERT INTO check_in_type_counts AS c (event_id, day, check_in_list_id, ticket_type, checked_in)
      VALUES (one_event, one_day, one_list, one_type, 1)
      ON CONFLICT (event_id, day, check_in_list_id, ticket_type) DO UPDATE SET checked_in = c.checked_in + 1;
      IF first_other IS NOT NULL THEN
        UPDATE check_in_type_counts SET checked_in = checked_in - 1
        WHERE event_id = one_event AND day = one_day AND check_in_list_id = first_other AND ticket_type = one_type;
      END IF;
    ELSE
      UPDATE check_in_type_counts SET checked_in = checked_in - 1
      WHERE event_id = one_event AND day = one_day AND check_in_list_id = one_list AND ticket_type = one_type;
      IF first_other IS NOT NULL THEN
        INSERT INTO check_in_type_counts AS c (event_id, day, check_in_list_id, ticket_type, checked_in)
        VALUES (one_event, one_day, first_other, one_type, 1)
        ON CONFLICT (event_id, day, check_in_list_id, ticket_type) DO UPDATE SET checked_in = c.checked_in + 1;
      END IF;
    END IF;
    RETURN NULL;
  END IF;
  -- The tickets were locked and their types read above.
  IF ticket_ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- Per (event, ticket, day) touched: the list that counts it before the statement (the check-ins
  -- now, without the statement's new rows, with its old ones) and after it (the check-ins now). Each
  -- pair's check-ins by the ticket's index alone (LATERAL and OFFSET 0, as above: the arrays' sizes
  -- are unknown to the planner, and the day's index would read every check-in of the day per pair).
  WITH changed_old AS (
    SELECT * FROM unnest(old_ids, old_events, old_tickets, old_days, old_lists) AS o(id, event_id, ticket_id, day, check_in_list_id)
  ), changed_new AS (
    SELECT * FROM unnest(new_ids, new_events, new_tickets, new_days, new_lists) AS n(id, event_id, ticket_id, day, check_in_list_id)
  ), pairs AS (
    SELECT event_id, ticket_id, day FROM changed_old UNION SELECT event_id, ticket_id, day FROM changed_new
  ), now_active AS (
    SELECT c.id, p.event_id, p.ticket_id, p.day, c.check_in_list_id
    FROM pairs AS p CROSS JOIN LATERAL (
      SELECT c.id, c.event_id, c.day, c.check_in_list_id, c.undone_at FROM check_ins AS c WHERE c.ticket_id = p.ticket_id OFFSET 0
    ) AS c
    WHERE c.event_id = p.event_id AND c.day = p.day AND c.undone_at IS NULL
  ), before_active AS (
    SELECT * FROM now_active AS a WHERE NOT EXISTS (SELECT 1 FROM changed_new AS n WHERE n.id = a.id) UNION ALL SELECT * FROM changed_old
  ), counted AS (
    SELECT event_id, ticket_id, day, check_in_list_id, -1 AS delta
    FROM (SELECT DISTINCT ON (event_id, ticket_id, day) * FROM before_active ORDER BY event_id, ticket_id, day, check_in_list_id) AS first_before
    UNION ALL
    SELECT event_id, ticket_id, day, check_in_list_id, 1 AS delta
    FROM (SELECT DISTINCT ON (event_id, ticket_id, day) * FROM now_active ORDER BY event_id, ticket_id, day, check_in_list_id) AS first_after
  ), changes AS (
    SELECT counted.event_id, counted.day, counted.check_in_list_id, t.ticket_type, sum(counted.delta)::integer AS delta
    FROM counted JOIN unnest(ticket_ids, ticket_types) AS t(id, ticket_type) ON t.id = counted.ticket_id
    GROUP BY 1, 2, 3, 4 HAVING sum(counted.delta) <> 0
  )
  SELECT array_agg(event_id), array_agg(day), array_agg(check_in_list_id), array_agg(ticket_type), array_agg(delta)
  INTO change_events, change_days, change_lists, change_types, change_deltas FROM changes;
  PERFORM check_in_type_counts_add(change_events, change_days, change_lists, change_types, change_deltas);
  RETURN NULL;
END
$$;
