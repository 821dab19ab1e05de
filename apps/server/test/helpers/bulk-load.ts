/**
 * Bulk-loading a large event for the benchmarks (`bench:search`, `bench:scale`): tickets, their
 * attendee-search terms and check-ins, written set-wise by the database (INSERT ... SELECT over
 * generate_series, in chunks of 100,000 rows), never row by row from Node. Works on PGlite and
 * PostgreSQL alike.
 *
 * Ticket n (from 1) of a load with prefix P gets the code `P-<n as 8 digits>-<first 6 hex of
 * md5(n)>` (`benchTicketCode` computes it in Node, to scan a chosen ticket) and the holder name
 * `<first> <last>` from `benchNames` (ASCII, two words: the terms SQL writes here equal
 * `searchTermsOf`'s, which `checkTermsMatchTheServer` checks on a sample).
 */
import { createHash } from 'node:crypto';
import { faker } from '@faker-js/faker/locale/en_GB';
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { DatabaseHandle, Db } from '../../src/db/client.ts';
import { checkInLists, checkIns, eventDays, events, memberships, organizations, scanLog, tickets, ticketSearchTerms, ticketTypes, users } from '../../src/db/schema.ts';
import { createSession } from '../../src/services/sessions.ts';
import { searchTermsOf } from '../../src/services/attendee-search.ts';

/** Tickets per INSERT ... SELECT statement (one transaction each). */
const CHUNK = 100_000;

/**
 * Where a bulk load writes: a `DatabaseHandle`, or any Drizzle database over one connection (the
 * benchmarks load PostgreSQL through a connection of their own, without the server pool's read
 * timeout, which a statement writing 100,000s of rows may outlast on a busy machine).
 */
export interface BulkTarget {
  db: Db;
}

/** First and last names to combine into holder names (ASCII letters only). */
export interface BenchNames {
  firstNames: string[];
  lastNames: string[];
}

/** Up to 400 first and 2,000 last names from faker (en_GB, seeded: the same every run), with "Smith". */
export function benchNames(seed = 11): BenchNames {
  faker.seed(seed);
  const firstNames = [...new Set(Array.from({ length: 400 }, () => faker.person.firstName()))].filter((name) => /^[A-Za-z]+$/.test(name));
  const lastNames = [...new Set(Array.from({ length: 2_000 }, () => faker.person.lastName()))].filter((name) => /^[A-Za-z]+$/.test(name));
  if (!lastNames.includes('Smith')) lastNames.push('Smith');
  return { firstNames, lastNames };
}

/** The code `bulkLoadTickets` gives ticket `n` (from 1) of a load with `prefix`. */
export function benchTicketCode(prefix: string, n: number): string {
  return `${prefix}-${String(n).padStart(8, '0')}-${createHash('md5').update(String(n)).digest('hex').slice(0, 6)}`;
}

/**
 * Tickets numbered `from`..`to` of a load with `prefix` (by their codes, whose zero-padded numbers
 * sort as numbers), read through the unique index on upper(code): a bulk write in slices, so that
 * no statement hands the check-in triggers 100,000s of rows at once (their set-wise path is meant
 * for a batch of scans or an offline upload, docs/performance.md).
 */
export interface BenchTicketRange {
  prefix: string;
  from: number;
  to: number;
}

function inRange(range: BenchTicketRange | undefined, code: SQL = sql`code`): SQL {
  if (!range) return sql`true`;
  const bound = (n: number) => `${range.prefix}-${String(n).padStart(8, '0')}`.toUpperCase();
  return sql`upper(${code}) >= ${bound(range.from)} and upper(${code}) < ${bound(range.to + 1)}`;
}

/** A ticket type of a bulk load and the share of its tickets, in percent (the shares add up to 100). */
export interface BenchTicketType {
  name: string;
  percent: number;
}

/**
 * Loads `count` tickets (every day) into `eventId`, then their search terms (the code, the full
 * name, the surname; lower case). Every ticket is General Admission unless `ticketTypes` are given:
 * then ticket n gets the type whose percent band holds (n * 37) mod 100, and each type gets its
 * `ticket_types` row. `onProgress(loaded)` after each chunk.
 */
