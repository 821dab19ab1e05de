/**
 * The one check-in write: a ticket is checked in at most once per check-in list and event day
 * (docs/decisions/100), and that check-in can be undone. Verify, the supervisor's manual check-in, the offline upload and undo all write here,
 * so a rule added to the write holds for all of them (docs/decisions/096).
 *
 * The database decides "exactly once", never a read-then-write in JS: every INSERT is `ON CONFLICT
 * (event_id, check_in_list_id, day, ticket_id) WHERE undone_at IS NULL DO NOTHING` on the partial unique index of the
 * active check-ins (docs/decisions/058). An INSERT that conflicts reads the check-in that stands and
 * answers it; an undo committing between the conflict and that read leaves none to read (READ
 * COMMITTED), and the INSERT is tried again, as if the scan had come later.
 *
 * Four forms of the same INSERT:
 * - `recordCheckIn`, one check-in inside the caller's transaction, called by ./record.ts
 *   `recordAttempt` (the one decide-and-write of the manual check-in, the offline upload and
 *   verify's door write and fallback);
 * - `recordScannedCheckIn`, verify's hot path for a first entry at a list without a capacity: the
 *   INSERT with its approved scan-log row in one statement, coalesced with the scans that arrive
 *   together (docs/decisions/057, 070);
 * - `recordScannedEntryWithPlace`, verify's hot path for a first entry at a list with a capacity:
 *   the same, claiming a free place in the statement (docs/decisions/120);
 * - `recordScannedEntryAtEvent`, verify's hot path for a first entry at any list of an event with a
 *   capacity: the same, claiming a free place of the event (and of the list, where it has a
 *   capacity) in the statement (docs/decisions/148).
 * The three hot-path forms answer only "recorded" or "not recorded"; a scan that was not recorded is
 * decided again through `recordAttempt` in a transaction: when a concurrent scan of the ticket won,
 * and, with a capacity, for every entry at a full list or venue and whenever the free places are
 * stale (a list's held since before its last daily checkout).
 *
 * Who may check in and whether the ticket admits the day is the contract's `decideCheckIn`, decided
 * by the callers before they write; `ticketForRule` and `existingForRule` give it the rows read here.
 */
import type { CheckInDirection, CheckInTicket, ExistingCheckIn } from '@gatecheck/contract';
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { type BatchSize, byPosition, coalescedStatement, type KeyColumn, keysTable } from '../../db/coalesce.ts';
import { checkInArrivals, checkInListSlots, checkInLists, checkInMovements, checkIns, events, eventSlots, scanLog, type tickets, users } from '../../db/schema.ts';
import { retrying } from '../../db/transactions.ts';
import { changeStamp } from '../door-list.ts';
import type { TicketTypeDoor } from '../ticket-type-door.ts';

/** The active check-in of a ticket on a day (not undone): the partial unique index's predicate. */
export const isActiveCheckIn = isNull(checkIns.undoneAt);

/** The columns of the partial unique index of active check-ins: once per ticket, list and day. */
const ACTIVE_CHECK_IN_KEY = [checkIns.eventId, checkIns.checkInListId, checkIns.day, checkIns.ticketId];

/** How often the check-in INSERT is tried when undos keep removing the conflicting row. */
const MAX_CHECK_IN_ATTEMPTS = 3;

/** A check-in to record. */
export interface NewCheckIn {
  /** The ticket's own event. */
  eventId: string;
  ticketId: string;
  day: number;
  /** The check-in list it is made at (one of the ticket's event's lists). */
  checkInListId: string;
  /** The staff member who answers for it (the scanner, or an offline scan's maker). */
  staffUserId: string;
  /** The scan that made it (the client's id; null when the client sent none). */
  scanId: string | null;
  /** When it was made; default the database clock (`now()`). An offline scan's device time. */
  checkedInAt?: Date;
  /** When the server received an offline scan; absent online. */
  receivedAt?: Date;
  /** The device that admitted the ticket offline; absent online. */
  deviceId?: string;
}

/**
 * The active check-in that stands for a ticket and day: its first entry (`checkedInAt`, by
 * `staffUserId` with `scanId`) and that staff member's display name.
 */
export interface StandingCheckIn {
  id: string;
  checkedInAt: Date;
  scanId: string | null;
  staffUserId: string;
  staffName: string;
}

/** A recorded movement of a check-in that a scan retries (docs/decisions/138): which way, and when. */
export interface RetriedMovement {
  direction: CheckInDirection;
  at: Date;
}

/**
 * What `recordCheckIn` did: recorded this check-in (`isRecorded: true`, its id and time), or found
 * another active one for the ticket and day, which stands (`isRecorded: false`).
 */
export type CheckInWrite = { isRecorded: true; id: string; checkedInAt: Date } | { isRecorded: false; standing: StandingCheckIn };

/**
 * Records `checkIn` exactly once per ticket and day, on `tx` (the caller's transaction: the caller's
 * other rows — scan log, offline_scans — commit with it or not at all).
 * @returns the new check-in, or the active one that stands (made by another scan, or by this very
 *   scan before: see `isSameScan`).
 * @throws Error when the INSERT keeps conflicting with no active check-in to read
 *   (MAX_CHECK_IN_ATTEMPTS tries: undos racing every attempt); database errors as they come.
 */
export async function recordCheckIn(tx: DbOrTx, checkIn: NewCheckIn): Promise<CheckInWrite> {
  for (let attempt = 0; attempt < MAX_CHECK_IN_ATTEMPTS; attempt++) {
    const [inserted] = await tx
      .insert(checkIns)
      .values({
        eventId: checkIn.eventId,
        ticketId: checkIn.ticketId,
        day: checkIn.day,
        checkInListId: checkIn.checkInListId,
        staffUserId: checkIn.staffUserId,
        scanId: checkIn.scanId,
        ...(checkIn.checkedInAt ? { checkedInAt: checkIn.checkedInAt } : {}),
        ...(checkIn.receivedAt ? { receivedAt: checkIn.receivedAt } : {}),
        ...(checkIn.deviceId !== undefined ? { deviceId: checkIn.deviceId } : {}),
      })
      .onConflictDoNothing({ target: ACTIVE_CHECK_IN_KEY, where: isActiveCheckIn })
      .returning({ id: checkIns.id, checkedInAt: checkIns.checkedInAt });
    // The first entry is the check-in row itself (its scan, staff member and time): no movement
    // row is written for it (docs/decisions/138, Consequences).
    if (inserted) return { isRecorded: true, ...inserted };
    const standing = await findActiveCheckIn(tx, checkIn);
    if (standing) return { isRecorded: false, standing };
  }
  throw new Error('check-in conflict without an active check-in row');
}

/** The active check-in of `key`'s ticket on its list and day, if any, with its staff member's name. */
async function findActiveCheckIn(tx: DbOrTx, key: { eventId: string; ticketId: string; day: number; checkInListId: string }): Promise<StandingCheckIn | undefined> {
  const [standing] = await tx
    .select({
      id: checkIns.id,
      checkedInAt: checkIns.checkedInAt,
      scanId: checkIns.scanId,
      staffUserId: checkIns.staffUserId,
      staffName: users.displayName,
    })
    .from(checkIns)
    .innerJoin(users, eq(users.id, checkIns.staffUserId))
    .where(
      and(eq(checkIns.eventId, key.eventId), eq(checkIns.checkInListId, key.checkInListId), eq(checkIns.day, key.day), eq(checkIns.ticketId, key.ticketId), isActiveCheckIn),
    )
    .limit(1);
  return standing;
}

/** Who makes an attempt, as a retry is recognised: the client's scan id (null: none sent) and the staff member. */
export interface ScanMaker {
  scanId: string | null;
  staffUserId: string;
}

/**
 * Whether `maker`'s scan made the first entry of `checkIn` (the check-in row's own scan and staff
 * member: the first entry is not a row of `check_in_movements`, docs/decisions/138).
 */
export function isFirstEntryOf(checkIn: { scanId: string | null; staffUserId: string }, maker: ScanMaker): boolean {
  return maker.scanId !== null && checkIn.scanId === maker.scanId && checkIn.staffUserId === maker.staffUserId;
}

/**
 * The movement of check-in `checkIn` that `maker`'s scan recorded (docs/decisions/130, 138): the
 * same `scanId` (one was sent) by the same staff member, not undone — its first entry (the
 * check-in row's own scan, `isFirstEntryOf`), any re-entry or any exit, or a late movement kept as
 * history (rows of `check_in_movements`). Undefined when the scan recorded none there: a new
 * attempt (another staff member's scan with the same id is one too).
 */
