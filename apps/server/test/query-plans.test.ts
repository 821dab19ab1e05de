/**
 * Every statement the hot paths send (verify, live counts, attendee search, door list in full and
 * since a cursor) can be served by an index on the big tables (issue 13 item 4, docs/decisions/060).
 *
 * The statements are captured from real requests (helpers/query-plans.ts), so a changed query is
 * checked as it is. At test sizes the planner rightly prefers sequential scans, so each EXPLAIN runs
 * with `SET LOCAL enable_seqscan = off`: a Seq Scan then remains only where no index can serve the
 * statement. That proves an index exists and is usable, not that the planner picks it at 1,000,000
 * tickets; `npm run bench:scale` shows the real plans at that size (docs/performance.md).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  benchNames,
  benchTicketCode,
  bulkLoadCheckIns,
  bulkLoadTickets,
  createBenchEvent,
  createBenchOrganization,
} from './helpers/bulk-load.ts';
import { describeScans, distinctStatements, explainStatement, recordHotPaths, StatementRecorder } from './helpers/query-plans.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

/** Tables that grow with the tickets of an event. */
const BIG_TABLES = ['tickets', 'check_ins', 'ticket_search_terms', 'scan_log'];
const TICKETS = 3_000;

const recorder = new StatementRecorder();
let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp({ seed: false, databaseOptions: { logger: recorder } });
  const handle = testApp.database;
  const organization = await createBenchOrganization(handle);
  const eventId = await createBenchEvent(handle, organization.organizationId, 'Plan Review');
  // A second event, so that "the event's tickets" is not the whole table.
  const otherEventId = await createBenchEvent(handle, organization.organizationId, 'Other Event');
  const names = benchNames();
  await bulkLoadTickets(handle, { eventId, prefix: 'PR', count: TICKETS, names });
  await bulkLoadTickets(handle, { eventId: otherEventId, prefix: 'OT', count: TICKETS, names });
  await bulkLoadCheckIns(handle, { eventId, day: 1, staffUserId: organization.adminUserId, every: 10 });
  // Other events' and other days' check-ins, so that "the event's check-ins of the day" is not the whole table either.
  await bulkLoadCheckIns(handle, { eventId: otherEventId, day: 1, staffUserId: organization.adminUserId, every: 5 });
  await bulkLoadCheckIns(handle, { eventId, day: 2, staffUserId: organization.adminUserId, every: 5 });
  // As autovacuum would have by then: the visibility map lets the counts count from the index alone.
  await handle.db.execute(sql`vacuum check_ins`);
  await handle.db.execute(sql`analyze`);
  await recordHotPaths(testApp.app, recorder, {
    token: organization.token,
    eventId,
    day: 1,
    freshCode: benchTicketCode('PR', 1_001),
    codesAtOnce: [1_002, 1_003, 1_004, 1_005].map((n) => benchTicketCode('PR', n)),
    searchText: names.lastNames[0]?.toLowerCase() ?? 'smith',
  });
});
afterAll(async () => {
  await testApp.close();
});

test('the hot paths were recorded: each request sent statements reading the big tables', () => {
  const labels = new Set(recorder.statements.map((statement) => statement.label));
  expect([...labels]).toEqual([
    'verify: approval',
    'verify: already checked in',
    'verify: unknown code',
    'verify: scans at once',
    'verify: the same scans again at once',
    'counts',
    'counts at a list',
    'attendee search',
    'live door',
    'door list: full',
    'door list: since cursor',
  ]);
  const sqlText = recorder.statements.map((statement) => statement.sql).join('\n');
  for (const table of ['tickets', 'check_ins', 'ticket_search_terms']) expect(sqlText).toContain(`"${table}"`);
  // Scans at once went to the database as batches (docs/decisions/070): the session look-up, the
  // read, the check-in write and the denials' scan-log write each as one `unnest` statement.
  const batched = (label: string) =>
    recorder.statements.filter((statement) => statement.label === label && statement.sql.includes('unnest(')).map((statement) => statement.sql);
  const approvals = batched('verify: scans at once');
  const denials = batched('verify: the same scans again at once');
  for (const table of ['sessions', 'tickets', 'check_ins']) expect(approvals.some((text) => text.includes(`"${table}"`))).toBe(true);
  expect(denials.some((text) => /insert into "scan_log"/.test(text))).toBe(true);
});

