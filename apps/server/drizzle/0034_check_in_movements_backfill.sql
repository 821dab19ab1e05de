-- The movements already stored in check_ins (docs/decisions/138) after each check-in's first entry:
-- its last re-entry and its exit since, with the scans the check-in kept of them (decisions 111,
-- 130). The first entry is not a movement row: the check-in row is it (its scan_id, staff_user_id,
-- checked_in_at, device_id, received_at). Re-entries and exits between the first entry and the
-- last re-entry were never kept and cannot be restored. A movement of an undone check-in is undone
-- with it.
INSERT INTO check_in_movements (event_id, check_in_id, direction, at, staff_user_id, scan_id, undone_at)
SELECT event_id, id, 'entry', last_entered_at, coalesce(last_entered_by, staff_user_id), last_entry_scan_id, undone_at
FROM check_ins WHERE last_entered_at IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO check_in_movements (event_id, check_in_id, direction, at, staff_user_id, scan_id, undone_at)
SELECT event_id, id, 'exit', exited_at, coalesce(exited_by, staff_user_id), exit_scan_id, undone_at
FROM check_ins WHERE exited_at IS NOT NULL
ON CONFLICT DO NOTHING;
