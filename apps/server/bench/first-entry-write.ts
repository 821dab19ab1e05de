/**
 * What the first entry's movement row costs verify's plain write, in process on PGlite
 * (docs/decisions/138; docs/performance.md, 'What the first entry's movement costs'):
 * `npx tsx bench/first-entry-write.ts` from apps/server.
 *
 * The sibling of bench/capacity-write.ts, on the same door (bench/verify.bench.ts's demo data):
 * BATCHES rounds (`FIRST_ENTRY_WRITE_BATCHES`, default 200) of one batch of BATCH first entries
 * (`FIRST_ENTRY_WRITE_BATCH`, default 32) at the event's first list through each of two forms of
 * verify's one-statement first entry, alternately first:
 * - `with movement`: the INSERT of the check-ins, a `moved` CTE inserting each one's entry into
 *   `check_in_movements`, and the approved scan-log rows (the statement of decision 138 as built);
 * - `without movement`: the same without `moved` (the statement before decision 138; the first
 *   entry then lives in the check-in row alone).
 * `FIRST_ENTRY_WRITE_FORM=services` runs services/check-ins' own `recordScannedCheckIn`
 * (coalesced, whatever it writes now) in place of the first form, labelled `services`, so that the
 * code as it stands is compared with the statement without the movement.
 * Both forms are prepared statements over `keysTable(…, 'many')`, as the coalescing layer sends a
 * batch. Each round prints nothing; per window of 50 rounds the medians of wall time, CPU time of
 * the process (`process.cpuUsage`, PGlite runs in it) and WAL bytes (`pg_current_wal_insert_lsn`)
 * per batch, then the medians over all rounds and the difference (first − without) / first: the movement's share.
 * CPU time is what this machine's load disturbs least (see bench/capacity-write.ts).
 * Statistics are refreshed every 25 rounds (`analyzeGrownTables`), as there.
 * Timings never fail it; it exits 1 when a batch records fewer check-ins than it was given.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Db, openDatabase } from '../src/db/client.ts';
import { type KeyColumn, keysTable } from '../src/db/coalesce.ts';
import { analyzeGrownTables } from '../src/db/pglite-statistics.ts';
import { rowsOf } from '../src/db/rows.ts';
import { checkInMovements, checkIns, scanLog, tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { recordScannedCheckIn, type ScannedCheckIn } from '../src/services/check-ins/write.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { firstCheckInListId } from '../test/helpers/fixtures.ts';
import { codesOf } from './verify-references.ts';
import { wholeNumberSetting } from './env-setting.ts';

const BATCH = wholeNumberSetting('FIRST_ENTRY_WRITE_BATCH', 32);
const BATCHES = wholeNumberSetting('FIRST_ENTRY_WRITE_BATCHES', 200);
const ANALYZE_EVERY = wholeNumberSetting('FIRST_ENTRY_WRITE_ANALYZE', 25);
const IS_SERVICES = process.env.FIRST_ENTRY_WRITE_FORM === 'services';
const WINDOW = 50;
/** What the first form is called in the output. */
const FIRST = IS_SERVICES ? 'services' : 'with movement';

type Kind = 'with' | 'without';
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const KEY: readonly KeyColumn<ScannedCheckIn>[] = [
  ['event_id', 'uuid', 'eventId'],
  ['ticket_id', 'uuid', 'ticketId'],
  ['day', 'integer', 'day'],
  ['check_in_list_id', 'uuid', 'checkInListId'],
  ['user_id', 'uuid', 'userId'],
  ['scan_id', 'uuid', 'scanId'],
  ['code', 'text', 'code'],
];