test('no hot statement needs a sequential scan of tickets, check_ins, ticket_search_terms or scan_log', async () => {
  const problems: string[] = [];
  const statements = distinctStatements(recorder.statements);
  expect(statements.length).toBeGreaterThan(8);
  for (const statement of statements) {
    const plan = await explainStatement(testApp.database.db, statement, { analyze: false, disableSeqScan: true });
    const seqScanned = plan.seqScannedTables.filter((table) => BIG_TABLES.includes(table));
    if (seqScanned.length > 0) problems.push(`${statement.label}: ${describeScans(plan.scans)}\n  ${statement.sql}`);
  }
  expect(problems).toEqual([]);
});

test("a check-in list's counts read neither the tickets nor the check-ins: its arrivals by key for N, less the exited check-ins' index for inside now (docs/decisions/140)", async () => {
  const statements = distinctStatements(recorder.statements).filter(
    (statement) => statement.label === 'counts at a list' && /"(check_ins|check_in_arrivals|ticket_day_counts|tickets)"/.test(statement.sql),
  );
  const scans: string[] = [];
  for (const statement of statements) {
    const plan = await explainStatement(testApp.database.db, statement, { analyze: false, disableSeqScan: true });
    scans.push(describeScans(plan.scans));
  }
  // The list's N: the sum of its trigger-kept arrivals (a row per 5-minute slot); its M (a list of
  // every type) is the event's M statement, whose plan the next test asserts; its inside-now
  // (docs/decisions/111): the arrivals less the partial index of exited check-ins.
  expect(scans.sort()).toEqual([ARRIVALS_BY_KEY, `${ARRIVALS_BY_KEY}; Index Only Scan check_ins(check_ins_exited_event_day_idx)`].sort());
});

/** The trigger-kept arrivals of the event's day (and list) by their primary key's prefix. */
const ARRIVALS_BY_KEY = 'Index Scan check_in_arrivals(check_in_arrivals_pkey)';

test('the live counts read neither the tickets nor the check-ins: the type counts by key for N, the day counts by key for M', async () => {
  const statements = distinctStatements(recorder.statements).filter(
    (statement) => statement.label === 'counts' && /"(check_ins|check_in_type_counts|ticket_day_counts|tickets)"/.test(statement.sql) && !/"exited_at"/.test(statement.sql),
  );
  expect(statements.length).toBe(2);
  const scans: string[] = [];
  for (const statement of statements) {
    const plan = await explainStatement(testApp.database.db, statement, { analyze: false, disableSeqScan: true });
    scans.push(describeScans(plan.scans));
  }
  // N: distinct tickets checked in, the trigger-kept rows per list and type of the day by their key
  // (docs/decisions/132, 140); M: the day counts by key, each count's ticket type by its key for the
  // type's days (docs/decisions/125).
  expect(scans.sort()).toEqual(['Index Scan check_in_type_counts(check_in_type_counts_pkey)', 'Index Scan ticket_day_counts(ticket_day_counts_pkey); Index Scan ticket_types(ticket_types_event_name_key)']);
});

test("at a door without exits, the counts, a list's counts and the live door run no scan of the check-ins but the exited ones' index (docs/decisions/140)", async () => {
  const statements = distinctStatements(recorder.statements).filter((statement) => ['counts', 'counts at a list', 'live door'].includes(statement.label));
  const read: string[] = [];
  for (const statement of statements) {
    // EXPLAIN ANALYZE: a branch the statement does not take (inside now by distinct tickets, for a
    // ticket at two lists or a list with a checkout) is in the plan, but never run (loops 0).
    const plan = await explainStatement(testApp.database.db, statement, { analyze: true, disableSeqScan: true });
    for (const scan of plan.scans) if (scan.relation === 'check_ins' && (scan.loops ?? 0) > 0) read.push(`${statement.label}: ${scan.node} ${scan.index ?? ''}`);
    for (const scan of plan.scans) if (scan.relation === undefined && scan.index?.startsWith('check_ins_') && (scan.loops ?? 0) > 0) read.push(`${statement.label}: ${scan.node} ${scan.index}`);
  }
  expect(read.length).toBeGreaterThan(0);
  expect(read.filter((entry) => !entry.endsWith(' check_ins_exited_event_day_idx'))).toEqual([]);
});