export async function findRetriedMovement(
  tx: DbOrTx,
  checkIn: { eventId: string; id: string; scanId: string | null; staffUserId: string; checkedInAt: Date },
  maker: ScanMaker,
): Promise<RetriedMovement | undefined> {
  if (maker.scanId === null) return undefined;
  if (isFirstEntryOf(checkIn, maker)) return { direction: 'entry', at: checkIn.checkedInAt };
  const key = { eventId: checkIn.eventId, checkInId: checkIn.id };
  const [movement] = await tx
    .select({ direction: checkInMovements.direction, at: checkInMovements.at })
    .from(checkInMovements)
    .where(
      and(
        eq(checkInMovements.eventId, key.eventId),
        eq(checkInMovements.scanId, maker.scanId),
        eq(checkInMovements.staffUserId, maker.staffUserId),
        eq(checkInMovements.checkInId, key.checkInId),
        isNull(checkInMovements.undoneAt),
      ),
    )
    .limit(1);
  return movement;
}

/**
 * The rule's `existingCheckIn` for the check-in that stands, as seen by an attempt that retries
 * `retried` (its movement, `findRetriedMovement`; null or undefined: a new attempt): a retry is
 * `isSameScan` with that movement's time as `checkedInAt` and its direction, so the rule answers
 * it as that entry's or that exit's approval, whether the guest is inside or has left since.
 */
export function existingForRule(standing: { checkedInAt: Date; staffName: string }, retried: RetriedMovement | null | undefined): ExistingCheckIn {
  if (!retried) return { checkedInAt: standing.checkedInAt, checkedInBy: standing.staffName, isSameScan: false };
  return { checkedInAt: retried.at, checkedInBy: standing.staffName, isSameScan: true, ...(retried.direction === 'exit' ? { sameScanDirection: 'exit' as const } : {}) };
}

/**
 * The rule's `ticket` for a ticket row whose event belongs to `organizationId`, with the days its
 * type admits (`door.typeDays`, docs/decisions/125, as ../ticket-type-door.ts reads them; null:
 * every day, or the type has no row). Required, so no caller can leave the type's days out.
 */
export function ticketForRule(ticket: typeof tickets.$inferSelect, organizationId: string, door: Pick<TicketTypeDoor, 'typeDays'>): CheckInTicket {
  return { eventId: ticket.eventId, organizationId, isRevoked: ticket.revokedAt !== null, admittedDays: ticket.admittedDays, ticketType: ticket.ticketType, ticketTypeDays: door.typeDays };
}

/** One scanned check-in of verify's hot path (`recordScannedCheckIn`), with the code its scan-log row records. */
export interface ScannedCheckIn {
  eventId: string;
  ticketId: string;
  day: number;
  checkInListId: string;
  userId: string;
  scanId: string | null;
  /** The code as the scan log keeps it (`renderTextSafely`). */
  code: string;
}

const SCANNED_CHECK_IN_KEY: readonly KeyColumn<ScannedCheckIn>[] = [
  ['event_id', 'uuid', 'eventId'],
  ['ticket_id', 'uuid', 'ticketId'],
  ['day', 'integer', 'day'],
  ['check_in_list_id', 'uuid', 'checkInListId'],
  ['user_id', 'uuid', 'userId'],
  ['scan_id', 'uuid', 'scanId'],
  ['code', 'text', 'code'],
];

/**
 * The scan-log rows (approved, source scan) of a batch write's check-ins, as the CTE `logged`: one
 * per `input` row whose check-in the statement's `inserted` CTE wrote, in the batch's order. Both
 * batch writes (plain entries and entries that claim a place) end with it.
 */