/** Verify's one-statement first entry of a batch, with or without its `moved` CTE (see the file's docstring). */
function prepareFirstEntryWrite(db: Db, withMovement: boolean) {
  const input = db.$with('input', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day }).as(sql`select * from ${keysTable(KEY, 'many')}`);
  const inserted = db
    .$with('inserted', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day, checkInListId: checkIns.checkInListId, checkedInAt: checkIns.checkedInAt })
    .as(
      withMovement
        ? sql`
    insert into ${checkIns} (event_id, ticket_id, day, check_in_list_id, staff_user_id, scan_id)
    select event_id, ticket_id, day, check_in_list_id, user_id, scan_id from input order by event_id, check_in_list_id, day, ticket_id
    on conflict (event_id, check_in_list_id, day, ticket_id) where undone_at is null do nothing
    returning ${checkIns.id}, ${checkIns.eventId}, ${checkIns.ticketId}, ${checkIns.day}, ${checkIns.checkInListId}, ${checkIns.checkedInAt}, ${checkIns.staffUserId}, ${checkIns.scanId}`
        : sql`
    insert into ${checkIns} (event_id, ticket_id, day, check_in_list_id, staff_user_id, scan_id)
    select event_id, ticket_id, day, check_in_list_id, user_id, scan_id from input order by event_id, check_in_list_id, day, ticket_id
    on conflict (event_id, check_in_list_id, day, ticket_id) where undone_at is null do nothing
    returning ${checkIns.eventId}, ${checkIns.ticketId}, ${checkIns.day}, ${checkIns.checkInListId}, ${checkIns.checkedInAt}`,
    );
  const logged = db.$with('logged', {}).as(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, scan_id, source, check_in_list_id)
    select input.user_id, input.event_id, input.day, input.code, 'approved'::scan_verdict, null, input.scan_id, 'scan'::scan_source, input.check_in_list_id
    from input join inserted using (event_id, ticket_id, day, check_in_list_id) order by input.position`);
  const moved = db.$with('moved', {}).as(sql`
    insert into ${checkInMovements} (event_id, check_in_id, direction, at, staff_user_id, scan_id)
    select inserted.event_id, inserted.id, 'entry'::movement_direction, inserted.checked_in_at, inserted.staff_user_id, inserted.scan_id from inserted`);
  return (withMovement ? db.with(input, inserted, moved, logged) : db.with(input, inserted, logged))
    .select({ position: sql<number>`input.position`.mapWith(Number), checkedInAt: inserted.checkedInAt })
    .from(input)
    .innerJoin(
      inserted,
      sql`(input.event_id, input.ticket_id, input.day, input.check_in_list_id) = (${inserted.eventId}, ${inserted.ticketId}, ${inserted.day}, ${inserted.checkInListId})`,
    )
    .prepare(`first_entry_write_${withMovement ? 'with' : 'without'}_movement`);
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-first-entry-write-'));
const pgliteDir = path.join(dataDir, 'pgdata');
const door = await prepareDoorDatabase(() => openDatabase({ pgliteDir, isDurable: true }), codesOf('FE-', BATCH * BATCHES * 2));
const handle = await openDatabase({ pgliteDir, isDurable: true });
let failed = false;
try {
  const { db } = handle;
  const unused = await db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(sql`${tickets.code} like 'FE-%'`).orderBy(tickets.code);
  const listId = await firstCheckInListId(db, door.eventId);
  const statements = { with: prepareFirstEntryWrite(db, true), without: prepareFirstEntryWrite(db, false) };
  let next = 0;
  const entry = (): ScannedCheckIn => {
    const ticket = unused[next++];
    if (!ticket) throw new Error('out of tickets');
    return { eventId: door.eventId, ticketId: ticket.id, day: DEMO_TODAY_DAY_NUMBER, checkInListId: listId, userId: door.userId, scanId: randomUUID(), code: ticket.code };
  };
  const writeBatch = async (kind: Kind): Promise<number> => {
    const keys = Array.from({ length: BATCH }, entry);
    if (kind === 'with' && IS_SERVICES) return (await Promise.all(keys.map((key) => recordScannedCheckIn(db, key)))).filter((at) => at !== null).length;
    const params: Record<string, unknown> = {};
    for (const [name, , field] of KEY) params[name] = keys.map((key) => key[field]);
    return (await statements[kind].execute(params)).length;
  };
  const wall: Record<Kind, number[]> = { with: [], without: [] };
  const cpu: Record<Kind, number[]> = { with: [], without: [] };
  const walBytes: Record<Kind, number[]> = { with: [], without: [] };
  const walPosition = async () => Number(rowsOf<{ lsn: string }>(await db.execute(sql`select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as lsn`))[0]?.lsn);
  console.log(`first-entry-write: ${BATCHES} rounds of a batch of ${BATCH} first entries per form (${FIRST}, without movement), PGlite durable, load ${loadavg()[0]?.toFixed(1)}`);
  for (let round = 0; round < BATCHES; round++) {
    if (ANALYZE_EVERY > 0 && round % ANALYZE_EVERY === 0) await analyzeGrownTables(db);
    for (const kind of round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
      const walBefore = await walPosition();
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const recorded = await writeBatch(kind);
      const used = process.cpuUsage(cpuBefore);
      wall[kind].push(performance.now() - started);
      cpu[kind].push((used.user + used.system) / 1000);
      walBytes[kind].push((await walPosition()) - walBefore);
      if (recorded !== BATCH) {
        failed = true;
        console.error(`round ${round}: ${kind} movement recorded ${recorded} of ${BATCH}`);
      }
    }
    if (round % WINDOW === WINDOW - 1) {
      const last = (values: number[]) => median(values.slice(-WINDOW)).toFixed(1);
      console.log(
        `  rounds ${round - WINDOW + 1}–${round}: wall ${last(wall.with)} / ${last(wall.without)} ms, CPU ${last(cpu.with)} / ${last(cpu.without)} ms, WAL ${last(walBytes.with)} / ${last(walBytes.without)} bytes per batch (${FIRST} / without movement); load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
  const share = (kind: Record<Kind, number[]>) => `${(((median(kind.with) - median(kind.without)) / median(kind.with)) * 100).toFixed(1)} %`;
  console.log(`medians per batch of ${BATCH}: CPU ${FIRST} ${median(cpu.with).toFixed(1)} ms, without ${median(cpu.without).toFixed(1)} ms, difference ${share(cpu)} of the first`);
  console.log(`                      WAL ${FIRST} ${Math.round(median(walBytes.with))} bytes, without ${Math.round(median(walBytes.without))} bytes, difference ${share(walBytes)} of the first`);
  console.log(`                      wall ${FIRST} ${median(wall.with).toFixed(1)} ms, without ${median(wall.without).toFixed(1)} ms, difference ${share(wall)} of the first`);
} finally {
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