test("the live door's arrivals, checked in per type, inside now and denials read by index: the trigger-kept arrivals, type counts and denial counts by (event, day), every list's arrivals less its exited check-ins in one statement", async () => {
  const statements = distinctStatements(recorder.statements).filter((statement) => statement.label === 'live door');
  const planOf = async (pattern: RegExp) => {
    const found = statements.filter((statement) => pattern.test(statement.sql));
    expect(found, String(pattern)).toHaveLength(1);
    const [statement] = found;
    if (!statement) throw new Error('no statement');
    return describeScans((await explainStatement(testApp.database.db, statement, { analyze: false, disableSeqScan: true })).scans);
  };
  // Arrivals per list and slot: the trigger-kept rows of the event's day by their key's prefix
  // (docs/decisions/127), never the check-ins themselves.
  expect(await planOf(/to_char\("slot_start"/)).toMatch(/^(Index Scan check_in_arrivals\(|Bitmap Heap Scan check_in_arrivals; Bitmap Index Scan \()check_in_arrivals_pkey\)$/);
  // Inside now of every list at once (one statement, a row per list, not one per list): each list's
  // arrivals less its exited check-ins, from the partial index of those (docs/decisions/140).
  expect(await planOf(/unnest\(/)).toMatch(/^(Index Scan check_in_arrivals\(|Bitmap Heap Scan check_in_arrivals; Bitmap Index Scan \()check_in_arrivals_pkey\); (Index Only Scan check_ins\(|Bitmap Heap Scan check_ins; Bitmap Index Scan \()check_ins_exited_event_day_idx\)$/);
  // Denials by reason: the trigger-kept rows of the event's day by their key's prefix (a row per
  // reason and shard, docs/decisions/149), never the scan log's denied rows.
  expect(await planOf(/from "denial_counts"/)).toMatch(/^(Index Scan denial_counts\(|Bitmap Heap Scan denial_counts; Bitmap Index Scan \()denial_counts_pkey\)$/);
  expect(statements.filter((statement) => /"verdict" = 'denied'/.test(statement.sql))).toEqual([]);
  // The scan rate (the last minute of the event's log) is covered by the test above (no sequential
  // scan); at this size the planner reads it by the primary key's event prefix, at 1,000,000 tickets
  // by (event, time): `npm run bench:scale` prints that plan.
  // Checked in per ticket type: the trigger-kept rows of the event's day by their key's prefix
  // (docs/decisions/132), never the check-ins or the tickets; expected per type: the day counts by key,
  // each row's type by its key (whether the type admits the day, docs/decisions/133).
  expect(await planOf(/from "check_in_type_counts"/)).toMatch(/^(Index Scan check_in_type_counts\(|Bitmap Heap Scan check_in_type_counts; Bitmap Index Scan \()check_in_type_counts_pkey\)$/);
  expect(await planOf(/from "ticket_day_counts"/)).toMatch(/^(Index Scan ticket_day_counts\(|Bitmap Heap Scan ticket_day_counts; Bitmap Index Scan \()ticket_day_counts_pkey\); Index Scan ticket_types\(ticket_types_event_name_key\)$/);
});

test("the event's inside-now reads only the day's check-ins of the event inside now, by index, its lists without a daily checkout from the index alone (docs/decisions/111, 141)", async () => {
  const [inside, ...more] = distinctStatements(recorder.statements).filter((statement) => statement.label === 'counts' && /"exited_at" is null/.test(statement.sql));
  expect(more).toEqual([]);
  if (!inside) throw new Error('no inside-now statement recorded');
  // As autovacuum would have after the hot paths' writes: PostgreSQL prices an index-only scan by
  // the share of the table's pages it knows all-visible.
  await testApp.database.db.execute(sql`vacuum analyze check_ins`);
  const plan = await explainStatement(testApp.database.db, inside, { analyze: false, disableSeqScan: true });
  // The distinct tickets from the event's inside index itself (it holds list and ticket): at 1,000,000 tickets in
  // one event the planner read check_ins whole rather than fetch each inside row's ticket from the
  // table (bench:scale, docs/performance.md). The lists with a daily checkout read the day's rows by an index too.
  expect(describeScans(plan.scans)).toMatch(/Index Only Scan check_ins\(check_ins_inside_event_day_idx\)/);
  expect(plan.seqScannedTables.filter((table) => table === 'check_ins' || table === 'tickets')).toEqual([]);
});