function scannedApprovalsLogged(db: Db) {
  return db.$with('logged', {}).as(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, scan_id, source, check_in_list_id)
    select input.user_id, input.event_id, input.day, input.code, 'approved'::scan_verdict, null, input.scan_id, 'scan'::scan_source, input.check_in_list_id
    from input join inserted using (event_id, ticket_id, day, check_in_list_id) order by input.position`);
}

/**
 * The exactly-once write of scans (docs/decisions/057, 070), for one check-in or a batch: the INSERT
 * of the check-ins (the same ON CONFLICT as `recordCheckIn`; in key order, so that two batches
 * overlapping on another instance lock in the same order) and, for each it inserted, its first
 * scan-log row (approved), in one statement — one
 * implicit transaction, so a crash leaves none or all.
 * The keys of a batch are distinct (event, list, day, ticket). Prepared once per database and size;
 * answers `{ position, checkedInAt }` for each key (1-based position) that inserted.
 */
function prepareScannedCheckInWrite(db: Db, size: BatchSize) {
  const input = db
    .$with('input', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day })
    .as(sql`select * from ${keysTable(SCANNED_CHECK_IN_KEY, size)}`);
  const inserted = db
    .$with('inserted', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day, checkInListId: checkIns.checkInListId, checkedInAt: checkIns.checkedInAt })
    .as(sql`
    insert into ${checkIns} (event_id, ticket_id, day, check_in_list_id, staff_user_id, scan_id)
    select event_id, ticket_id, day, check_in_list_id, user_id, scan_id from input order by event_id, check_in_list_id, day, ticket_id
    on conflict (event_id, check_in_list_id, day, ticket_id) where undone_at is null do nothing
    returning ${checkIns.eventId}, ${checkIns.ticketId}, ${checkIns.day}, ${checkIns.checkInListId}, ${checkIns.checkedInAt}`);
  const logged = scannedApprovalsLogged(db);
  return db
    .with(input, inserted, logged)
    .select({ position: sql<number>`input.position`.mapWith(Number), checkedInAt: inserted.checkedInAt })
    .from(input)
    .innerJoin(
      inserted,
      sql`(input.event_id, input.ticket_id, input.day, input.check_in_list_id) = (${inserted.eventId}, ${inserted.ticketId}, ${inserted.day}, ${inserted.checkInListId})`,
    )
    .prepare(`gatecheck_check_in_write_${size}`);
}

/** The check-in writes of concurrent scans, coalesced into one statement under load (db/coalesce.ts). */
const scannedCheckInWrite = coalescedStatement(SCANNED_CHECK_IN_KEY, prepareScannedCheckInWrite, async (keys, write) => {
  // Two scans of one ticket and day in one batch: the first is written; the other answers "not
  // recorded" and is decided again from the row that won, as if it had come later.
  const isFirst = firstOfEachTicket(keys);
  const batch = keys.filter((_, index) => isFirst[index]);
  const written = byPosition(await retrying(() => write(batch)), batch.length);
  let next = 0;
  // Drizzle maps the timestamp to a Date on both drivers; text from a driver is parsed here.
  return keys.map((_, index) => {
    const row = isFirst[index] ? written[next++] : undefined;
    return row ? new Date(row.checkedInAt) : null;
  });
});

/**
 * For each key, whether it is the first of its ticket, list and day in `keys` (the one a batch
 * writes), or of whatever `identityOf` names.
 */
function firstOfEachTicket<K extends ScannedCheckIn>(keys: readonly K[], identityOf = (key: K) => `${key.eventId} ${key.checkInListId} ${key.ticketId} ${key.day}`): boolean[] {
  const seen = new Set<string>();
  return keys.map((key) => {
    const identity = identityOf(key);
    const first = !seen.has(identity);
    seen.add(identity);
    return first;
  });
}

/**
 * Verify's hot-path write: records `checkIn` and its approved scan-log row (source `scan`) in one
 * statement with the check-ins of the scans written at the same moment, retried on 40001/40P01
 * (`retrying`). Not inside a transaction of the caller's: it is its own.
 * @returns when the check-in was made, or null when it was not recorded (an active check-in
 *   existed, or another scan of the same ticket and day in the same batch won): the caller then
 *   records through `recordCheckIn` in a transaction, which answers the check-in that stands.
 */
export function recordScannedCheckIn(db: Db, checkIn: ScannedCheckIn): Promise<Date | null> {
  return scannedCheckInWrite(db)(checkIn);
}

/** One scanned first entry at a list with a capacity (`recordScannedEntryWithPlace`): a scan, and where its place search starts. */
export interface ScannedEntryWithPlace extends ScannedCheckIn {
  /** The slot (1..capacity) its list's search for a free place starts at (see `claimPlace`). */
  start: number;
  /** The list's last daily checkout (`lastDailyCheckout`), or null: who counts as inside. */
  checkout: Date | null;
}

const SCANNED_ENTRY_WITH_PLACE_KEY: readonly KeyColumn<ScannedEntryWithPlace>[] = [...SCANNED_CHECK_IN_KEY, ['start', 'integer', 'start'], ['checkout', 'timestamptz', 'checkout']];

/** What `recordScannedEntryWithPlace` recorded: when, and the guests inside the list after its batch. */
export interface EntryWithPlace {
  checkedInAt: Date;
  insideNow: number;
}

/**
 * SQL, an aggregate over a batch's entries grouped by list (or event): where the group's search for
 * free places starts — the random start slot (column `start`) of its first entry (`rank` 1 in the
 * group), uniform over the places like each entry's (docs/decisions/159). Not the smallest of the
 * group's starts: the minimum of a batch of n uniform slots lies in the first 1/(n+1) of the places
 * on average, so batches claimed from the low end, the held places piled up there, and every claim
 * stepped over all of them (O(guests inside)). Any entry's start where the first's is missing (a
 * capacity set while the batch was made), so a group never searches from null.
 */
function firstEntrysStart(start: SQL, rank: SQL): SQL {
  return sql`coalesce(min(${start}) filter (where ${rank} = 1), min(${start}))`;
}

/**
 * The free places a batch claims at its lists with a capacity, as a CTE's body: for each row of
 * `wanted` (event_id, check_in_list_id, entries, start), up to `entries` free places of that list
 * from the partial index of free places (`FOR UPDATE SKIP LOCKED`, from slot `start`, wrapping
 * round, as `claimPlace`'s first step), ranked 1.. per list (`rank`): the i-th entry of a list takes
 * the place ranked i.
 */
function listPlacesClaimed(wanted: SQL): SQL {
  const free = (range: SQL) => sql`(select ${checkInListSlots.slot} as slot from ${checkInListSlots}
      where ${checkInListSlots.eventId} = wanted.event_id and ${checkInListSlots.checkInListId} = wanted.check_in_list_id
        and ${checkInListSlots.checkInId} is null and ${range}
      order by ${checkInListSlots.slot} limit wanted.entries for update skip locked)`;
  return sql`
    select wanted.event_id, wanted.check_in_list_id, places.slot,
      row_number() over (partition by wanted.event_id, wanted.check_in_list_id order by places.after_start desc, places.slot) as rank
    from ${wanted} as wanted
    cross join lateral (
      select slot, after_start from (
        select slot, true as after_start from ${free(sql`${checkInListSlots.slot} >= wanted.start`)} as after_start_places
        union all
        select slot, false from ${free(sql`${checkInListSlots.slot} < wanted.start`)} as before_start_places
      ) as both_ranges limit wanted.entries
    ) as places`;
}

/**
 * The `answers` CTE of the place-claiming first-entry statements (docs/decisions/120, 148): one row
 * per entry written (its input position and check-in time), then one row per list and day of the
 * batch with the guests inside it once the batch is in — those inside in the statement's snapshot
 * (`listInsideSql`: from the kept counters at a list without a daily checkout,
 * docs/decisions/159; counted since the list's last checkout at one with; the counters are written
 * AFTER a statement, so neither form holds the statement's own entries) plus the batch's own
 * entries there. The counts are their own branch of the UNION ALL, so each is taken once per batch
 * (docs/decisions/131).
 * `countedWhere`: a filter on `input` for the lists counted (e.g. ` where counts_inside`), or empty.
 */
function placedEntryAnswers(db: Db, countedWhere: SQL) {
  return db.$with('answers', {}).as(sql`
    select input.position, inserted.checked_in_at, null::bigint as inside_now, null::uuid as event_id, null::uuid as check_in_list_id, null::integer as day
    from input join inserted using (event_id, ticket_id, day, check_in_list_id)
    union all
    select null, null,
      ${listInsideSql({ eventId: sql`wanted.event_id`, checkInListId: sql`wanted.check_in_list_id`, day: sql`wanted.day`, checkout: sql`wanted.checkout` })}
      + (select count(*) from inserted where inserted.event_id = wanted.event_id and inserted.check_in_list_id = wanted.check_in_list_id and inserted.day = wanted.day),
      wanted.event_id, wanted.check_in_list_id, wanted.day
    from (select event_id, check_in_list_id, day, max(checkout) as checkout from input${countedWhere} group by event_id, check_in_list_id, day) as wanted`);
}

/** The select over `placedEntryAnswers`' rows, on a query builder that already has its CTEs (`db.with(...)`). */
function selectPlacedEntryAnswers(withCtes: Pick<Db, 'select'>) {
  return withCtes
    .select({
      position: sql<number | null>`answers.position`.mapWith(Number),
      checkedInAt: sql<Date | null>`answers.checked_in_at`.mapWith(checkIns.checkedInAt),
      insideNow: sql<number | null>`answers.inside_now`.mapWith(Number),
      eventId: sql<string | null>`answers.event_id`,
      checkInListId: sql<string | null>`answers.check_in_list_id`,
      day: sql<number | null>`answers.day`,
    })
    .from(sql`answers`);
}

/** One row of `selectPlacedEntryAnswers`: an entry written (position, checkedInAt) or a list's count (eventId, checkInListId, day, insideNow). */
interface PlacedEntryAnswer {
  position: number | null;
  checkedInAt: Date | null;
  insideNow: number | null;
  eventId: string | null;
  checkInListId: string | null;
  day: number | null;
}

/**
 * Maps a place-claiming statement's answer back to its batch: for each key, its check-in time and
 * the guests inside its list and day once the batch was in, or null when it was not written (not the
 * first of its ticket in the batch — `isFirst` — or nothing recorded for it).
 */
function placedEntriesOf(keys: readonly ScannedCheckIn[], isFirst: readonly boolean[], rows: readonly PlacedEntryAnswer[]): (EntryWithPlace | null)[] {
  const placeOf = (key: { eventId: string | null; checkInListId: string | null; day: number | null }) => `${key.eventId} ${key.checkInListId} ${key.day}`;
  const insideNow = new Map(rows.flatMap((row) => (row.position === null ? [[placeOf(row), Number(row.insideNow)] as const] : [])));
  const written = byPosition(
    rows.flatMap((row) => (row.position === null || row.checkedInAt === null ? [] : [{ position: row.position, checkedInAt: row.checkedInAt }])),
    isFirst.filter(Boolean).length,
  );
  let next = 0;
  return keys.map((key, index) => {
    const row = isFirst[index] ? written[next++] : undefined;
    return row ? { checkedInAt: new Date(row.checkedInAt), insideNow: insideNow.get(placeOf(key)) ?? 0 } : null;
  });
}

/**
 * The one-statement form of a first entry at a list with a capacity (docs/decisions/120), for one
 * entry or a batch: per list in the batch, as many free places as it has entries are claimed from
 * the partial index of free places (`FOR UPDATE SKIP LOCKED`, from the batch's random start
 * slot, wrapping round, as `claimPlace`'s first step); the i-th entry of a list takes the i-th
 * place claimed; the check-ins of the entries that got one are inserted (the same ON CONFLICT as
 * `recordCheckIn`), each holds its place, and each gets its approved scan-log row (its first entry is the check-in row: docs/decisions/138) — all one
 * implicit transaction. An entry that got no place (none free, or every free one locked by
 * another entry) or whose ticket already had a check-in inserts nothing and holds nothing: its
 * caller decides it again in the door write's transaction (`recordAttempt`), which waits for
 * locked places and denies `at_capacity` only when none is left.
 */
function prepareScannedEntryWithPlaceWrite(db: Db, size: BatchSize) {
  const input = db
    .$with('input', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day })
    .as(sql`select r.*, row_number() over (partition by r.event_id, r.check_in_list_id order by r.position) as rank from ${keysTable(SCANNED_ENTRY_WITH_PLACE_KEY, size)}`);
  const claimed = db.$with('claimed', {}).as(listPlacesClaimed(sql`(select event_id, check_in_list_id, count(*) as entries, ${firstEntrysStart(sql`start`, sql`rank`)} as start from input group by event_id, check_in_list_id)`));
  const placed = db.$with('placed', {}).as(sql`select input.*, claimed.slot from input join claimed using (event_id, check_in_list_id, rank)`);
  const inserted = db
    .$with('inserted', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day, checkInListId: checkIns.checkInListId, checkedInAt: checkIns.checkedInAt })
    .as(sql`
    insert into ${checkIns} (event_id, ticket_id, day, check_in_list_id, staff_user_id, scan_id)
    select event_id, ticket_id, day, check_in_list_id, user_id, scan_id from placed order by event_id, check_in_list_id, day, ticket_id
    on conflict (event_id, check_in_list_id, day, ticket_id) where undone_at is null do nothing
    returning ${checkIns.id}, ${checkIns.eventId}, ${checkIns.ticketId}, ${checkIns.day}, ${checkIns.checkInListId}, ${checkIns.checkedInAt}, ${checkIns.staffUserId}, ${checkIns.scanId}`);
  const held = db.$with('held', {}).as(sql`
    update ${checkInListSlots} set check_in_id = inserted.id, day = inserted.day, held_since = inserted.checked_in_at
    from inserted join placed using (event_id, ticket_id, day, check_in_list_id)
    where ${checkInListSlots.eventId} = placed.event_id and ${checkInListSlots.checkInListId} = placed.check_in_list_id and ${checkInListSlots.slot} = placed.slot`);
  const logged = scannedApprovalsLogged(db);
  // The answer: a row per entry recorded (its position and time), and a row per list and day of
  // the batch with the guests inside once the batch is in — those inside at the statement's
  // snapshot (`isInsideSince`) and the batch's own entries. The counts are their own branch of the
  // UNION ALL, one row per list and day, so each is counted once per batch: a count joined to the
  // entries' rows was evaluated by the planner once per entry (docs/decisions/131).
  const answers = placedEntryAnswers(db, sql``);
  return selectPlacedEntryAnswers(db.with(input, claimed, placed, inserted, held, logged, answers)).prepare(`gatecheck_check_in_place_write_${size}`);
}

/** The place-claiming entries of concurrent scans, coalesced into one statement under load (db/coalesce.ts). */
const scannedEntryWithPlaceWrite = coalescedStatement(SCANNED_ENTRY_WITH_PLACE_KEY, prepareScannedEntryWithPlaceWrite, async (keys, write) => {
  const isFirst = firstOfEachTicket(keys);
  const rows = await retrying(() => write(keys.filter((_, index) => isFirst[index])));
  return placedEntriesOf(keys, isFirst, rows);
});

/**
 * Verify's hot-path write of a first entry at a list with a capacity (docs/decisions/120): claims a
 * free place, records the check-in holding it and its approved scan-log row in one statement with
 * the entries written at the same moment, retried on 40001/40P01.
 * @returns when the check-in was made and the guests inside the list on the day once its batch is
 *   in, or null when nothing was recorded (no free place could be claimed without waiting, or an
 *   active check-in existed): the caller then decides and records through `recordAttempt` in a
 *   transaction.
 */
export function recordScannedEntryWithPlace(db: Db, entry: ScannedEntryWithPlace): Promise<EntryWithPlace | null> {
  return scannedEntryWithPlaceWrite(db)(entry);
}

/**
 * One scanned first entry at an event with a capacity (`recordScannedEntryAtEvent`, docs/decisions/148):
 * a scan, where its searches for a free place start, and what its list and event need to know.
 */
export interface ScannedEntryAtEvent extends ScannedCheckIn {
  /** The slot (1..the list's capacity) its list's search for a free place starts at; null: the list has no capacity. */
  listStart: number | null;
  /** The slot (1..the event's capacity) its search for a free place of the event starts at. */
  eventStart: number;
  /** The list's last daily checkout (`lastDailyCheckout`), or null: who counts as inside the list. */
  checkout: Date | null;
  /** Whether the list counts its guests inside (./record.ts `countsInside`): the answer says how many. */
  countsInside: boolean;
  /** The server's clock: a place of the event whose holder's `expires_at` is not after it is stale. */
  now: Date;
  /** The event's time zone (IANA), for when the place expires. */
  timeZone: string;
  /** The list's daily checkout time ('HH:MM', null: none): the place expires at the next one after the entry. */
  checkoutTime: string | null;
}

const SCANNED_ENTRY_AT_EVENT_KEY: readonly KeyColumn<ScannedEntryAtEvent>[] = [
  ...SCANNED_CHECK_IN_KEY,
  ['list_start', 'integer', 'listStart'],
  ['event_start', 'integer', 'eventStart'],
  ['checkout', 'timestamptz', 'checkout'],
  ['counts_inside', 'boolean', 'countsInside'],
  ['now', 'timestamptz', 'now'],
  ['time_zone', 'text', 'timeZone'],
  ['checkout_time', 'text', 'checkoutTime'],
];

/** What `recordScannedEntryAtEvent` recorded: when, and the guests inside the list after its batch where the list counts them. */
export interface EntryAtEvent {
  /** When the check-in was made: the database's clock (`now()` of the statement), the place held from then. */
  checkedInAt: Date;
  /** Absent where the list does not count its guests inside. */
  insideNow?: number;
}

/**
 * The one-statement form of a first entry at an event with a capacity (docs/decisions/148), for one
 * entry or a batch, all one implicit transaction:
 * 1. an entry whose ticket holds a place of the event on the day already (inside through another
 *    list, or until that list's checkout) takes nothing here: the door write keeps that place;
 * 2. at a list with a capacity, the list's free places as `prepareScannedEntryWithPlaceWrite`
 *    claims them; an entry that got none goes no further (no event place is claimed for it);
 * 3. per event, as many of its places as it has entries left: free ones from the partial index
 *    (from the batch's random start slot, wrapping round), then stale ones (held on a day none of
 *    the batch's entries is for, or whose `expires_at` is not after `now`), all `FOR UPDATE SKIP
 *    LOCKED` — every condition on the row's own columns, as `claimEventPlace`'s;
 * 4. the check-ins of the entries that got every place they need (the same ON CONFLICT as
 *    `recordCheckIn`), each holding its list's place and the event's (`expires_at`: its list's next
 *    daily checkout after the check-in, computed as `insideNowSql` computes the last one), and
 *    each its approved scan-log row.
 * Places are claimed only with SKIP LOCKED, so the statement never waits for another entry's
 * place: an entry that got no place (none free, or every one locked by another entry) or whose
 * ticket already had a check-in inserts and holds nothing, and its caller decides it again in the
 * door write's transaction (`recordAttempt`), which waits for locked places and denies
 * `at_capacity` only when none is left. The answer: a row per entry recorded, and a row per list
 * and day that counts its guests inside (as `prepareScannedEntryWithPlaceWrite`'s).
 */
function prepareScannedEntryAtEventWrite(db: Db, size: BatchSize) {
  const input = db.$with('input', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day }).as(sql`
    select r.*, row_number() over (partition by r.event_id, r.check_in_list_id order by r.position) as rank
    from ${keysTable(SCANNED_ENTRY_AT_EVENT_KEY, size)}
    where not exists (select from ${eventSlots} where ${eventSlots.eventId} = r.event_id and ${eventSlots.ticketId} = r.ticket_id and ${eventSlots.day} = r.day)`);
  const listClaimed = db.$with('list_claimed', {}).as(listPlacesClaimed(sql`(select event_id, check_in_list_id, count(*) as entries, ${firstEntrysStart(sql`list_start`, sql`rank`)} as start from input where list_start is not null group by event_id, check_in_list_id)`));
  const listed = db.$with('listed', {}).as(sql`
    select input.*, list_claimed.slot as list_slot, row_number() over (partition by input.event_id order by input.position) as event_rank
    from input left join list_claimed using (event_id, check_in_list_id, rank)
    where input.list_start is null or list_claimed.slot is not null`);
  const eventPlaces = (condition: SQL) => sql`(select ${eventSlots.slot} as slot from ${eventSlots}
      where ${eventSlots.eventId} = wanted.event_id and ${condition}
      order by ${eventSlots.slot} limit wanted.entries for update skip locked)`;
  const eventClaimed = db.$with('event_claimed', {}).as(sql`
    select wanted.event_id, places.slot, row_number() over (partition by wanted.event_id order by places.branch, places.slot) as event_rank
    from (select event_id, count(*) as entries, ${firstEntrysStart(sql`event_start`, sql`event_rank`)} as start, array_agg(distinct day) as days, min(now) as now from listed group by event_id) as wanted
    cross join lateral (
      select slot, branch from (
        select slot, 1 as branch from ${eventPlaces(sql`${eventSlots.ticketId} is null and ${eventSlots.slot} >= wanted.start`)} as after_start_places
        union all
        select slot, 2 from ${eventPlaces(sql`${eventSlots.ticketId} is null and ${eventSlots.slot} < wanted.start`)} as before_start_places
        union all
        select slot, 3 from ${eventPlaces(sql`${eventSlots.ticketId} is not null and (${eventSlots.day} <> all(wanted.days) or ${eventSlots.expiresAt} <= wanted.now)`)} as stale_places
      ) as every_branch limit wanted.entries
    ) as places`);
  const placed = db.$with('placed', {}).as(sql`select listed.*, event_claimed.slot as event_slot from listed join event_claimed using (event_id, event_rank)`);
  const inserted = db
    .$with('inserted', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day, checkInListId: checkIns.checkInListId, checkedInAt: checkIns.checkedInAt })
    .as(sql`
    insert into ${checkIns} (event_id, ticket_id, day, check_in_list_id, staff_user_id, scan_id)
    select event_id, ticket_id, day, check_in_list_id, user_id, scan_id from placed order by event_id, check_in_list_id, day, ticket_id
    on conflict (event_id, check_in_list_id, day, ticket_id) where undone_at is null do nothing
    returning ${checkIns.id}, ${checkIns.eventId}, ${checkIns.ticketId}, ${checkIns.day}, ${checkIns.checkInListId}, ${checkIns.checkedInAt}`);
  const listHeld = db.$with('list_held', {}).as(sql`
    update ${checkInListSlots} set check_in_id = inserted.id, day = inserted.day, held_since = inserted.checked_in_at
    from inserted join placed using (event_id, ticket_id, day, check_in_list_id)
    where ${checkInListSlots.eventId} = placed.event_id and ${checkInListSlots.checkInListId} = placed.check_in_list_id and ${checkInListSlots.slot} = placed.list_slot`);
  // The list's next daily checkout strictly after the check-in (`nextDailyCheckout`), on the event's wall clock.
  const expiresAt = nextDailyCheckoutSql(sql`inserted.checked_in_at`, { checkoutTime: sql`placed.checkout_time`, timeZone: sql`placed.time_zone` });
  const eventHeld = db.$with('event_held', {}).as(sql`
    update ${eventSlots} set ticket_id = inserted.ticket_id, day = inserted.day,
      expires_at = ${expiresAt}
    from inserted join placed using (event_id, ticket_id, day, check_in_list_id)
    where ${eventSlots.eventId} = placed.event_id and ${eventSlots.slot} = placed.event_slot`);
  const logged = scannedApprovalsLogged(db);
  const answers = placedEntryAnswers(db, sql` where counts_inside`);
  return selectPlacedEntryAnswers(db.with(input, listClaimed, listed, eventClaimed, placed, inserted, listHeld, eventHeld, logged, answers)).prepare(
    `gatecheck_check_in_event_place_write_${size}`,
  );
}

/** The entries of concurrent scans at events with a capacity, coalesced into one statement under load (db/coalesce.ts). */
const scannedEntryAtEventWrite = coalescedStatement(SCANNED_ENTRY_AT_EVENT_KEY, prepareScannedEntryAtEventWrite, async (keys, write) => {
  // One entry per ticket and day of an event in a batch: a ticket scanned at two of its lists at
  // once takes one place; the other entry is decided again in the door write, which finds it held.
  const isFirst = firstOfEachTicket(keys, (key) => `${key.eventId} ${key.ticketId} ${key.day}`);
  const rows = await retrying(() => write(keys.filter((_, index) => isFirst[index])));
  return placedEntriesOf(keys, isFirst, rows).map((entry, index): EntryAtEvent | null =>
    entry && !keys[index]?.countsInside ? { checkedInAt: entry.checkedInAt } : entry,
  );
});

/**
 * Verify's hot-path write of a first entry at any list of an event with a capacity
 * (docs/decisions/148): claims a free place of the list (where it has a capacity) and of the event,
 * records the check-in holding them and its approved scan-log row in one statement with the
 * entries written at the same moment, retried on 40001/40P01.
 * @returns when the check-in was made (and, where the list counts its guests inside, how many are
 *   inside it on the day once its batch is in), or null when nothing was recorded (the ticket holds
 *   a place of the event on the day already, no place could be claimed without waiting, or an
 *   active check-in existed): the caller then decides and records through `recordAttempt` in a
 *   transaction.
 */
export function recordScannedEntryAtEvent(db: Db, entry: ScannedEntryAtEvent): Promise<EntryAtEvent | null> {
  return scannedEntryAtEventWrite(db)(entry);
}

/**
 * An undo to make: the active check-in of a ticket on a list and day, optionally only the one
 * `scanId` made.
 */
export interface CheckInUndo {
  eventId: string;
  ticketId: string;
  day: number;
  /** The list of the check-in; undefined with a `scanId`: whichever list that scan checked in at. */
  checkInListId: string | undefined;
  /** Undo only the check-in this scan made (docs/decisions/080); undefined: whichever stands. */
  scanId?: string | undefined;
  /** The supervisor undoing it. */
  undoneBy: string;
  reason: string;
}

/**
 * What `undoActiveCheckIn` did: undone (`isUndone: true`; `checkedInAt`, when the entry undone was
 * made: the first entry's time, or a re-entry's; `exitedAt`, the exit undone with it, null when the
 * guest was inside; `undoneAt`, the database clock), or nothing, because no check-in is active
 * (`standing: 'none'`) or the active one has no entry of `scanId`'s (`standing: 'another'`).
 */
export type CheckInUndoWrite = { isUndone: true; checkInListId: string; checkedInAt: Date; undoneAt: Date; exitedAt: Date | null } | { isUndone: false; standing: 'none' | 'another' };

/**
 * Undoes what `undo` names, on `tx` (docs/decisions/111, 138):
 * - the active check-in (without `scanId`, or when `scanId` made its first entry): `undone_at`
 *   (`now()`), `undone_by`, `undo_reason` and the door list's change stamp in one UPDATE guarded by
 *   `undone_at IS NULL`, so of two concurrent undos one wins; its movements are undone with it and
 *   the place it held is free. The row stays: the ticket can be checked in again on that day.
 * - a re-entry (`scanId` made it): that re-entry and every movement of the check-in since (an exit,
 *   a later re-entry) are undone; the check-in stands as it was before that re-entry — the guest
 *   out since the exit before it (or the daily checkout), the place free. Inside-now drops by one
 *   when the guest was inside by it, and stays when the guest had left since.
 * With `scanId`, a check-in that scan made no entry of (another gate's, or one made again since)
 * is left standing; the check-in is locked first, as the door write locks it.
 */
export async function undoActiveCheckIn(tx: DbOrTx, undo: CheckInUndo): Promise<CheckInUndoWrite> {
  if (undo.checkInListId === undefined && undo.scanId === undefined) throw new Error('an undo names its list or its scan');
  const onList = undo.checkInListId === undefined ? undefined : eq(checkIns.checkInListId, undo.checkInListId);
  const activeCheckIn = and(eq(checkIns.eventId, undo.eventId), onList, eq(checkIns.ticketId, undo.ticketId), eq(checkIns.day, undo.day), isActiveCheckIn);
  let checkInId: string | undefined;
  if (undo.scanId !== undefined) {
    // The first entry's scan is the check-in row's own (docs/decisions/138): the whole check-in.
    const [first] = await tx
      .select({ checkInId: checkIns.id })
      .from(checkIns)
      .where(and(activeCheckIn, eq(checkIns.scanId, undo.scanId)))
      .limit(1)
      .for('update');
    if (first) checkInId = first.checkInId;
    else {
      const [made] = await tx
        .select({ checkInId: checkIns.id, checkInListId: checkIns.checkInListId, at: checkInMovements.at })
        .from(checkInMovements)
        .innerJoin(checkIns, and(eq(checkIns.eventId, checkInMovements.eventId), eq(checkIns.id, checkInMovements.checkInId)))
        .where(
          and(
            activeCheckIn,
            eq(checkInMovements.eventId, undo.eventId),
            eq(checkInMovements.scanId, undo.scanId),
            eq(checkInMovements.direction, 'entry'),
            eq(checkInMovements.isLate, false),
            isNull(checkInMovements.undoneAt),
          ),
        )
        .limit(1)
        .for('update', { of: checkIns });
      if (made) return undoReentry(tx, { eventId: undo.eventId, checkInId: made.checkInId, checkInListId: made.checkInListId, at: made.at });
      const [standing] = await tx.select({ id: checkIns.id }).from(checkIns).where(activeCheckIn).limit(1);
      return { isUndone: false, standing: standing ? 'another' : 'none' };
    }
  }
  const [undone] = await tx
    .update(checkIns)
    .set({ undoneAt: sql`now()`, undoneBy: undo.undoneBy, undoReason: undo.reason, changedXid: changeStamp() })
    .where(checkInId === undefined ? activeCheckIn : and(activeCheckIn, eq(checkIns.id, checkInId)))
    .returning({ id: checkIns.id, checkInListId: checkIns.checkInListId, checkedInAt: checkIns.checkedInAt, undoneAt: checkIns.undoneAt, exitedAt: checkIns.exitedAt });
  if (!undone?.undoneAt) return { isUndone: false, standing: 'none' };
  // Entries and exits of the day at that list go together (docs/decisions/111): the movements are
  // undone with the check-in, and the place it held, if any, is free again.
  await tx
    .update(checkInMovements)
    .set({ undoneAt: undone.undoneAt })
    .where(and(eq(checkInMovements.eventId, undo.eventId), eq(checkInMovements.checkInId, undone.id), isNull(checkInMovements.undoneAt)));
  await releasePlace(tx, undo.eventId, undone.id);
  return { isUndone: true, checkInListId: undone.checkInListId, checkedInAt: undone.checkedInAt, undoneAt: undone.undoneAt, exitedAt: undone.exitedAt };
}

/**
 * Undoes the re-entry at `reentry.at` of check-in `reentry.checkInId` (locked by the caller) and
 * every movement since, and sets the check-in back to its movements before it (`undoActiveCheckIn`).
 */
async function undoReentry(tx: DbOrTx, reentry: { eventId: string; checkInId: string; checkInListId: string; at: Date }): Promise<CheckInUndoWrite> {
  const ofCheckIn = and(eq(checkInMovements.eventId, reentry.eventId), eq(checkInMovements.checkInId, reentry.checkInId));
  const undone = await tx
    .update(checkInMovements)
    .set({ undoneAt: sql`now()` })
    .where(and(ofCheckIn, isNull(checkInMovements.undoneAt), sql`${checkInMovements.at} >= ${reentry.at.toISOString()}::timestamptz`))
    .returning({ direction: checkInMovements.direction, at: checkInMovements.at, isLate: checkInMovements.isLate, undoneAt: checkInMovements.undoneAt });
  const undoneAt = undone[0]?.undoneAt;
  // Undone meanwhile by another undo (a double tap, two supervisors): the check-in lock let this one
  // through with the movement it read before; it stands as that undo left it.
  if (!undoneAt) return { isUndone: false, standing: 'another' };
  const exitsUndone = undone.filter((movement) => movement.direction === 'exit' && !movement.isLate).sort((a, b) => a.at.getTime() - b.at.getTime());
  const before = await movementsOf(tx, reentry);
  const firstEntry = before[0];
  const lastEntry = before.findLast((movement) => movement.direction === 'entry');
  const last = before.at(-1);
  if (!firstEntry || !lastEntry || !last) throw new Error('a re-entry undone without an entry before it');
  const isOut = last.direction === 'exit';
  await tx
    .update(checkIns)
    .set({
      lastEnteredAt: lastEntry === firstEntry ? null : lastEntry.at,
      exitedAt: isOut ? last.at : null,
      exitedBy: isOut ? last.staffUserId : null,
      changedXid: changeStamp(),
    })
    .where(and(eq(checkIns.eventId, reentry.eventId), eq(checkIns.id, reentry.checkInId), isActiveCheckIn));
  // Before a re-entry the guest was not inside (the rule admits none otherwise): no place held. Only
  // when the movements left say so: with phones' clocks apart, an exit recorded before the re-entry
  // may carry a later time and be undone with it, and a guest the check-in counts inside keeps the
  // place it holds (never one counted inside without a place: the list would admit one too many).
  if (isOut) await releasePlace(tx, reentry.eventId, reentry.checkInId);
  return { isUndone: true, checkInListId: reentry.checkInListId, checkedInAt: reentry.at, undoneAt, exitedAt: exitsUndone[0]?.at ?? null };
}

/** A movement of a check-in as its history reads it: which way, when, by whom. */
export interface Movement {
  direction: CheckInDirection;
  at: Date;
  staffUserId: string;
}

/**
 * The movements of check-in `key.checkInId`, oldest first, not undone: those that made who is inside
 * now (without `upTo`), or every one at or before `upTo`, late ones too (the guest's passages
 * up to that time, as far as the server knows them: docs/decisions/138). The first is the check-in's
 * own first entry (`checked_in_at` by its staff member: not a row of `check_in_movements`), while
 * the check-in is active.
 */
export async function movementsOf(tx: DbOrTx, key: { eventId: string; checkInId: string }, upTo?: Date): Promise<Movement[]> {
  const [first] = await tx
    .select({ at: checkIns.checkedInAt, staffUserId: checkIns.staffUserId })
    .from(checkIns)
    .where(
      and(
        eq(checkIns.eventId, key.eventId),
        eq(checkIns.id, key.checkInId),
        isActiveCheckIn,
        upTo === undefined ? undefined : sql`${checkIns.checkedInAt} <= ${upTo.toISOString()}::timestamptz`,
      ),
    );
  const later = await tx
    .select({ direction: checkInMovements.direction, at: checkInMovements.at, staffUserId: checkInMovements.staffUserId })
    .from(checkInMovements)
    .where(
      and(
        eq(checkInMovements.eventId, key.eventId),
        eq(checkInMovements.checkInId, key.checkInId),
        isNull(checkInMovements.undoneAt),
        upTo === undefined ? eq(checkInMovements.isLate, false) : sql`${checkInMovements.at} <= ${upTo.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(checkInMovements.at));
  return first ? [{ direction: 'entry', ...first }, ...later] : later;
}

