/**
 * A database ready for a door of scans from outside the process (server-process tests, the verify
 * benchmark): the demo data, fresh tickets of the demo's live event that admit every day, and a
 * session of the demo user to send as a bearer token.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { checkIns, tickets, users } from '../../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER, seedDemoData } from '../../src/db/seed.ts';
import { cliActor } from '../../src/services/audit.ts';
import { createCheckInList } from '../../src/services/check-in-lists.ts';
import { createEvent, findEvent } from '../../src/services/events.ts';
import { createSession } from '../../src/services/sessions.ts';
import { demoIds, firstCheckInListId } from './fixtures.ts';

/** What a client needs to scan the prepared tickets. */
export interface DoorSetup {
  /** Bearer token of the demo user (valid for an hour). */
  token: string;
  /** The demo's live event, which the tickets belong to. */
  eventId: string;
  /** The demo user's id (the session's user). */
  userId: string;
  /** A check-in list of every ticket with a capacity (`options.capacity`), when one was asked for (docs/decisions/111). */
  capacityListId?: string;
  /**
   * Live events with a capacity (`options.venues`, docs/decisions/147), their days the demo
   * event's, one per venue asked for, in that order.
   */
  venueEventIds?: string[];
}

/** Rows per INSERT, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1_000;

/**
 * Seeds the demo data into the database `open` opens, adds one ticket per code of `codes` (holder
 * "Holder <code>"), checks the tickets of `options.checkedInCodes` (a subset of `codes`) in on the
 * demo's today (DEMO_TODAY_DAY_NUMBER) as the demo user, creates a session, ANALYZEs, and closes
 * the database again. `options.capacity`: also a check-in list of every ticket with that capacity
 * at the demo's event; `options.venues`: also, per venue, a live event with its capacity and the
 * demo event's days and calendar, holding one ticket per code of its `codes`.
 */
export async function prepareDoorDatabase(
  open: () => Promise<DatabaseHandle>,
  codes: readonly string[],
  options: { checkedInCodes?: readonly string[]; capacity?: number; venues?: readonly { capacity: number; codes: readonly string[] }[] } = {},
): Promise<DoorSetup> {
  const handle = await open();
  try {
    await seedDemoData(handle.db);
    const { liveEventId } = await demoIds(handle.db);
    for (let start = 0; start < codes.length; start += INSERT_BATCH) {
      await handle.db
        .insert(tickets)
        .values(codes.slice(start, start + INSERT_BATCH).map((code) => ({ code, eventId: liveEventId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
    }
    const [demoUser] = await handle.db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_USER.username));
    if (!demoUser) throw new Error('demo user missing');
    const checkedIn = options.checkedInCodes ?? [];
    for (let start = 0; start < checkedIn.length; start += INSERT_BATCH) {
      const batch = await handle.db
        .select({ id: tickets.id, eventId: tickets.eventId })
        .from(tickets)
        .where(inArray(tickets.code, checkedIn.slice(start, start + INSERT_BATCH)));
      const checkInListId = await firstCheckInListId(handle.db, liveEventId);
      await handle.db.insert(checkIns).values(batch.map((ticket) => ({ eventId: ticket.eventId, ticketId: ticket.id, day: DEMO_TODAY_DAY_NUMBER, checkInListId, staffUserId: demoUser.id })));
    }
    const capacityList =
      options.capacity === undefined
        ? undefined
        : await createCheckInList(handle.db, await findEvent(handle.db, liveEventId), { name: 'Capacity door', ticketTypes: null, days: null, capacity: options.capacity }, cliActor());
    const venueEventIds: string[] = [];
    for (const venue of options.venues ?? []) venueEventIds.push(await createVenue(handle, liveEventId, venue));
    const { token } = await createSession(handle.db, demoUser.id, 3_600_000);
    // Statistics of the loaded tables, as autovacuum (PostgreSQL) or the server's start (PGlite,
    // decision 072) would take them: a run that starts right after loading is not measured on plans
    // made for empty tables while autovacuum catches up.
    await handle.db.execute(sql`analyze`);
    return { token, eventId: liveEventId, userId: demoUser.id, ...(capacityList ? { capacityListId: capacityList.id } : {}), ...(options.venues ? { venueEventIds } : {}) };
  } finally {
    await handle.close();
  }
}

/** A live event like the demo's `liveEventId` (calendar and days) with `venue.capacity` places and one ticket per code of `venue.codes`. */
async function createVenue(handle: DatabaseHandle, liveEventId: string, venue: { capacity: number; codes: readonly string[] }): Promise<string> {
  const live = await findEvent(handle.db, liveEventId);
  const eventId = await createEvent(
    handle.db,
    {
      organizationId: live.organizationId,
      title: 'Venue with a capacity',
      description: '',
      date: live.date,
      location: '',
      status: 'live',
      timeZone: live.timeZone,
      dayCutoff: live.dayCutoff.slice(0, 5),
      allowsScanningOutsideDays: live.allowsScanningOutsideDays,
      capacity: venue.capacity,
      days: live.days.map(({ day, name, date }) => ({ day, name: name || `Day ${day}`, date })),
    },
    cliActor(),
  );
  for (let start = 0; start < venue.codes.length; start += INSERT_BATCH) {
    await handle.db.insert(tickets).values(venue.codes.slice(start, start + INSERT_BATCH).map((code) => ({ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
  }
  return eventId;
}
