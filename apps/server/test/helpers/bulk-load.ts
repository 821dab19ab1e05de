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
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { checkIns, events, memberships, organizations, tickets, ticketSearchTerms, users } from '../../src/db/schema.ts';
import { createSession } from '../../src/services/sessions.ts';
import { searchTermsOf } from '../../src/services/attendee-search.ts';

/** Tickets per INSERT ... SELECT statement (one transaction each). */
const CHUNK = 100_000;

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
 * Loads `count` tickets (General Admission, every day) into `eventId`, then their search terms
 * (the code, the full name, the surname; lower case). `onProgress(loaded)` after each chunk.
 */
export async function bulkLoadTickets(
  handle: DatabaseHandle,
  load: { eventId: string; prefix: string; count: number; names: BenchNames; onProgress?: (loaded: number) => void },
): Promise<void> {
  const { eventId, prefix, count, names } = load;
  const firsts = sql`array[${sql.join(names.firstNames.map((name) => sql`${name}`), sql`, `)}]::text[]`;
  const lasts = sql`array[${sql.join(names.lastNames.map((name) => sql`${name}`), sql`, `)}]::text[]`;
  for (let start = 1; start <= count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK - 1);
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into ${tickets} (code, event_id, holder_name, ticket_type)
        select ${prefix} || '-' || lpad(i::text, 8, '0') || '-' || substr(md5(i::text), 1, 6), ${eventId}::uuid,
               (${firsts})[1 + ((i::bigint * 7919) % ${names.firstNames.length})::int] || ' ' || (${lasts})[1 + ((i::bigint * 104729) % ${names.lastNames.length})::int],
               'General Admission'
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
 * Checks in every `every`-th ticket of `eventId` (by its number n: n % every = 0) on `day`, by
 * `staffUserId`, at times spread over the last hour; one INSERT ... SELECT.
 * @returns how many check-ins were written.
 */
export async function bulkLoadCheckIns(handle: DatabaseHandle, load: { eventId: string; day: number; staffUserId: string; every: number }): Promise<number> {
  // check_ins gains an event_id (the verify rework of issue 13): fill it when the schema has it.
  const eventIdColumn = 'eventId' in getTableColumns(checkIns) ? sql`, event_id` : sql``;
  // And a check-in list (docs/decisions/100): the event's first.
  const hasLists = 'checkInListId' in getTableColumns(checkIns);
  const listColumn = hasLists ? sql`, check_in_list_id` : sql``;
  const listValue = hasLists
    ? sql`, (select l.id from check_in_lists l where l.event_id = ${load.eventId}::uuid order by l.position, l.created_at, l.id limit 1)`
    : sql``;
  const result = await handle.db.execute(sql`
    insert into ${checkIns} (ticket_id, day, staff_user_id, checked_in_at${eventIdColumn}${listColumn})
    select id, ${load.day}::int, ${load.staffUserId}::uuid, now() - (random() * interval '1 hour')${eventIdColumn}${listValue}
    from ${tickets}
    where event_id = ${load.eventId}::uuid and split_part(code, '-', 2)::int % ${load.every}::int = 0`);
  return (result as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as { affectedRows?: number }).affectedRows ?? 0;
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