/**
 * The movement `scan` made of its ticket on its day at event `scan.eventId` — a check-in's first
 * entry (the check-in row's scan), or a re-entry or an exit (a row of `check_in_movements`), of a
 * check-in active or undone (docs/decisions/138) — if any, the latest: when it was made and by whom. An
 * offline scan whose online verify reached the server before the device gave up on it is that
 * movement, not a new one (docs/decisions/045).
 */
export async function findMovementOfScan(
  tx: DbOrTx,
  scan: { eventId: string; ticketId: string; day: number; scanId: string },
): Promise<{ checkedInAt: Date; checkedInBy: string } | undefined> {
  const [firstEntry] = await tx
    .select({ checkedInAt: checkIns.checkedInAt, checkedInBy: users.displayName })
    .from(checkIns)
    .innerJoin(users, eq(users.id, checkIns.staffUserId))
    .where(and(eq(checkIns.eventId, scan.eventId), eq(checkIns.ticketId, scan.ticketId), eq(checkIns.day, scan.day), eq(checkIns.scanId, scan.scanId)))
    .orderBy(sql`${checkIns.checkedInAt} desc`)
    .limit(1);
  const [later] = await tx
    .select({ checkedInAt: checkInMovements.at, checkedInBy: users.displayName })
    .from(checkInMovements)
    .innerJoin(checkIns, and(eq(checkIns.eventId, checkInMovements.eventId), eq(checkIns.id, checkInMovements.checkInId)))
    .innerJoin(users, eq(users.id, checkInMovements.staffUserId))
    .where(and(eq(checkInMovements.eventId, scan.eventId), eq(checkInMovements.scanId, scan.scanId), eq(checkIns.ticketId, scan.ticketId), eq(checkIns.day, scan.day)))
    .orderBy(sql`${checkInMovements.at} desc`)
    .limit(1);
  if (!firstEntry || !later) return firstEntry ?? later;
  return later.checkedInAt.getTime() > firstEntry.checkedInAt.getTime() ? later : firstEntry;
}

