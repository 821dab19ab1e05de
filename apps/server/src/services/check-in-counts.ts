/**
 * Live counts of one event day (issue 10 item 4, docs/decisions/033): how many tickets were checked in
 * that day and how many tickets admit it. Read-only, one SQL query; the same membership rule as
 * verify (services/check-in.ts), without writing the scan log (a count is not a scan).
 */
import type { CheckInCounts } from '@gatecheck/contract';
import { and, arrayContains, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { checkIns, tickets } from '../db/schema.ts';
import { ServiceError } from './errors.ts';
import { findEvent } from './events.ts';
import { isMember } from './organizations.ts';

/**
 * The counts of day `day` of event `eventId` for the signed-in `userId`:
 * `checkedIn` = check-ins of that day of the event's tickets that were not undone (at most one
 * active per ticket and day, so a re-scan or a denied scan never adds one; a check-in stays counted
 * if its ticket is revoked later; an undo by a supervisor takes it away), `validTickets` = the event's tickets not revoked that admit the day
 * (`admitted_days` null = every day, else it lists the day), 0 for a day the event does not have
 * (verify denies every ticket on it with `not_valid_today`).
 *
 * @throws ServiceError `not_found` for an unknown event (or an id that is not a UUID), `forbidden`
 *   when `userId` is not a member of the event's organization — the same answers as verify.
 */
export async function countCheckIns(db: DbOrTx, userId: string, eventId: string, day: number): Promise<CheckInCounts> {
  const event = await findEvent(db, eventId);
  if (!(await isMember(db, userId, event.organizationId))) throw new ServiceError('forbidden', 'You are not a member of this organization');
  const hasDay = event.days.some((entry) => entry.day === day);
  const admitsDay = and(isNull(tickets.revokedAt), or(isNull(tickets.admittedDays), arrayContains(tickets.admittedDays, [day])));
  const [row] = await db
    .select({
      // Each ticket joins at most one active check-in of the day (the partial unique index on
      // (ticket_id, day) where undone_at is null); an undone check-in (issue 11) does not count.
      checkedIn: count(checkIns.id),
      validTickets: count(sql`case when ${admitsDay} then 1 end`),
    })
    .from(tickets)
    .leftJoin(checkIns, and(eq(checkIns.ticketId, tickets.id), eq(checkIns.day, day), isNull(checkIns.undoneAt)))
    .where(eq(tickets.eventId, event.id));
  return {
    eventId: event.id,
    day,
    checkedIn: row?.checkedIn ?? 0,
    validTickets: hasDay ? (row?.validTickets ?? 0) : 0,
  };
}
