/**
 * Migration 0003 (issue 11) on a database that already has data, on PGlite and PostgreSQL: the old
 * `owner` role becomes `admin` (staff and admin stay), existing tickets get search terms (code and
 * word-start suffixes of the holder name, lower case), existing check-ins stay active and the new
 * partial unique index still allows one active check-in per ticket and day. Migrations 0006–0010
 * (issue 14 item 6) give the existing check-in its ticket's event id, now part of that index.
 */
import { expect, test } from 'vitest';
import { migrateAcross, type Query } from './helpers/migrations.ts';
import { TEST_DATABASE_KIND } from './helpers/test-app.ts';

/** The rows a 0002 database holds: three users with the old roles, a ticket, a check-in. */
const SEED_0002 = `
  insert into users (id, display_name, username, email, password_hash) values
    ('00000000-0000-4000-8000-000000000001', 'Olga Owner', 'olga', 'olga@example.com', 'x'),
    ('00000000-0000-4000-8000-000000000002', 'Adam Admin', 'adam', 'adam@example.com', 'x'),
    ('00000000-0000-4000-8000-000000000003', 'Stan Staff', 'stan', 'stan@example.com', 'x');
  insert into organizations (id, name) values ('00000000-0000-4000-8000-0000000000a1', 'Org');
  insert into memberships (user_id, organization_id, role) values
    ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', 'owner'),
    ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a1', 'admin'),
    ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-0000000000a1', 'staff');
  insert into events (id, organization_id, title, date, status) values
    ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000a1', 'Fest', '2026-12-01', 'live');
  insert into tickets (id, code, event_id, holder_name, ticket_type) values
    ('00000000-0000-4000-8000-0000000000f1', 'AB-123', '00000000-0000-4000-8000-0000000000e1', '  Mary   Jane Watson ', 'VIP');
  insert into check_ins (ticket_id, day, staff_user_id) values
    ('00000000-0000-4000-8000-0000000000f1', 1, '00000000-0000-4000-8000-000000000003');
`;

async function expectMigratedData(query: Query): Promise<void> {
  expect(await query('select role::text as role from memberships order by user_id')).toEqual([{ role: 'admin' }, { role: 'admin' }, { role: 'staff' }]);
  expect((await query('select term from ticket_search_terms order by term')).map((row) => row.term)).toEqual([
    'ab-123',
    'jane watson',
    'mary jane watson',
    'watson',
  ]);
  // Migration 0007 gave the existing check-in its ticket's event (issue 14 item 6).
  expect(await query('select undone_at, event_id from check_ins')).toEqual([{ undone_at: null, event_id: '00000000-0000-4000-8000-0000000000e1' }]);
  // Migration 0016 put it on the event's 'All tickets' list, whose unique index now holds it.
  const secondCheckIn = `insert into check_ins (event_id, ticket_id, day, staff_user_id, check_in_list_id)
    select '00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000f1', 1, '00000000-0000-4000-8000-000000000003', id
    from check_in_lists where event_id = '00000000-0000-4000-8000-0000000000e1'`;
  await expect(query(secondCheckIn)).rejects.toThrow(/check_ins_active_list_day_ticket_key/);
  await query(`update check_ins set undone_at = now(), undo_reason = 'test'`);
  await query(secondCheckIn);
  expect(await query('select count(*)::int as n from check_ins')).toEqual([{ n: 2 }]);
}

// Every migration run twice on PGlite: about 10 s alone, past the 30 s default beside other test files on a loaded machine.
test(`0003 maps owner to admin, indexes existing tickets and keeps check-ins (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  await migrateAcross({ before: '_supervisor_tools', seed: SEED_0002, check: expectMigratedData });
});
