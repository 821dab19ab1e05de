/**
 * The check-in notes migration (docs/decisions/102) on a database that already has tickets, on
 * PGlite and PostgreSQL: every (event, ticket type) the tickets name becomes a ticket type without
 * a note, tickets get an empty note and no attention flag, so every verdict reads as before.
 */
import { expect, test } from 'vitest';
import { migrateAcross, type Query } from './helpers/migrations.ts';
import { TEST_DATABASE_KIND } from './helpers/test-app.ts';

const SEED = `
  insert into organizations (id, name) values ('00000000-0000-4000-8000-0000000000a1', 'Org');
  insert into events (id, organization_id, title, date, status) values
    ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000a1', 'Fest', '2026-12-01', 'live'),
    ('00000000-0000-4000-8000-0000000000e2', '00000000-0000-4000-8000-0000000000a1', 'Expo', '2026-12-02', 'live');
  insert into tickets (code, event_id, holder_name, ticket_type) values
    ('AB-1', '00000000-0000-4000-8000-0000000000e1', 'Ann', 'VIP'),
    ('AB-2', '00000000-0000-4000-8000-0000000000e1', 'Ben', 'VIP'),
    ('AB-3', '00000000-0000-4000-8000-0000000000e1', 'Cat', 'General'),
    ('AB-4', '00000000-0000-4000-8000-0000000000e2', 'Dan', 'VIP');
`;

async function expectMigrated(query: Query): Promise<void> {
  expect(await query(`select event_id, name, check_in_note, requires_attention from ticket_types order by event_id, name`)).toEqual([
    { event_id: '00000000-0000-4000-8000-0000000000e1', name: 'General', check_in_note: '', requires_attention: false },
    { event_id: '00000000-0000-4000-8000-0000000000e1', name: 'VIP', check_in_note: '', requires_attention: false },
    { event_id: '00000000-0000-4000-8000-0000000000e2', name: 'VIP', check_in_note: '', requires_attention: false },
  ]);
  expect(await query(`select distinct check_in_note, requires_attention from tickets`)).toEqual([{ check_in_note: '', requires_attention: false }]);
}

// Every migration run twice on PGlite: about 10 s alone, past the 30 s default beside other test files on a loaded machine.
test(`the check-in notes migration gives existing tickets their types, without notes (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  await migrateAcross({ before: '_check_in_notes', seed: SEED, check: expectMigrated });
});
