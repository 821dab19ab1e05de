/**
 * The check-in movements migration (docs/decisions/138) on a database that already has check-ins,
 * on PGlite and PostgreSQL: each check-in's last re-entry and exit become movements with their
 * scans, staff members and times (an undone check-in's undone with it); its first entry stays the
 * check-in row alone (no movement row); the check-in columns that kept those scans are gone.
 */
import { expect, test } from 'vitest';
import { migrateAcross, type Query } from './helpers/migrations.ts';
import { TEST_DATABASE_KIND } from './helpers/test-app.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const FEST = '00000000-0000-4000-8000-0000000000e1';
const HALL = '00000000-0000-4000-8000-0000000000c1';
const STAFF = '00000000-0000-4000-8000-0000000000b1';
const DOOR = '00000000-0000-4000-8000-0000000000b2';
const ticket = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const checkIn = (n: number) => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
const scan = (n: number) => `00000000-0000-4000-8000-0000000005${String(n).padStart(2, '0')}`;
const SEED = `
  insert into organizations (id, name) values ('${ORG}', 'Org');
  insert into users (id, display_name, username, email, password_hash) values ('${STAFF}', 'Staff', 'staff', 'staff@example.com', 'x'), ('${DOOR}', 'Door', 'door', 'door@example.com', 'x');
  insert into events (id, organization_id, title, date, status) values ('${FEST}', '${ORG}', 'Fest', '2026-12-01', 'live');
  insert into check_in_lists (id, event_id, name, position, allows_reentry) values ('${HALL}', '${FEST}', 'Hall', 10, true);
  insert into tickets (id, code, event_id, holder_name, ticket_type)
    select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'TM-' || n, '${FEST}', 'Holder ' || n, 'General' from generate_series(1, 4) as n;
  insert into check_ins (id, event_id, ticket_id, day, check_in_list_id, staff_user_id, scan_id, checked_in_at, last_entered_at, last_entry_scan_id, last_entered_by, exited_at, exited_by, exit_scan_id, undone_at, device_id, received_at) values
    ('${checkIn(1)}', '${FEST}', '${ticket(1)}', 1, '${HALL}', '${STAFF}', '${scan(1)}', '2026-12-01T18:00:00Z', null, null, null, null, null, null, null, null, null),
    ('${checkIn(2)}', '${FEST}', '${ticket(2)}', 1, '${HALL}', '${STAFF}', '${scan(2)}', '2026-12-01T18:01:00Z', '2026-12-01T19:00:00Z', '${scan(3)}', '${DOOR}', '2026-12-01T20:00:00Z', '${DOOR}', '${scan(4)}', null, null, null),
    ('${checkIn(3)}', '${FEST}', '${ticket(3)}', 1, '${HALL}', '${STAFF}', null, '2026-12-01T18:02:00Z', null, null, null, '2026-12-01T18:30:00Z', '${STAFF}', null, '2026-12-01T18:40:00Z', 'phone-a', '2026-12-01T18:35:00Z');
`;

const ROWS = `select check_in_id, direction::text as direction, to_char(at at time zone 'UTC', 'HH24:MI') as at, staff_user_id, scan_id, device_id, is_late, undone_at is not null as is_undone
  from check_in_movements order by check_in_id, at`;

async function expectBackfilled(query: Query): Promise<void> {
  expect(await query(ROWS)).toEqual([
    { check_in_id: checkIn(2), direction: 'entry', at: '19:00', staff_user_id: DOOR, scan_id: scan(3), device_id: null, is_late: false, is_undone: false },
    { check_in_id: checkIn(2), direction: 'exit', at: '20:00', staff_user_id: DOOR, scan_id: scan(4), device_id: null, is_late: false, is_undone: false },
    { check_in_id: checkIn(3), direction: 'exit', at: '18:30', staff_user_id: STAFF, scan_id: null, device_id: null, is_late: false, is_undone: true },
  ]);
  // The first entries stay the check-in rows' own, with their scans and devices.
  expect(await query(`select id, scan_id, device_id from check_ins order by id`)).toEqual([
    { id: checkIn(1), scan_id: scan(1), device_id: null },
    { id: checkIn(2), scan_id: scan(2), device_id: null },
    { id: checkIn(3), scan_id: null, device_id: 'phone-a' },
  ]);
  // The later movements' scans now live in the movements alone.
  const columns = await query(`select column_name from information_schema.columns where table_name = 'check_ins' and column_name in ('last_entry_scan_id', 'last_entered_by', 'exit_scan_id', 'last_entered_at', 'exited_at')`);
  expect(columns.map((row) => row.column_name).sort()).toEqual(['exited_at', 'last_entered_at']);
}

// Two runs of every migration on PGlite: about 15 s alone, past the 30 s default beside other test files on a loaded machine.
test(`the movements migration keeps every entry and exit the check-ins stored, with their scans, the first entry in the check-in row (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  await migrateAcross({ before: '_check_in_movements', seed: SEED, check: expectBackfilled });
});