/**
 * The active check-in of a ticket on a list and day, locked (`FOR UPDATE`) for an exit or a
 * re-entry at a door that records them (docs/decisions/111): two scans of one guest at once wait for
 * each other, so an exit or a re-entry is recorded exactly once.
 */
export interface DoorCheckIn extends StandingCheckIn {
  lastEnteredAt: Date;
  exitedAt: Date | null;
  exitedBy: string | null;
}

/** `lockActiveCheckIn`: the ticket's active check-in at the list on the day, locked, or undefined. */
export async function lockActiveCheckIn(tx: DbOrTx, key: { eventId: string; ticketId: string; day: number; checkInListId: string }): Promise<DoorCheckIn | undefined> {
  const [row] = await tx
    .select({
      id: checkIns.id,
      checkedInAt: checkIns.checkedInAt,
      scanId: checkIns.scanId,
      staffUserId: checkIns.staffUserId,
      lastEnteredAt: checkIns.lastEnteredAt,
      exitedAt: checkIns.exitedAt,
      exitedBy: checkIns.exitedBy,
    })
    .from(checkIns)
    .where(and(eq(checkIns.eventId, key.eventId), eq(checkIns.checkInListId, key.checkInListId), eq(checkIns.day, key.day), eq(checkIns.ticketId, key.ticketId), isActiveCheckIn))
    .limit(1)
    .for('update');
  if (!row) return undefined;
  const [staff] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, row.staffUserId));
  return { ...row, lastEnteredAt: row.lastEnteredAt ?? row.checkedInAt, staffName: staff?.name ?? '' };
}

