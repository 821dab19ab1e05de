/**
 * The check-in arrivals migration (docs/decisions/127) on a database that already has check-ins, on
 * PGlite and PostgreSQL: the new table starts with the existing active check-ins counted per event,
 * day, check-in list and 5-minute slot (undone ones not), and the triggers keep it from there.
 */
import { expect, test } from 'vitest';
import { migrateAcross, type Query } from './helpers/migrations.ts';
import { TEST_DATABASE_KIND } from './helpers/test-app.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const FEST = '00000000-0000-4000-8000-0000000000e1';
const NORTH = '00000000-0000-4000-8000-0000000000c1';
const SOUTH = '00000000-0000-4000-8000-0000000000c2';
const SEED = `
  insert into organizations (id, name) values ('${ORG}', 'Org');
  insert into users (id, display_name, username, email, password_hash) values ('00000000-0000-4000-8000-0000000000b1', 'Staff', 'staff', 'staff@example.com', 'x');
  insert into events (id, organization_id, title, date, status) values ('${FEST}', '${ORG}', 'Fest', '2026-12-01', 'live');
  insert into check_in_lists (id, event_id, name, position) values ('${NORTH}', '${FEST}', 'North', 10), ('${SOUTH}', '${FEST}', 'South', 11);
  insert into tickets (id, code, event_id, holder_name, ticket_type)
    select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'AR-' || n, '${FEST}', 'Holder ' || n, 'General' from generate_series(1, 6) as n;
  insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at, undone_at) values
    ('${FEST}', '00000000-0000-4000-8000-000000000001', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:00:00Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000002', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:04:59Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000003', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:05:00Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000004', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:06:00Z', '2026-12-01T19:07:00Z'),
    ('${FEST}', '00000000-0000-4000-8000-000000000005', 1, '${SOUTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:01:00Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000001', 2, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-02T19:01:00Z', null);
`;

const ROWS = `select day, check_in_list_id, to_char(slot_start at time zone 'UTC', 'HH24:MI') as slot, arrivals from check_in_arrivals order by day, check_in_list_id, slot_start`;

async function expectBackfilledAndKept(query: Query): Promise<void> {
  expect(await query(ROWS)).toEqual([
    { day: 1, check_in_list_id: NORTH, slot: '19:00', arrivals: 2 },
    { day: 1, check_in_list_id: NORTH, slot: '19:05', arrivals: 1 },
    { day: 1, check_in_list_id: SOUTH, slot: '19:00', arrivals: 1 },
    { day: 2, check_in_list_id: NORTH, slot: '19:00', arrivals: 1 },
  ]);
  // From here the triggers: a new check-in adds to its slot, an undo takes from it.
  await query(`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at) values ('${FEST}', '00000000-0000-4000-8000-000000000006', 1, '${SOUTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:02:00Z')`);
  await query(`update check_ins set undone_at = now() where ticket_id = '00000000-0000-4000-8000-000000000003'`);
  expect((await query(ROWS)).filter((row) => row.day === 1)).toEqual([
    { day: 1, check_in_list_id: NORTH, slot: '19:00', arrivals: 2 },
    { day: 1, check_in_list_id: NORTH, slot: '19:05', arrivals: 0 },
    { day: 1, check_in_list_id: SOUTH, slot: '19:00', arrivals: 2 },
  ]);
}

// Every migration run twice on PGlite: about 10 s alone, past the 30 s default beside other test files on a loaded machine.
test(`the arrivals migration counts the check-ins already stored, then its triggers keep the counts (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  await migrateAcross({ before: '_check_in_arrivals', seed: SEED, check: expectBackfilledAndKept });
});
