/**
 * Which of the door's read statements grow with the day's check-ins (docs/decisions/140): the
 * statements the soak's reads send (the day's counts, a list's counts, the live door, the door
 * list since a cursor; captured from real requests, helpers/query-plans.ts), EXPLAIN ANALYZEd on
 * the embedded database at a soak's sizes of check-ins: a door of `--tickets` (default 33,000,
 * what a 35-minute soak prepares), checked in `--step` (default 840: a minute of the soak's 14
 * check-ins a second) per transaction, with the scan log's rows beside them (a logged approval per
 * check-in, 3 denials per 7), the planner statistics taken as the server takes them (decision
 * 072) and no VACUUM (PGlite has no autovacuum). At each of `--sizes` (default 4000,16000,30000
 * check-ins) it prints each statement's execution time, and the door-list delta is read since the
 * cursor of a minute before (what a phone's sync asks).
 *
 * `npx tsx apps/server/bench/soak-plans.ts [--sizes 4000,30000]` (a diagnosis, not part of `npm run bench`).
 */
import { parseArgs } from 'node:util';
import { checkInCountsPath, CheckInLists, checkInListsPath, DoorList, liveDoorPaths, offlinePaths } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { checkIns, scanLog, tickets } from '../src/db/schema.ts';
import { benchNames, bulkLoadTickets, createBenchEvent, createBenchOrganization } from '../test/helpers/bulk-load.ts';
import { type CapturedStatement, distinctStatements, explainStatement, StatementRecorder } from '../test/helpers/query-plans.ts';
import { api, bearer } from '../test/helpers/test-app.ts';
import { createTestApp } from '../test/helpers/test-app.ts';

const { values: flags } = parseArgs({ options: { tickets: { type: 'string' }, step: { type: 'string' }, sizes: { type: 'string' } } });
const TICKETS = Number(flags.tickets ?? 33_000);
const STEP = Number(flags.step ?? 840);
const SIZES = (flags.sizes ?? '4000,16000,30000').split(',').map(Number);
const DAY = 1;

/** Check-ins a second (7 scans in 10 of 20 a second): each check-in's and scan's time is its place in the soak, on a clock that starts the soak at `STARTED_AT`. */
const PER_SECOND = 14;
const STARTED_AT = Date.now() - (Math.max(...SIZES) / PER_SECOND) * 1000 - 60_000;
let loaded = 0;
/** The app's clock: the soak's moment after `loaded` check-ins (the scan rate's last minute is then the last minute of scans). */
const clock = () => new Date(STARTED_AT + (loaded / PER_SECOND) * 1000);
const recorder = new StatementRecorder();
const testApp = await createTestApp({ seed: false, databaseOptions: { logger: recorder }, clock });
const handle = testApp.database;
const db = handle.db;
const organization = await createBenchOrganization(handle);
const eventId = await createBenchEvent(handle, organization.organizationId, 'Soak Plans');
await bulkLoadTickets(handle, { eventId, prefix: 'SP', count: TICKETS, names: benchNames() });
const lists = CheckInLists.parse(
  (await testApp.app.inject({ method: 'GET', url: api(checkInListsPath(eventId)), headers: bearer(organization.token) })).json(),
);
const listId = lists.lists[0]?.id;
if (!listId) throw new Error('no check-in list');
await db.execute(sql`analyze`);