/** A movement to record (`recordMovement`). */
export interface NewMovement {
  eventId: string;
  checkInId: string;
  direction: CheckInDirection;
  /** When the guest passed: the clock at the gate, or an offline scan's time. */
  at: Date;
  staffUserId: string;
  scanId: string | null;
  /** An offline scan: when the server received it, and the device that made it. */
  offline?: { receivedAt: Date; deviceId: string } | undefined;
  /** Arrived after a later movement of the check-in: history only (docs/decisions/138). */
  isLate?: boolean | undefined;
}

/** Records `movement` of a check-in, on `tx` (the transaction of the check-in change it records). */
export async function recordMovement(tx: DbOrTx, movement: NewMovement): Promise<void> {
  await tx.insert(checkInMovements).values({
    eventId: movement.eventId,
    checkInId: movement.checkInId,
    direction: movement.direction,
    at: movement.at,
    staffUserId: movement.staffUserId,
    scanId: movement.scanId,
    ...(movement.offline ? { receivedAt: movement.offline.receivedAt, deviceId: movement.offline.deviceId } : {}),
    ...(movement.isLate ? { isLate: true } : {}),
  });
}

/** An exit or a re-entry of a check-in (the caller holds its row: `lockActiveCheckIn`). */
export type DoorMovement = Omit<NewMovement, 'direction' | 'isLate'>;

