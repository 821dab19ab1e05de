/**
 * The denial counts migration (docs/decisions/149) on a database that already has a scan log, on
 * PGlite and PostgreSQL: `denial_counts` starts with the denied rows counted per event, day and
 * reason ('unknown' for a null reason), nothing else of the log (approvals, info scans, undos with
 * their reasons), and the triggers keep it from there. On PostgreSQL, while the migration counts,
 * scan_log can still be read: the partial index is dropped after the count, not before.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { expect, test } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/client.ts';
import { migrateAcross, migrationsBefore, type Query } from './helpers/migrations.ts';
import { createPostgresTestDatabase, TEST_DATABASE_KIND } from './helpers/test-app.ts';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const FEST = '00000000-0000-4000-8000-0000000000e1';
const GALA = '00000000-0000-4000-8000-0000000000e2';
const STAFF = '00000000-0000-4000-8000-0000000000b1';
const row = (event: string, day: number, verdict: string, reason: string | null) =>
  `('${STAFF}', '${event}', ${day}, 'CODE', '${verdict}', ${reason === null ? 'null' : `'${reason}'`})`;
const SEED = `
  insert into organizations (id, name) values ('${ORG}', 'Org');
  insert into users (id, display_name, username, email, password_hash) values ('${STAFF}', 'Staff', 'staff', 'staff@example.com', 'x');
  insert into events (id, organization_id, title, date, status) values ('${FEST}', '${ORG}', 'Fest', '2026-12-01', 'live'), ('${GALA}', '${ORG}', 'Gala', '2026-12-01', 'live');
  insert into scan_log (user_id, event_id, day, code, verdict, reason) values
    ${[
      row(FEST, 1, 'denied', 'already_checked_in'),
      row(FEST, 1, 'denied', 'already_checked_in'),
      row(FEST, 1, 'denied', 'already_checked_in'),
      row(FEST, 1, 'denied', 'not_found'),
      row(FEST, 1, 'denied', null),
      row(FEST, 1, 'approved', null),
      row(FEST, 1, 'approved', 'conflict'),
      row(FEST, 1, 'info', null),
      row(FEST, 1, 'undone', 'Wrong person'),
      row(FEST, 2, 'denied', 'not_found'),
      row(GALA, 1, 'denied', 'revoked'),
    ].join(',\n    ')};
`;

/** The kept counts, shards summed, per event, day and reason. */
const KEPT = `select event_id, day, reason, sum(denials)::integer as denials from denial_counts group by 1, 2, 3 having sum(denials) <> 0 order by 1, 2, 3`;
/** The same from the scan log itself, as the live door counted before decision 149. */
const RECOUNT = `select event_id, day, coalesce(reason, 'unknown') as reason, count(*)::integer as denials from scan_log where verdict = 'denied' group by 1, 2, 3 order by 1, 2, 3`;

async function expectBackfilledAndKept(query: Query): Promise<void> {
  expect(await query(KEPT)).toEqual([
    { event_id: FEST, day: 1, reason: 'already_checked_in', denials: 3 },
    { event_id: FEST, day: 1, reason: 'not_found', denials: 1 },
    { event_id: FEST, day: 1, reason: 'unknown', denials: 1 },
    { event_id: FEST, day: 2, reason: 'not_found', denials: 1 },
    { event_id: GALA, day: 1, reason: 'revoked', denials: 1 },
  ]);
  expect(await query(KEPT)).toEqual(await query(RECOUNT));
  // The live door's old partial index is gone: nothing reads it any more.
  expect(await query(`select indexname from pg_indexes where indexname = 'scan_log_denials_idx'`)).toEqual([]);
  // From here the triggers: a denial more, one deleted, an approval and an info scan (not counted).
  await query(`insert into scan_log (user_id, event_id, day, code, verdict, reason) values ${row(FEST, 1, 'denied', 'already_checked_in')}, ${row(FEST, 1, 'approved', null)}, ${row(FEST, 1, 'info', null)}`);
  await query(`delete from scan_log where event_id = '${GALA}'`);
  expect(await query(KEPT)).toEqual(await query(RECOUNT));
  expect((await query(KEPT)).find((kept) => kept.reason === 'already_checked_in')).toMatchObject({ denials: 4 });
}

test(`the denial counts migration counts the denied scans already logged, then its triggers keep the counts (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  await migrateAcross({ before: '_denial_counts', seed: SEED, check: expectBackfilledAndKept });
});

// What the migration locks while it counts needs a second connection: PostgreSQL only (PGlite has one).
if (TEST_DATABASE_KIND === 'postgres') {
  test('while the migration counts the stored denials, scan_log can still be read: the partial index is dropped after the count, not before (postgres)', { timeout: 90_000 }, async () => {
    const earlier = await migrationsBefore('_denial_counts');
    const database = await createPostgresTestDatabase();
    const migrator = new pg.Pool({ connectionString: database.url, max: 1 });
    const holder = new pg.Client({ connectionString: database.url });
    const reader = new pg.Client({ connectionString: database.url });
    try {
      await migrate(drizzle({ client: migrator }), { migrationsFolder: earlier.path });
      await migrator.query(SEED);
      await holder.connect();
      await reader.connect();
      // The count's rows name their event: its foreign-key check waits for this lock on Fest, which
      // holds the migration in the middle of the count (nothing earlier in it waits for a row lock).
      await holder.query('begin');
      await holder.query(`select id from events where id = '${FEST}' for update`);
      const migrating = migrate(drizzle({ client: migrator }), { migrationsFolder: MIGRATIONS_FOLDER });
      let waiting = 0;
      for (let round = 0; round < 500 && waiting === 0; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const [row] = (await reader.query<{ waiting: number }>(`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%INSERT INTO denial_counts%'`)).rows;
        waiting = row?.waiting ?? 0;
      }
      expect(waiting, 'the migration never reached the count').toBe(1);
      const held = await reader.query<{ mode: string }>(
        `select mode from pg_locks where relation = 'scan_log'::regclass and granted and pid <> pg_backend_pid() order by mode`,
      );
      // CREATE TRIGGER's lock (writes wait), not DROP INDEX's ACCESS EXCLUSIVE (reads would wait too).
      expect(held.rows.map((lock) => lock.mode)).not.toContain('AccessExclusiveLock');
      await reader.query(`set lock_timeout = '2s'`);
      expect((await reader.query(`select count(*)::int as logged from scan_log`)).rows).toEqual([{ logged: 11 }]);
      await holder.query('commit');
      await migrating;
      expect(await reader.query(KEPT).then((result) => result.rows)).toEqual(await reader.query(RECOUNT).then((result) => result.rows));
      expect((await reader.query(`select indexname from pg_indexes where indexname = 'scan_log_denials_idx'`)).rows).toEqual([]);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end().catch(() => undefined);
      await reader.end().catch(() => undefined);
      await migrator.end();
      await database.drop();
      await earlier.remove();
    }
  });
}
