/**
 * The checked-in-per-ticket-type migration (docs/decisions/132) on a database that already has
 * check-ins, on PGlite and PostgreSQL: the new table starts with the distinct tickets of each type
 * with an active check-in per event and day (a ticket in at two lists once, at the first list in id
 * order; undone check-ins not), and the triggers keep it from there.
 */
import { expect, test } from 'vitest';
import { migrateAcross, type Query } from './helpers/migrations.ts';
import { TEST_DATABASE_KIND } from './helpers/test-app.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const FEST = '00000000-0000-4000-8000-0000000000e1';
const NORTH = '00000000-0000-4000-8000-0000000000c1';
const SOUTH = '00000000-0000-4000-8000-0000000000c2';
const STAFF = '00000000-0000-4000-8000-0000000000b1';
const ticket = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SEED = `
  insert into organizations (id, name) values ('${ORG}', 'Org');
  insert into users (id, display_name, username, email, password_hash) values ('${STAFF}', 'Staff', 'staff', 'staff@example.com', 'x');
  insert into events (id, organization_id, title, date, status) values ('${FEST}', '${ORG}', 'Fest', '2026-12-01', 'live');
  insert into check_in_lists (id, event_id, name, position) values ('${NORTH}', '${FEST}', 'North', 10), ('${SOUTH}', '${FEST}', 'South', 11);
  insert into tickets (id, code, event_id, holder_name, ticket_type)
    select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'TC-' || n, '${FEST}', 'Holder ' || n, case when n <= 4 then 'General' else 'VIP' end from generate_series(1, 6) as n;
  insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, undone_at) values
    ('${FEST}', '${ticket(1)}', 1, '${NORTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(1)}', 1, '${SOUTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(2)}', 1, '${SOUTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(3)}', 1, '${NORTH}', '${STAFF}', now()),
    ('${FEST}', '${ticket(5)}', 1, '${SOUTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(1)}', 2, '${NORTH}', '${STAFF}', null);
`;

const ROWS = `select day, check_in_list_id, ticket_type, checked_in from check_in_type_counts where checked_in <> 0 order by day, check_in_list_id, ticket_type`;

async function expectBackfilledAndKept(query: Query): Promise<void> {
  // Ticket 1 at North and South on day 1 counts once, at North (the first list in id order).
  expect(await query(ROWS)).toEqual([
    { day: 1, check_in_list_id: NORTH, ticket_type: 'General', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'General', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'VIP', checked_in: 1 },
    { day: 2, check_in_list_id: NORTH, ticket_type: 'General', checked_in: 1 },
  ]);
  // From here the triggers: ticket 1's North check-in undone moves its count to South, ticket 6
  // comes in, ticket 2 becomes VIP.
  await query(`update check_ins set undone_at = now() where ticket_id = '${ticket(1)}' and day = 1 and check_in_list_id = '${NORTH}'`);
  await query(`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id) values ('${FEST}', '${ticket(6)}', 1, '${NORTH}', '${STAFF}')`);
  await query(`update tickets set ticket_type = 'VIP' where id = '${ticket(2)}'`);
  expect((await query(ROWS)).filter((row) => row.day === 1)).toEqual([
    { day: 1, check_in_list_id: NORTH, ticket_type: 'VIP', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'General', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'VIP', checked_in: 2 },
  ]);
}

// Two runs of every migration on PGlite: about 15 s alone, past the 30 s default beside other test files on a loaded machine.
test(`the type counts migration counts the check-ins already stored, then its triggers keep the counts (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  await migrateAcross({ before: '_check_in_type_counts', seed: SEED, check: expectBackfilledAndKept });
});