/**
 * Records the exit of check-in `exit.checkInId` at `exit.at` (guarded by `exited_at IS NULL`: one
 * exit per stay) with its movement, and frees the place it held at a list with a capacity, on `tx`.
 * @returns the exit's time, or null when the guest had already left (nothing written).
 */
export async function recordExit(tx: DbOrTx, exit: DoorMovement): Promise<Date | null> {
  const [exited] = await tx
    .update(checkIns)
    .set({ exitedAt: exit.at, exitedBy: exit.staffUserId, changedXid: changeStamp() })
    .where(and(eq(checkIns.eventId, exit.eventId), eq(checkIns.id, exit.checkInId), isActiveCheckIn, isNull(checkIns.exitedAt)))
    .returning({ exitedAt: checkIns.exitedAt });
  if (!exited?.exitedAt) return null;
  await recordMovement(tx, { ...exit, direction: 'exit' });
  await releasePlace(tx, exit.eventId, exit.checkInId);
  return exited.exitedAt;
}

/**
 * Records a re-entry of check-in `entry.checkInId` at `entry.at` (the guest had left, or was
 * checked out at the list's daily checkout): the exit is cleared and the entry time kept as
 * `last_entered_at`, and the re-entry is a movement with its scan (so that scan's retry is answered,
 * not recorded again: `findRetriedMovement`), on `tx` (the caller holds the row: `lockActiveCheckIn`).
 */
export async function recordReentry(tx: DbOrTx, entry: DoorMovement): Promise<void> {
  await tx
    .update(checkIns)
    .set({ lastEnteredAt: entry.at, exitedAt: null, exitedBy: null, changedXid: changeStamp() })
    .where(and(eq(checkIns.eventId, entry.eventId), eq(checkIns.id, entry.checkInId), isActiveCheckIn));
  await recordMovement(tx, { ...entry, direction: 'entry' });
}

/** Which places of a list are free for an entry on `day` at `now`: see `check_in_list_slots`. */
interface PlaceKey {
  eventId: string;
  checkInListId: string;
  day: number;
  /** The list's last daily checkout (`lastDailyCheckout`), or null. */
  checkout: Date | null;
}

/**
 * Claims a free place of a list with a capacity for an entry on `key.day` (docs/decisions/111), on
 * `tx`, so that of concurrent entries for the last place exactly one wins and the others never queue
 * on one counter row:
 * 1. a place no check-in holds, from the partial index of free places, starting at a random slot
 *    (and wrapping round) and skipping rows other entries have locked (`FOR UPDATE SKIP LOCKED`):
 *    concurrent entries claim different rows, and the index's dead entries of places claimed a
 *    moment ago are spread over it rather than piled at its start;
 * 2. else a place held by a check-in of another day or entered before the list's last daily
 *    checkout (stale holders, freed lazily here), skipping locked rows;
 * 3. else the same read waiting for the rows other entries hold (`FOR UPDATE`): an entry that rolls
 *    back (its ticket was already in) frees its row for a waiting one, so no entry is denied while a
 *    place is left.
 * @returns the slot number, held (locked) until `tx` ends; null when the list is full.
 */
export async function claimPlace(tx: DbOrTx, key: PlaceKey, capacity: number): Promise<number | null> {
  const ofList = and(eq(checkInListSlots.eventId, key.eventId), eq(checkInListSlots.checkInListId, key.checkInListId));
  const start = 1 + Math.floor(Math.random() * capacity);
  for (const range of [sql`${checkInListSlots.slot} >= ${start}`, sql`${checkInListSlots.slot} < ${start}`]) {
    const [free] = await tx
      .select({ slot: checkInListSlots.slot })
      .from(checkInListSlots)
      .where(and(ofList, isNull(checkInListSlots.checkInId), range))
      .orderBy(checkInListSlots.slot)
      .limit(1)
      .for('update', { skipLocked: true });
    if (free) return free.slot;
  }
  const reusable = sql`(${checkInListSlots.checkInId} is null or ${checkInListSlots.day} <> ${key.day} or ${checkInListSlots.heldSince} < ${key.checkout ? key.checkout.toISOString() : null}::timestamptz)`;
  const [stale] = await tx.select({ slot: checkInListSlots.slot }).from(checkInListSlots).where(and(ofList, reusable)).orderBy(checkInListSlots.slot).limit(1).for('update', { skipLocked: true });
  if (stale) return stale.slot;
  const [waited] = await tx.select({ slot: checkInListSlots.slot }).from(checkInListSlots).where(and(ofList, reusable)).orderBy(checkInListSlots.slot).limit(1).for('update');
  return waited?.slot ?? null;
}

/** Holds place `slot` (claimed by `claimPlace`) with check-in `checkInId` of `key.day`, entered at `at`. */
export async function holdPlace(tx: DbOrTx, key: PlaceKey, slot: number, checkInId: string, at: Date): Promise<void> {
  await tx
    .update(checkInListSlots)
    .set({ checkInId, day: key.day, heldSince: at })
    .where(and(eq(checkInListSlots.eventId, key.eventId), eq(checkInListSlots.checkInListId, key.checkInListId), eq(checkInListSlots.slot, slot)));
}

/** Frees the place check-in `checkInId` holds, if any (an exit, an undo). */
export async function releasePlace(tx: DbOrTx, eventId: string, checkInId: string): Promise<void> {
  await tx
    .update(checkInListSlots)
    .set({ checkInId: null, day: null, heldSince: null })
    .where(and(eq(checkInListSlots.eventId, eventId), eq(checkInListSlots.checkInId, checkInId)));
}

/**
 * "Inside now" in SQL, the one form every count of guests inside uses (docs/decisions/111; the
 * contract's `isCheckInInside` in JS): the check-in row is active, not exited, and, where its list
 * has a daily checkout, entered (its last entry, else its check-in) at or after `checkout`, the
 * list's last daily checkout (`lastDailyCheckout`).
 * `checkout`: null (the list has no daily checkout: the condition is the partial index
 * `check_ins_inside_list_day_idx`'s predicate alone, so a count can read that index alone), a time,
 * or an SQL expression of one per row, null where the row's list has none.
 */