export async function bulkLoadTickets(
  handle: BulkTarget,
  load: { eventId: string; prefix: string; count: number; names: BenchNames; ticketTypes?: readonly BenchTicketType[]; onProgress?: (loaded: number) => void },
): Promise<void> {
  const { eventId, prefix, count, names } = load;
  const firsts = sql`array[${sql.join(names.firstNames.map((name) => sql`${name}`), sql`, `)}]::text[]`;
  const lasts = sql`array[${sql.join(names.lastNames.map((name) => sql`${name}`), sql`, `)}]::text[]`;
  const types = load.ticketTypes ?? [{ name: 'General Admission', percent: 100 }];
  if (types.reduce((total, type) => total + type.percent, 0) !== 100) throw new Error('the ticket types\' percents must add up to 100');
  let bandEnd = 0;
  const typeOf = sql`case ${sql.join(
    types.map((type) => {
      bandEnd += type.percent;
      return sql`when (i::bigint * 37) % 100 < ${bandEnd}::int then ${type.name}::text`;
    }),
    sql` `,
  )} end`;
  if (load.ticketTypes) {
    await handle.db
      .insert(ticketTypes)
      .values(types.map((type) => ({ eventId, name: type.name })))
      .onConflictDoNothing();
  }
  for (let start = 1; start <= count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK - 1);
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into ${tickets} (code, event_id, holder_name, ticket_type)
        select ${prefix} || '-' || lpad(i::text, 8, '0') || '-' || substr(md5(i::text), 1, 6), ${eventId}::uuid,
               (${firsts})[1 + ((i::bigint * 7919) % ${names.firstNames.length})::int] || ' ' || (${lasts})[1 + ((i::bigint * 104729) % ${names.lastNames.length})::int],
               ${typeOf}
        from generate_series(${start}::int, ${end}::int) as i`);
    });
    load.onProgress?.(end);
  }
  await handle.db.execute(sql`
    insert into ${ticketSearchTerms} (ticket_id, event_id, term)
    select id, event_id, lower(code) from ${tickets} where event_id = ${eventId}::uuid
    union all select id, event_id, lower(holder_name) from ${tickets} where event_id = ${eventId}::uuid
    union all select id, event_id, lower(split_part(holder_name, ' ', 2)) from ${tickets} where event_id = ${eventId}::uuid`);
}

/**
 * Checks in every `every`-th ticket of `eventId` (by its number n: n % every = 0, or n % every in
 * `remainders`; of the tickets in `range` only, if given) on `day`, by `staffUserId`, at the
 * event's first check-in list or at `listId`; one INSERT ... SELECT. Times: spread over the last hour, or with `at`, over `hours` from `from`
 * (front-loaded, as a queue at doors opening: from + hours * r², r uniform in [0, 1)).
 * @returns how many check-ins were written.
 */
export async function bulkLoadCheckIns(
  handle: BulkTarget,
  load: {
    eventId: string;
    day: number;
    staffUserId: string;
    every: number;
    remainders?: readonly number[];
    listId?: string;
    at?: { from: Date; hours: number };
    range?: BenchTicketRange;
  },
): Promise<number> {
  // check_ins gains an event_id (the verify rework of issue 13): fill it when the schema has it.
  const eventIdColumn = 'eventId' in getTableColumns(checkIns) ? sql`, event_id` : sql``;
  // And a check-in list (docs/decisions/100): the event's first.
  const hasLists = 'checkInListId' in getTableColumns(checkIns);
  const listColumn = hasLists ? sql`, check_in_list_id` : sql``;
  const listValue = !hasLists
    ? sql``
    : load.listId
      ? sql`, ${load.listId}::uuid`
      : sql`, (select l.id from check_in_lists l where l.event_id = ${load.eventId}::uuid order by l.position, l.created_at, l.id limit 1)`;
  const time = load.at
    ? sql`${load.at.from.toISOString()}::timestamptz + (power(random(), 2) * ${load.at.hours}::float8 * interval '1 hour')`
    : sql`now() - (random() * interval '1 hour')`;
  const remainders = load.remainders ?? [0];
  const result = await handle.db.execute(sql`
    insert into ${checkIns} (ticket_id, day, staff_user_id, checked_in_at${eventIdColumn}${listColumn})
    select id, ${load.day}::int, ${load.staffUserId}::uuid, ${time}${eventIdColumn}${listValue}
    from ${tickets}
    where event_id = ${load.eventId}::uuid and ${inRange(load.range)}
      and split_part(code, '-', 2)::int % ${load.every}::int in (${sql.join(remainders.map((remainder) => sql`${remainder}::int`), sql`, `)})`);
  return (result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;
}

/**
 * Marks check-ins of `eventId` on `day` at `listId` as undone (by `byUserId`) or as exited (at
 * their entry time plus 1 to 90 minutes; a list with re-entry) for the tickets numbered n with
 * n % every = remainder (in `range`, if given); one UPDATE, through the triggers like the server's own.
 * @returns how many check-ins changed.
 */
export async function bulkMarkCheckIns(
  handle: BulkTarget,
  mark: { eventId: string; day: number; listId: string; every: number; remainder: number; as: 'undone' | 'exited'; byUserId: string; range?: BenchTicketRange },
): Promise<number> {
  const change =
    mark.as === 'undone'
      ? sql`undone_at = c.checked_in_at + interval '2 minutes', undone_by = ${mark.byUserId}::uuid, undo_reason = 'bench'`
      : sql`exited_at = c.checked_in_at + (1 + random() * 89) * interval '1 minute', exited_by = ${mark.byUserId}::uuid`;
  const result = await handle.db.execute(sql`
    update ${checkIns} c set ${change}
    from ${tickets} t
    where c.event_id = ${mark.eventId}::uuid and c.day = ${mark.day}::int and c.check_in_list_id = ${mark.listId}::uuid and c.undone_at is null
      and t.id = c.ticket_id and ${inRange(mark.range, sql`t.code`)} and split_part(t.code, '-', 2)::int % ${mark.every}::int = ${mark.remainder}::int`);
  return (result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;
}

/**
 * Writes the scan log the check-ins of `eventId` would have left: an `approved` row per check-in
 * (at its time, list and staff member), and for the check-ins of tickets numbered n with
 * n % deniedEvery = 3 a denial 3 minutes later: `not_found` (a code of another event) when
 * n % 4 = 0, else `already_checked_in` (a guest scanned twice). Two INSERT ... SELECT.
 * @returns how many rows were written.
 */
export async function bulkLoadScanLog(handle: BulkTarget, load: { eventId: string; deniedEvery: number }): Promise<number> {
  const approved = await handle.db.execute(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, scanned_at, check_in_list_id)
    select c.staff_user_id, c.event_id, c.day, t.code, 'approved', c.checked_in_at, c.check_in_list_id
    from ${checkIns} c join ${tickets} t on t.id = c.ticket_id
    where c.event_id = ${load.eventId}::uuid`);
  const denied = await handle.db.execute(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, scanned_at, check_in_list_id)
    select c.staff_user_id, c.event_id, c.day, case when number.n % 4 = 0 then 'NO-SUCH-' || number.n else t.code end, 'denied',
           case when number.n % 4 = 0 then 'not_found' else 'already_checked_in' end, c.checked_in_at + interval '3 minutes', c.check_in_list_id
    from ${checkIns} c join ${tickets} t on t.id = c.ticket_id, lateral (select split_part(t.code, '-', 2)::int as n) as number
    where c.event_id = ${load.eventId}::uuid and number.n % ${load.deniedEvery}::int = 3`);
  const rowsOf = (result: unknown) => (result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;
  return rowsOf(approved) + rowsOf(denied);
}

/**
 * Gives `eventId` days 1..`days` (event_days rows, a day apart from `firstDate`, which becomes the
 * event's date).
 * @returns the days' dates (YYYY-MM-DD), day 1 first.
 */
export async function addBenchEventDays(handle: BulkTarget, eventId: string, days: number, firstDate: Date): Promise<string[]> {
  const dates = Array.from({ length: days }, (_, index) => new Date(firstDate.getTime() + index * 86_400_000).toISOString().slice(0, 10));
  await handle.db.insert(eventDays).values(dates.map((date, index) => ({ eventId, day: index + 1, name: `Day ${index + 1}`, date })));
  await handle.db.update(events).set({ date: dates[0] ?? '' }).where(eq(events.id, eventId));
  return dates;
}

/**
 * Adds check-in lists named `names` (every type, every day; `reentry`: with exits and re-entry)
 * after `eventId`'s existing ones.
 * @returns their ids, in the order of `names`.
 */
export async function addBenchCheckInLists(handle: BulkTarget, eventId: string, lists: ReadonlyArray<{ name: string; reentry?: boolean }>): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, list] of lists.entries()) {
    const [row] = await handle.db
      .insert(checkInLists)
      .values({ eventId, name: list.name, position: 100 + index, allowsReentry: list.reentry ?? false })
      .returning({ id: checkInLists.id });
    if (!row) throw new Error(`could not add the check-in list ${list.name}`);
    ids.push(row.id);
  }
  return ids;
}

/** The loaded terms of 200 random tickets equal what the server writes for them (`searchTermsOf`). @throws otherwise. */
export async function checkTermsMatchTheServer(handle: DatabaseHandle): Promise<void> {
  const sampleRows = await handle.db.select().from(tickets).orderBy(sql`random()`).limit(200);
  for (const ticket of sampleRows) {
    const stored = await handle.db.select({ term: ticketSearchTerms.term }).from(ticketSearchTerms).where(eq(ticketSearchTerms.ticketId, ticket.id));
    const expected = searchTermsOf(ticket).sort();
    const actual = stored.map((row) => row.term).sort();
    if (JSON.stringify(expected) !== JSON.stringify(actual)) throw new Error(`bench terms differ from the server's for ${ticket.holderName}: ${actual} vs ${expected}`);
  }
}