let cursorBeforeLastStep = '';
/** Checks in tickets loaded+1 … target, STEP per transaction, with their scan-log rows. */
async function loadTo(target: number) {
  while (loaded < target) {
    const result = (await db.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`)) as unknown as { rows: Array<{ xmin: string }> };
    cursorBeforeLastStep = result.rows[0]?.xmin ?? '';
    const from = loaded + 1;
    const to = Math.min(target, loaded + STEP);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into ${checkIns} (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at)
        select event_id, id, ${DAY}::int, ${listId}::uuid, ${organization.adminUserId}::uuid,
          ${new Date(STARTED_AT).toISOString()}::timestamptz + (split_part(code, '-', 2)::int / ${PER_SECOND}::float8) * interval '1 second'
        from ${tickets} where event_id = ${eventId}::uuid and split_part(code, '-', 2)::int between ${from}::int and ${to}::int`);
      await tx.execute(sql`
        insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, check_in_list_id, scanned_at)
        select ${organization.adminUserId}::uuid, ${eventId}::uuid, ${DAY}::int, 'SP-' || i, 'approved'::scan_verdict, null, ${listId}::uuid,
          ${new Date(STARTED_AT).toISOString()}::timestamptz + (i / ${PER_SECOND}::float8) * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as i
        union all
        select ${organization.adminUserId}::uuid, ${eventId}::uuid, ${DAY}::int, 'SP-' || i, 'denied'::scan_verdict, case when i % 3 = 0 then 'not_found' else 'already_checked_in' end, ${listId}::uuid,
          ${new Date(STARTED_AT).toISOString()}::timestamptz + (i / ${PER_SECOND}::float8) * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as i where i % 7 < 3`);
    });
    loaded = to;
  }
  // The server's statistics upkeep (decision 072) analyzes the tables that changed.
  await db.execute(sql`analyze`);
}

const headers = bearer(organization.token);
async function record(label: string, url: string): Promise<number> {
  const startedAt = performance.now();
  const response = await recorder.during(label, () => testApp.app.inject({ method: 'GET', url, headers }));
  if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  return performance.now() - startedAt;
}

const results = new Map<string, { statement: CapturedStatement; ms: number[] }>();
const requestMs = new Map<string, number[]>();
for (const size of SIZES) {
  await loadTo(size);
  recorder.statements.length = 0;
  const timings: Array<[string, number]> = [];
  timings.push(['counts', await record('counts', api(checkInCountsPath(eventId, DAY)))]);
  timings.push(['counts at a list', await record('counts at a list', `${api(checkInCountsPath(eventId, DAY))}?checkInListId=${listId}`)]);
  timings.push(['live door', await record('live door', api(liveDoorPaths.live(eventId, DAY)))]);
  timings.push(['door list: since', await record('door list: since', `${api(offlinePaths.doorList(eventId, DAY))}?since=${cursorBeforeLastStep}`)]);
  for (const [label, ms] of timings) requestMs.set(label, [...(requestMs.get(label) ?? []), ms]);
  for (const statement of distinctStatements(recorder.statements)) {
    if (/^\s*(insert|update|delete)/i.test(statement.sql)) continue;
    const plan = await explainStatement(db, statement, { analyze: true });
    const key = `${statement.label}: ${statement.sql}`;
    const entry = results.get(key) ?? { statement, ms: [] };
    entry.ms.push(plan.executionMs ?? Number.NaN);
    results.set(key, entry);
    if (size === SIZES[SIZES.length - 1]) {
      console.log(`\n--- ${statement.label} (${(plan.executionMs ?? 0).toFixed(1)} ms at ${size})\n${statement.sql}\n${plan.scans.map((scan) => `${scan.node} ${scan.relation ?? ''}(${scan.index ?? ''}) loops=${scan.loops ?? ''}`).join('; ')}`);
    }
  }
  const sinceList = DoorList.parse((await testApp.app.inject({ method: 'GET', url: `${api(offlinePaths.doorList(eventId, DAY))}?since=${cursorBeforeLastStep}`, headers })).json());
  console.log(`\n${size} check-ins: door-list delta of ${sinceList.tickets.length} tickets`);
}

console.log(`\nExecution time (ms) at ${SIZES.join(' / ')} check-ins:`);
for (const [key, entry] of results) {
  console.log(`${entry.ms.map((ms) => ms.toFixed(1).padStart(8)).join(' ')}  ${key.replace(/\s+/g, ' ').slice(0, 160)}`);
}
console.log(`\nWhole request (ms, app.inject) at ${SIZES.join(' / ')} check-ins:`);
for (const [label, ms] of requestMs) console.log(`${ms.map((value) => value.toFixed(1).padStart(8)).join(' ')}  ${label}`);
await testApp.close();