export function isInsideSince(checkout: Date | SQL | null): SQL {
  const inside = sql`${checkIns.undoneAt} is null and ${checkIns.exitedAt} is null`;
  const entered = sql`coalesce(${checkIns.lastEnteredAt}, ${checkIns.checkedInAt})`;
  if (checkout === null) return sql`(${inside})`;
  if (checkout instanceof Date) return sql`(${inside} and ${entered} >= ${checkout.toISOString()}::timestamptz)`;
  return sql`(${inside} and (${checkout} is null or ${entered} >= ${checkout}))`;
}

/**
 * `isInsideSince` at `now` for check-ins joined with their list (`check_in_lists`) and event
 * (`events`): each row's last daily checkout computed in SQL from its list's checkout time and its
 * event's time zone, as `lastDailyCheckout` computes it (today's checkout if it has passed at `now`
 * on the event's wall clock, else yesterday's; null for a list without one).
 */
export function insideNowSql(now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const localDate = sql`(${at} at time zone ${events.timeZone})::date`;
  const todays = sql`((${localDate} + ${checkInLists.dailyCheckoutTime}::time) at time zone ${events.timeZone})`;
  const yesterdays = sql`(((${localDate} - 1) + ${checkInLists.dailyCheckoutTime}::time) at time zone ${events.timeZone})`;
  // Null when the list has no checkout time (both sides are then null).
  return isInsideSince(sql`(case when ${todays} <= ${at} then ${todays} else ${yesterdays} end)`);
}

/**
 * The next daily checkout strictly after `at` (a timestamptz in SQL) of a list whose checkout time is
 * `checkoutTime` ('HH:MM', SQL; null: none) at an event in time zone `timeZone` (SQL): today's on the
 * event's wall clock at `at` when it is later, else tomorrow's; null when the list has none. The SQL
 * form of `nextDailyCheckout` (event-places.ts), as `insideNowSql` is of `lastDailyCheckout`: used by
 * verify's statement for a place's `expires_at` and by the edit of a list's checkout
 * (`refreshEventPlaceExpiries`), so the two cannot drift.
 */
export function nextDailyCheckoutSql(at: SQL, list: { checkoutTime: SQL; timeZone: SQL }): SQL {
  const { checkoutTime, timeZone } = list;
  const localDate = sql`(${at} at time zone ${timeZone})::date`;
  const todays = sql`((${localDate} + ${checkoutTime}::time) at time zone ${timeZone})`;
  const tomorrows = sql`(((${localDate} + 1) + ${checkoutTime}::time) at time zone ${timeZone})`;
  return sql`(case when ${checkoutTime} is null then null when ${todays} > ${at} then ${todays} else ${tomorrows} end)`;
}

/**
 * SQL: the active check-ins (not undone) of event `eventId` on `day` at list `listId` (every list of
 * the event when undefined) — the sum of the trigger-kept `check_in_arrivals` rows (docs/decisions/127:
 * a row per list and 5-minute slot, so it reads what the day's length makes, not what its check-ins
 * make; docs/decisions/140). Each key is a value or an SQL expression (a column of the enclosing
 * query, e.g. `unnest`'s or a batch's). The counters are written by statement triggers on
 * `check_ins` AFTER each statement, in its transaction: in a statement's own snapshot they do not yet
 * hold what that statement writes.
 */
export function arrivalsSql(eventId: string | SQL, day: number | SQL, listId?: string | SQL): SQL {
  const ofList = listId === undefined ? sql`` : sql` and ${checkInArrivals.checkInListId} = ${listId}`;
  return sql`(select coalesce(sum(${checkInArrivals.arrivals}), 0) from ${checkInArrivals} where ${checkInArrivals.eventId} = ${eventId} and ${checkInArrivals.day} = ${day}${ofList})`;
}

/**
 * SQL: guests inside now through list `listId` (or every list, as `arrivalsSql`) of `eventId` on
 * `day` when the list has no daily checkout (docs/decisions/111, 140): its active check-ins less
 * those that exited — the arrivals counters (`arrivalsSql`) less the partial index of exited
 * active check-ins (`check_ins_exited_event_day_idx`), so a door without exits reads no check-in at
 * all. One SQL expression, so both sides come from one snapshot; equal there to a count of
 * `isInsideSince(null)` (docs/decisions/159). Not for a list with a daily checkout: who is inside
 * there depends on the clock, not on a counter.
 */
export function insideWithoutCheckoutSql(eventId: string | SQL, day: number | SQL, listId?: string | SQL): SQL {
  const ofList = listId === undefined ? sql`` : sql` and ${checkIns.checkInListId} = ${listId}`;
  const exited = sql`(select count(*) from ${checkIns} where ${checkIns.eventId} = ${eventId} and ${checkIns.day} = ${day}${ofList} and ${checkIns.undoneAt} is null and ${checkIns.exitedAt} is not null)`;
  return sql`(${arrivalsSql(eventId, day, listId)} - ${exited})`;
}

/**
 * SQL: the guests inside list `key.checkInListId` of `key.eventId` on `key.day` since its last daily
 * checkout `key.checkout` (`isInsideSince`), in the statement's snapshot. Each key is a value or an SQL
 * expression (a column of the enclosing query, as a batch's). A list without a daily checkout: its
 * kept arrivals less its exited check-ins (`insideWithoutCheckoutSql`, docs/decisions/140, 159),
 * reading no guest inside; one with a checkout: its check-ins entered since, counted (grows with
 * them). `key.checkout` as SQL may be null row by row: the form is then chosen in SQL.
 */
function listInsideSql(key: { eventId: string | SQL; checkInListId: string | SQL; day: number | SQL; checkout: Date | SQL | null }): SQL {
  const counters = insideWithoutCheckoutSql(key.eventId, key.day, key.checkInListId);
  if (key.checkout === null) return counters;
  const counted = sql`(select count(*) from ${checkIns}
        where ${checkIns.eventId} = ${key.eventId} and ${checkIns.checkInListId} = ${key.checkInListId} and ${checkIns.day} = ${key.day}
          and ${isInsideSince(key.checkout)})`;
  return key.checkout instanceof Date ? counted : sql`(case when ${key.checkout} is null then ${counters} else ${counted} end)`;
}

/**
 * Guests inside now through list `key.checkInListId` on `key.day` (`listInsideSql`: since its last
 * daily checkout `key.checkout`), in one statement on `tx` (its snapshot, with `tx`'s own writes: the
 * counters' triggers run at the end of each statement).
 */
export async function countInside(tx: DbOrTx, key: PlaceKey): Promise<number> {
  const [row] = await tx.select({ value: sql<number>`${listInsideSql(key)}`.mapWith(Number) }).from(sql`(select) as one`);
  return row?.value ?? 0;
}

/**
 * Makes the place rows of a list match its `capacity` (null: none), on `tx` (a list's create or
 * edit): slots 1..capacity, and the guests inside now hold the first places (newest day first), so
 * a capacity set while the doors are open counts those already in.
 */
export async function syncPlaces(tx: DbOrTx, list: { eventId: string; checkInListId: string; capacity: number | null }, now: Date): Promise<void> {
  await tx.delete(checkInListSlots).where(and(eq(checkInListSlots.eventId, list.eventId), eq(checkInListSlots.checkInListId, list.checkInListId)));
  if (list.capacity === null) return;
  await tx.execute(sql`
    insert into ${checkInListSlots} (event_id, check_in_list_id, slot, check_in_id, day, held_since)
    select ${list.eventId}::uuid, ${list.checkInListId}::uuid, slots.slot, inside.id, inside.day, inside.entered
    from generate_series(1, ${list.capacity}::integer) as slots(slot)
    left join (
      select ${checkIns.id} as id, ${checkIns.day} as day, coalesce(${checkIns.lastEnteredAt}, ${checkIns.checkedInAt}) as entered,
        row_number() over (order by ${checkIns.day} desc, coalesce(${checkIns.lastEnteredAt}, ${checkIns.checkedInAt})) as place
      from ${checkIns} join ${checkInLists} on ${checkInLists.eventId} = ${checkIns.eventId} and ${checkInLists.id} = ${checkIns.checkInListId}
      join ${events} on ${events.id} = ${checkIns.eventId}
      where ${checkIns.eventId} = ${list.eventId} and ${checkIns.checkInListId} = ${list.checkInListId} and ${insideNowSql(now)}
    ) inside on inside.place = slots.slot`);
}
