/**
 * Database fixtures beyond the demo seed: an outsider (a user who belongs only to another
 * organization) and look-ups of the demo ids. They use the real services and schema.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { events, memberships, organizations, users } from '../../src/db/schema.ts';
import { listCheckInLists } from '../../src/services/check-in-lists.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_ORGANIZATION_NAME, DEMO_SINGLE_DAY_EVENT_TITLE, type DemoTicket } from '../../src/db/seed.ts';
import { insertTickets } from '../../src/services/tickets.ts';
import { createUser } from '../../src/services/users.ts';

/** The outsider's credentials. */
export const OUTSIDER = { email: 'outsider@example.org', username: 'outsider', password: 'outsider-pass' } as const;

/**
 * Creates the outsider: the admin of "Other Org", which has one live event with one ticket.
 * @returns the ids and the ticket code.
 */
export async function createOutsider(db: Db) {
  const userId = await createUser(db, { ...OUTSIDER, displayName: 'Olive Outsider', country: 'IE' });
  const [organization] = await db.insert(organizations).values({ name: 'Other Org' }).returning();
  if (!organization) throw new Error('no organization');
  await db.insert(memberships).values({ userId, organizationId: organization.id, role: 'admin' });
  const [event] = await db
    .insert(events)
    .values({ organizationId: organization.id, title: 'Other Event', date: '2026-11-21', status: 'live' })
    .returning();
  if (!event) throw new Error('no event');
  const code = 'OTHER-TICKET-1';
  const [ticket] = await insertTickets(db, [{ code, eventId: event.id, holderName: 'Otto Other', ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  return { userId, organizationId: organization.id, eventId: event.id, ticketCode: code, ticketId: ticket.id };
}

/**
 * The id of event `eventId`'s first check-in list (its 'All tickets' list unless changed).
 * @throws Error when it has none.
 */
export async function firstCheckInListId(db: Db, eventId: string): Promise<string> {
  const [first] = await listCheckInLists(db, eventId);
  if (!first) throw new Error(`event ${eventId} has no check-in list`);
  return first.id;
}

/**
 * The id of the user with `username` (e.g. a demo user's).
 * @throws Error when there is none.
 */
export async function userIdOf(db: Db, username: string): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no user ${username}`);
  return user.id;
}

/** Ids of the demo organization and its live and single-day events. */
export async function demoIds(db: Db) {
  const [organization] = await db.select().from(organizations).where(eq(organizations.name, DEMO_ORGANIZATION_NAME));
  const [live] = await db.select().from(events).where(eq(events.title, DEMO_LIVE_EVENT_TITLE));
  const [single] = await db.select().from(events).where(eq(events.title, DEMO_SINGLE_DAY_EVENT_TITLE));
  if (!organization || !live || !single) throw new Error('demo data missing');
  return { organizationId: organization.id, liveEventId: live.id, singleDayEventId: single.id };
}

/**
 * Hands out distinct demo tickets matching `predicate`, so tests sharing one seeded database never
 * scan the same ticket.
 */
export function ticketPicker(list: DemoTicket[]) {
  const used = new Set<string>();
  return (predicate: (ticket: DemoTicket) => boolean): DemoTicket => {
    const ticket = list.find((candidate) => !used.has(candidate.code) && predicate(candidate));
    if (!ticket) throw new Error('no unused demo ticket matches');
    used.add(ticket.code);
    return ticket;
  };
}
