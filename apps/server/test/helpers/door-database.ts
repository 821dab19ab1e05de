/**
 * A database ready for a door of scans from outside the process (server-process tests, the verify
 * benchmark): the demo data, fresh tickets of the demo's live event that admit every day, and a
 * session of the demo user to send as a bearer token.
 */
import { eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { tickets, users } from '../../src/db/schema.ts';
import { DEMO_USER, seedDemoData } from '../../src/db/seed.ts';
import { createSession } from '../../src/services/sessions.ts';
import { demoIds } from './fixtures.ts';

/** What a client needs to scan the prepared tickets. */
export interface DoorSetup {
  /** Bearer token of the demo user (valid for an hour). */
  token: string;
  /** The demo's live event, which the tickets belong to. */
  eventId: string;
}

/** Rows per INSERT, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 1_000;

/**
 * Seeds the demo data into the database `open` opens, adds one ticket per code of `codes` (holder
 * "Holder <code>"), creates a session, and closes the database again.
 */
export async function prepareDoorDatabase(open: () => Promise<DatabaseHandle>, codes: readonly string[]): Promise<DoorSetup> {
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
    const { token } = await createSession(handle.db, demoUser.id, 3_600_000);
    return { token, eventId: liveEventId };
  } finally {
    await handle.close();
  }
}
