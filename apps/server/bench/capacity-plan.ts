/**
 * Where the capacity entry's statement spends its time as the list fills, in process on PGlite
 * (issue 26; docs/performance.md, 'The capacity entry at 30,000 inside'):
 * `npx tsx bench/capacity-plan.ts` from apps/server, or on PostgreSQL
 * `npx tsx ../../scripts/with-postgres.ts -- npx tsx bench/capacity-plan.ts` (DATABASE_URL).
 *
 * The door of bench/capacity-write.ts (the demo data and a list 'Capacity door' of 100,000 places);
 * the list is filled in batches of 32 first entries through verify's statement
 * (`recordScannedEntryWithPlace`, docs/decisions/120), a plain batch at the first list beside each,
 * statistics kept every 25 batches as the server keeps them. At each inside size of
 * `CAPACITY_PLAN_AT` (comma-separated, default 2000,10000,30000) it prints EXPLAIN (ANALYZE,
 * BUFFERS) of one more batch of that statement — its SQL and parameters as Drizzle sent them for the
 * batch before, with fresh tickets in place of that batch's — in a transaction rolled back, so the
 * list is the same after it. `CAPACITY_PLAN_FULL=1` prints the whole plan, else only the lines that
 * took 0.05 ms or more.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { analyzeGrownTables } from '../src/db/pglite-statistics.ts';
import { tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { recordScannedCheckIn, recordScannedEntryWithPlace, type ScannedCheckIn } from '../src/services/check-ins/write.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { firstCheckInListId } from '../test/helpers/fixtures.ts';
import { codesOf } from './verify-references.ts';

const BATCH = 32;
const CAPACITY = 100_000;
const AT = (process.env.CAPACITY_PLAN_AT ?? '2000,10000,30000').split(',').map(Number);
const IS_FULL = process.env.CAPACITY_PLAN_FULL === '1';
const last = Math.max(...AT);
const rounds = Math.ceil(last / BATCH) + 1;

const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-capacity-plan-'));
const databaseUrl = process.env.DATABASE_URL;
const location = databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pgdata') };
const door = await prepareDoorDatabase(() => openDatabase(location), codesOf('CP-', BATCH * (rounds * 2 + 2 * AT.length)), { capacity: CAPACITY });
let captured: { query: string; params: unknown[] } | undefined;
const handle = await openDatabase(
  location,
  { logger: { logQuery: (query, params) => void (query.includes('"check_in_list_slots"') && query.includes('answers') ? (captured = { query, params }) : undefined) } },
);
try {
  const { db } = handle;
  /** EXPLAIN ANALYZE of `query` in a transaction rolled back, on one connection. */
  const explain = async (query: string, params: unknown[]): Promise<{ 'QUERY PLAN': string }[]> => {
    if (handle.kind === 'pglite') {
      const client = (db as unknown as { $client: PGlite }).$client;
      await client.query('begin');
      try {
        return (await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query}`, params)).rows;
      } finally {
        await client.query('rollback');
      }
    }
    const connection = await (db as unknown as { $client: Pool }).$client.connect();
    try {
      await connection.query('begin');
      return (await connection.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${query}`, params)).rows;
    } finally {
      await connection.query('rollback');
      connection.release();
    }
  };
  const { capacityListId } = door;
  if (!capacityListId) throw new Error('the door has no capacity list');
  const unused = await db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(sql`${tickets.code} like 'CP-%'`).orderBy(tickets.code);
  const firstListId = await firstCheckInListId(db, door.eventId);
  let next = 0;
  const entryAt = (checkInListId: string): ScannedCheckIn => {
    const ticket = unused[next++];
    if (!ticket) throw new Error('out of tickets');
    return { eventId: door.eventId, ticketId: ticket.id, day: DEMO_TODAY_DAY_NUMBER, checkInListId, userId: door.userId, scanId: randomUUID(), code: ticket.code };
  };
  const capacityBatch = async () => {
    const entries = Array.from({ length: BATCH }, () => entryAt(capacityListId));
    await Promise.all(entries.map((entry) => recordScannedEntryWithPlace(db, { ...entry, start: 1 + Math.floor(Math.random() * CAPACITY), checkout: null })));
    return entries;
  };
  let inside = 0;
  for (let round = 0; round < rounds; round++) {
    // PGlite: statistics as the server keeps them (decision 072); PostgreSQL: its autovacuum.
    if (round % 25 === 0 && handle.kind === 'pglite') await analyzeGrownTables(db);
    await Promise.all(Array.from({ length: BATCH }, () => recordScannedCheckIn(db, entryAt(firstListId))));
    const entries = await capacityBatch();
    inside += BATCH;
    if (!AT.some((at) => inside - BATCH < at && inside >= at)) continue;
    if (!captured) throw new Error('no statement captured');
    // The batch's parameters with fresh tickets in place of the ones it wrote.
    let text = JSON.stringify(captured.params);
    for (const entry of entries) text = text.replaceAll(entry.ticketId, entryAt(capacityListId).ticketId);
    if (handle.kind === 'pglite') await analyzeGrownTables(db);
    const started = performance.now();
    const plan = await explain(captured.query, JSON.parse(text) as unknown[]);
    const took = performance.now() - started;
    console.log(`\n=== ${inside} inside the capacity list (EXPLAIN ANALYZE ${took.toFixed(1)} ms) ===`);
    for (const { 'QUERY PLAN': line } of plan) {
      const time = /actual time=[\d.]+\.\.([\d.]+) rows=\d+ loops=(\d+)/.exec(line);
      if (IS_FULL || !time || Number(time[1]) * Number(time[2]) >= 0.05 || !line.includes('actual time')) console.log(line);
    }
  }
} finally {
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
}