/** An organization with one admin (`Bench Admin`, no usable password) and a bearer token for them. */
export interface BenchOrganization {
  organizationId: string;
  adminUserId: string;
  /** A session token of the admin, valid for a day. */
  token: string;
}

/** Creates a BenchOrganization named `name`. */
export async function createBenchOrganization(handle: DatabaseHandle, name = 'Bench Org'): Promise<BenchOrganization> {
  const [organization] = await handle.db.insert(organizations).values({ name }).returning({ id: organizations.id });
  const suffix = Math.random().toString(36).slice(2, 10);
  const [admin] = await handle.db
    .insert(users)
    .values({ displayName: 'Bench Admin', username: `bench-${suffix}`, email: `bench-${suffix}@example.com`, passwordHash: 'no-password' })
    .returning({ id: users.id });
  if (!organization || !admin) throw new Error('could not create the bench organization');
  await handle.db.insert(memberships).values({ userId: admin.id, organizationId: organization.id, role: 'admin' });
  const { token } = await createSession(handle.db, admin.id, 86_400_000);
  return { organizationId: organization.id, adminUserId: admin.id, token };
}

/**
 * A live one-day event of `organizationId` titled `title`, dated today, that admits scans on any
 * date (`allowsScanningOutsideDays`), so a benchmark's day 1 scans are decided the same whenever it runs.
 * @returns its id.
 */
export async function createBenchEvent(handle: DatabaseHandle, organizationId: string, title: string): Promise<string> {
  const [event] = await handle.db
    .insert(events)
    .values({ organizationId, title, date: new Date().toISOString().slice(0, 10), status: 'live', allowsScanningOutsideDays: true })
    .returning({ id: events.id });
  if (!event) throw new Error('could not create the bench event');
  return event.id;
}
