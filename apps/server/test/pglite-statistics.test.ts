/**
 * The embedded database's planner statistics (decision 072), on PGlite whatever the project's
 * database: PostgreSQL's own autovacuum would analyze the tables under the test.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { analyzeGrownTables, keepStatistics } from '../src/db/pglite-statistics.ts';
import { rowsOf } from '../src/db/rows.ts';
import { benchNames, benchTicketCode, bulkLoadCheckIns, bulkLoadTickets, createBenchEvent, createBenchOrganization } from './helpers/bulk-load.ts';

let handle: DatabaseHandle;
let eventId: string;
let staffUserId: string;

beforeAll(async () => {
  handle = await openDatabase({ inMemory: true });
  const organization = await createBenchOrganization(handle);
  staffUserId = organization.adminUserId;
  eventId = await createBenchEvent(handle, organization.organizationId, 'Statistics Fest');
  // An event day begins: 40,000 tickets imported, statistics taken, no check-in yet.
  await bulkLoadTickets(handle, { eventId, prefix: 'ST', count: 40_000, names: benchNames() });
  await handle.db.execute(sql`analyze`);
}, 60_000);
afterAll(async () => {
  await handle.close();
});

/**
 * Of the tables `analyzeGrownTables` analyzed, check_ins, the one these tests grow. The trigger-kept
 * arrivals per slot (check_in_arrivals, docs/decisions/127) grow with it here: one bulk statement
 * updates its dozen rows thousands of times in one transaction, so their dead versions cannot be
 * pruned until it ends; analyzing it too is right, and not what these tests are about.
 */
async function analyzedCheckIns(): Promise<string[]> {
  return (await analyzeGrownTables(handle.db)).filter((table) => table === 'check_ins');
}

/** The plan of a scan's look-up of its ticket's active check-in of day 1 (as the scan read joins it). */
async function planOfScanRead(): Promise<string> {
  const result = await handle.db.execute(sql`
    explain select t.id, c.checked_in_at from tickets t
    left join check_ins c on c.event_id = t.event_id and c.ticket_id = t.id and c.day = 1 and c.undone_at is null
    where upper(t.code) = upper(${benchTicketCode('ST', 7)})`);
  return rowsOf<{ 'QUERY PLAN': string }>(result).map((row) => row['QUERY PLAN']).join('\n');
}

test('check-ins grown past their statistics are analyzed again, and the scan read finds its check-in by its key again', async () => {
  expect(await analyzedCheckIns()).toEqual([]);
  // The day goes on: 20,000 check-ins, and nothing in PGlite updates the statistics. The planner
  // still believes check_ins empty and reads every check-in of the day for each scan.
  await bulkLoadCheckIns(handle, { eventId, day: 1, staffUserId, every: 2 });
  expect(await planOfScanRead()).toMatch(/Index Scan using check_ins_active_event_day_idx[\s\S]*Filter: \(ticket_id = t\.id\)/);

  expect(await analyzedCheckIns()).toEqual(['check_ins']);
  // Found by its ticket now, through either index that leads with it or holds it: the planner
  // weighs the unique key and check_ins_ticket_id_idx the same, and ANALYZE's sample picks.
  expect(await planOfScanRead()).toMatch(/Index Scan using \w+ on check_ins c .*\n\s+Index Cond: \(.*ticket_id = t\.id/);
  expect(await planOfScanRead()).not.toMatch(/Filter: \(ticket_id = t\.id\)/);
  // Current now: nothing to do until it grows by another fifth.
  expect(await analyzedCheckIns()).toEqual([]);
});

test('a few new rows (under 8 pages), or less than a fifth more, do not cost an ANALYZE', async () => {
  const pagesOf = async () =>
    Number(rowsOf<{ relpages: number }>(await handle.db.execute(sql`select relpages from pg_class where relname = 'check_ins'`))[0]?.relpages);
  const analyzedPages = await pagesOf();
  await bulkLoadCheckIns(handle, { eventId, day: 2, staffUserId, every: 200 });
  expect(await analyzedCheckIns()).toEqual([]);
  await bulkLoadCheckIns(handle, { eventId, day: 3, staffUserId, every: 20 });
  expect(await analyzedCheckIns()).toEqual([]);
  await bulkLoadCheckIns(handle, { eventId, day: 4, staffUserId, every: 5 });
  expect(await analyzedCheckIns()).toEqual(['check_ins']);
  expect(await pagesOf()).toBeGreaterThan(analyzedPages * 1.2);
});

// Three loads of 40,000 check-ins, each row through the arrivals trigger (docs/decisions/127): 15 s
// on an idle machine, over the 30 s default on a loaded one.
test('keepStatistics looks at once and then on its timer, and stops', { timeout: 90_000 }, async () => {
  await bulkLoadCheckIns(handle, { eventId, day: 5, staffUserId, every: 1 });
  const analyzed: string[][] = [];
  const errors: unknown[] = [];
  const stop = keepStatistics(handle.db, { everyMs: 20, onAnalyzed: (tables) => tables.includes('check_ins') && analyzed.push(['check_ins']), onError: (error) => errors.push(error) });
  await expect.poll(() => analyzed).toEqual([['check_ins']]);
  await bulkLoadCheckIns(handle, { eventId, day: 6, staffUserId, every: 1 });
  await expect.poll(() => analyzed).toEqual([['check_ins'], ['check_ins']]);
  stop();
  await bulkLoadCheckIns(handle, { eventId, day: 7, staffUserId, every: 1 });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(analyzed).toHaveLength(2);
  expect(errors).toEqual([]);
});
