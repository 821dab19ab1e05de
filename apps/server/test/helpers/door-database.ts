/**
 * A database ready for a door of scans from outside the process (server-process tests, the verify
 * benchmark): the demo data, fresh tickets of the demo's live event that admit every day, and a
 * session of the demo user to send as a bearer token.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { checkIns, tickets, users } from '../../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER, seedDemoData } from '../../src/db/seed.ts';
import { createCheckInList } from '../../src/services/check-in-lists.ts';
import { findEvent } from '../../src/services/events.ts';
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
}

/** Rows per INSERT, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1_000;

/**
 * Seeds the demo data into the database `open` opens, adds one ticket per code of `codes` (holder
 * "Holder <code>"), checks the tickets of `options.checkedInCodes` (a subset of `codes`) in on the
 * demo's today (DEMO_TODAY_DAY_NUMBER) as the demo user, creates a session, ANALYZEs, and closes
 * the database again.
 */
export async function prepareDoorDatabase(
  open: () => Promise<DatabaseHandle>,
  codes: readonly string[],
  options: { checkedInCodes?: readonly string[]; capacity?: number } = {},
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
        : await createCheckInList(handle.db, await findEvent(handle.db, liveEventId), { name: 'Capacity door', ticketTypes: null, days: null, capacity: options.capacity });
    const { token } = await createSession(handle.db, demoUser.id, 3_600_000);
    // Statistics of the loaded tables, as autovacuum (PostgreSQL) or the server's start (PGlite,
    // decision 072) would take them: a run that starts right after loading is not measured on plans
    // made for empty tables while autovacuum catches up.
    await handle.db.execute(sql`analyze`);
    return { token, eventId: liveEventId, userId: demoUser.id, ...(capacityList ? { capacityListId: capacityList.id } : {}) };
  } finally {
    await handle.close();
  }
}
