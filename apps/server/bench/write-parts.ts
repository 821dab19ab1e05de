/**
 * What each part of verify's plain first-entry write costs, in process on PGlite:
 * `npx tsx bench/write-parts.ts` from apps/server (docs/performance.md, 'Where an approval's time
 * goes, before issue 26 and now').
 *
 * On bench:verify's door (its demo data, durable PGlite), ROUNDS rounds (`WRITE_PARTS_ROUNDS`,
 * default 120) in which each variant writes one batch of BATCH first entries
 * (`WRITE_PARTS_BATCH`, default 32) through services/check-ins' own `recordScannedCheckIn`
 * (coalesced into one statement, as a busy door sends them), the variants taking turns (the order
 * turned round every other round) so that the shared machine's load falls on each alike:
 * - `as is`: the write as the server runs it;
 * - each name in `WRITE_PARTS_OFF` (comma-separated; default `counts,denials`): the same with one
 *   statement trigger disabled for that batch — `counts`: check_ins' `check_in_counts_insert`
 *   (arrivals and per-type counts, decisions 127/132), `denials`: scan_log's `denial_counts_insert`
 *   (decision 149). Not a rule change: a measure of what the trigger costs, re-enabled at once.
 * Per variant: the medians of CPU time of the process (PGlite runs in it; what the load disturbs
 * least), wall time and WAL bytes per batch, and each variant's CPU against `as is`.
 * Statistics are refreshed every 25 rounds (`analyzeGrownTables`). Timings never fail it; it exits
 * 1 when a batch records fewer check-ins than it was given.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { analyzeGrownTables } from '../src/db/pglite-statistics.ts';
import { rowsOf } from '../src/db/rows.ts';
import { tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { recordScannedCheckIn, type ScannedCheckIn } from '../src/services/check-ins/write.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { firstCheckInListId } from '../test/helpers/fixtures.ts';
import { codesOf } from './verify-references.ts';
import { wholeNumberSetting } from './env-setting.ts';

const BATCH = wholeNumberSetting('WRITE_PARTS_BATCH', 32);
const ROUNDS = wholeNumberSetting('WRITE_PARTS_ROUNDS', 120);
/** The triggers a variant switches off: its name, the table and the trigger. */
const PARTS: Record<string, { table: string; trigger: string }> = {
  counts: { table: 'check_ins', trigger: 'check_in_counts_insert' },
  denials: { table: 'scan_log', trigger: 'denial_counts_insert' },
};
const OFF = (process.env.WRITE_PARTS_OFF ?? 'counts,denials').split(',').filter(Boolean);
for (const name of OFF) if (!PARTS[name]) throw new Error(`WRITE_PARTS_OFF: no part "${name}" (known: ${Object.keys(PARTS).join(', ')})`);
const VARIANTS = ['as is', ...OFF.map((name) => `no ${name}`)];
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-write-parts-'));
const pgliteDir = path.join(dataDir, 'pgdata');
const door = await prepareDoorDatabase(() => openDatabase({ pgliteDir, isDurable: true }), codesOf('WP-', BATCH * ROUNDS * VARIANTS.length));
const handle = await openDatabase({ pgliteDir, isDurable: true });
let failed = false;
try {
  const { db } = handle;
  const unused = await db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(sql`${tickets.code} like 'WP-%'`).orderBy(tickets.code);
  const listId = await firstCheckInListId(db, door.eventId);
  let next = 0;
  const entry = (): ScannedCheckIn => {
    const ticket = unused[next++];
    if (!ticket) throw new Error('out of tickets');
    return { eventId: door.eventId, ticketId: ticket.id, day: DEMO_TODAY_DAY_NUMBER, checkInListId: listId, userId: door.userId, scanId: randomUUID(), code: ticket.code };
  };
  const toggle = async (variant: string, isEnabled: boolean) => {
    const part = PARTS[variant.replace(/^no /, '')];
    if (part) await db.execute(sql.raw(`alter table ${part.table} ${isEnabled ? 'enable' : 'disable'} trigger ${part.trigger}`));
  };
  const walPosition = async () => Number(rowsOf<{ lsn: string }>(await db.execute(sql`select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as lsn`))[0]?.lsn);
  const cpu = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  const wall = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  const wal = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  console.log(`write-parts: ${ROUNDS} rounds of a batch of ${BATCH} first entries per variant (${VARIANTS.join(', ')}), PGlite durable, load ${loadavg()[0]?.toFixed(1)}`);
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 25 === 0) await analyzeGrownTables(db);
    for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      await toggle(variant, false);
      const keys = Array.from({ length: BATCH }, entry);
      const walBefore = await walPosition();
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const recorded = (await Promise.all(keys.map((key) => recordScannedCheckIn(db, key)))).filter((at) => at !== null).length;
      const used = process.cpuUsage(cpuBefore);
      wall.get(variant)?.push(performance.now() - started);
      cpu.get(variant)?.push((used.user + used.system) / 1000);
      wal.get(variant)?.push((await walPosition()) - walBefore);
      await toggle(variant, true);
      if (recorded !== BATCH) {
        failed = true;
        console.error(`round ${round}: ${variant} recorded ${recorded} of ${BATCH}`);
      }
    }
  }
  const base = median(cpu.get('as is') ?? []);
  console.table(
    VARIANTS.map((variant) => ({
      variant,
      'CPU ms per batch': median(cpu.get(variant) ?? []).toFixed(2),
      'CPU / as is': (median(cpu.get(variant) ?? []) / base).toFixed(2),
      'wall ms per batch': median(wall.get(variant) ?? []).toFixed(2),
      'WAL bytes per batch': Math.round(median(wal.get(variant) ?? [])),
    })),
  );
  console.log(`load at the end ${loadavg()[0]?.toFixed(1)}`);
} finally {
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
