/**
 * The upgrade to check-in lists (migrations 0016 and 0017, docs/decisions/100, 101) on a database
 * that already has events, tickets and check-ins, on PGlite and PostgreSQL, through the app's own
 * start-up migration (`openDatabase`): every event gets one list, 'All tickets' (every type, every
 * day); every check-in, active or undone, is on it; the per-type day counts are filled from the
 * tickets; and verify behaves as before the upgrade — a ticket checked in before is already
 * checked in, an undone one and a new one are admitted once.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { countCheckInsByDay } from '../src/services/check-in-counts.ts';
import { verifyTicket } from '../src/services/check-ins/verify.ts';
import { migrationsBefore, type MigrationsFolder } from './helpers/migrations.ts';
import { createPostgresTestDatabase, TEST_DATABASE_KIND } from './helpers/test-app.ts';

/** The migrations folder as it was before check-in lists: the migrations before `…_check_in_lists`. */
let beforeLists: MigrationsFolder;
beforeAll(async () => {
  beforeLists = await migrationsBefore('_check_in_lists');
});
afterAll(async () => {
  await beforeLists.remove();
});

const EVENT = '00000000-0000-4000-8000-0000000000e1';
const OTHER_EVENT = '00000000-0000-4000-8000-0000000000e2';
const STAFF = '00000000-0000-4000-8000-000000000003';
/** Noon on the event's one day (2026-12-01, UTC). */
const DOOR_TIME = new Date('2026-12-01T12:00:00Z');

/** What a 0015 database holds: two live events, tickets of two types, a check-in that stands and one undone. */
const SEED_0015 = `
  insert into users (id, display_name, username, email, password_hash) values ('${STAFF}', 'Stan Staff', 'stan', 'stan@example.com', 'x');
  insert into organizations (id, name) values ('00000000-0000-4000-8000-0000000000a1', 'Org');
  insert into memberships (user_id, organization_id, role) values ('${STAFF}', '00000000-0000-4000-8000-0000000000a1', 'staff');
  insert into events (id, organization_id, title, date, status) values
    ('${EVENT}', '00000000-0000-4000-8000-0000000000a1', 'Fest', '2026-12-01', 'live'),
    ('${OTHER_EVENT}', '00000000-0000-4000-8000-0000000000a1', 'Other Fest', '2026-12-02', 'live');
  insert into tickets (id, code, event_id, holder_name, ticket_type) values
    ('00000000-0000-4000-8000-0000000000f1', 'UP-VIP-1', '${EVENT}', 'Vera Vip', 'VIP'),
    ('00000000-0000-4000-8000-0000000000f2', 'UP-GA-1', '${EVENT}', 'Gus General', 'General'),
    ('00000000-0000-4000-8000-0000000000f3', 'UP-GA-2', '${EVENT}', 'Una Undone', 'General');
  insert into tickets (code, event_id, holder_name, ticket_type, revoked_at) values ('UP-GONE-1', '${EVENT}', 'Rev Oked', 'VIP', now());
  insert into check_ins (event_id, ticket_id, day, staff_user_id) values ('${EVENT}', '00000000-0000-4000-8000-0000000000f1', 1, '${STAFF}');
  insert into check_ins (event_id, ticket_id, day, staff_user_id, undone_at, undone_by, undo_reason)
    values ('${EVENT}', '00000000-0000-4000-8000-0000000000f3', 1, '${STAFF}', now(), '${STAFF}', 'wrong person');
`;

async function expectUpgraded(handle: DatabaseHandle): Promise<void> {
  const { db } = handle;
  const rows = async (query: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await db.execute(query));
  expect(await rows(sql`select event_id, name, position, ticket_types, days from check_in_lists order by event_id`)).toEqual([
    { event_id: EVENT, name: 'All tickets', position: 1, ticket_types: null, days: null },
    { event_id: OTHER_EVENT, name: 'All tickets', position: 1, ticket_types: null, days: null },
  ]);
  expect(
    await rows(sql`select count(*)::int as n from check_ins c join check_in_lists l on l.event_id = c.event_id and l.id = c.check_in_list_id where l.name = 'All tickets'`),
  ).toEqual([{ n: 2 }]);
  expect(await rows(sql`select ticket_type, day, valid_tickets::int as n from ticket_day_counts where event_id = ${EVENT} order by ticket_type`)).toEqual([
    { ticket_type: 'General', day: 0, n: 2 },
    { ticket_type: 'VIP', day: 0, n: 1 },
  ]);
  expect((await countCheckInsByDay(db, EVENT, 1)).days).toMatchObject([{ day: 1, checkedIn: 1, admitted: 3 }]);

  const scan = (qrCode: string) => verifyTicket(db, { userId: STAFF }, { eventId: EVENT, qrCode, day: 1 }, DOOR_TIME);
  expect(await scan('UP-VIP-1')).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInBy: 'Stan Staff' });
  expect(await scan('UP-GA-2')).toMatchObject({ isValid: true, holderName: 'Una Undone' });
  expect(await scan('UP-GA-1')).toMatchObject({ isValid: true, ticketType: 'General' });
  expect(await scan('UP-GA-1')).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  expect((await countCheckInsByDay(db, EVENT, 1)).days).toMatchObject([{ checkedIn: 3, admitted: 3 }]);
}

// Every migration run twice on PGlite: about 10 s alone, past the 30 s default beside other test files on a loaded machine.
test(`an existing database gets its 'All tickets' lists and behaves as before (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  if (TEST_DATABASE_KIND === 'pglite') {
    const client = await PGlite.create();
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: beforeLists.path });
    await client.exec(SEED_0015);
    const dump = await client.dumpDataDir('none');
    await client.close();
    // The server's start-up migration applies the rest.
    const handle = await openDatabase({ inMemory: true, loadDataDir: dump });
    try {
      await expectUpgraded(handle);
    } finally {
      await handle.close();
    }
    return;
  }
  const database = await createPostgresTestDatabase();
  try {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      await migratePg(drizzlePg({ client: pool }), { migrationsFolder: beforeLists.path });
      await pool.query(SEED_0015);
    } finally {
      await pool.end();
    }
    const handle = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
    try {
      await expectUpgraded(handle);
    } finally {
      await handle.close();
    }
  } finally {
    await database.drop();
  }
});
