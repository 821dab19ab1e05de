/**
 * Administration rules behind the admin CLI (issue 4): accounts, organizations, memberships, events
 * with their days, revoking tickets and counting check-ins. No CLI or HTTP types in here; failures
 * the operator can fix throw ServiceError (`not_found`, `conflict`, `bad_request`).
 */
import type { EventStatus, MembershipRole } from '@gatecheck/contract';
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkIns, eventDays, events, memberships, organizations, tickets, users } from '../db/schema.ts';
import { isId, ServiceError } from './errors.ts';
import { type EventDayInfo, type EventDetails, findEvent } from './events.ts';
import { ticketCodeMatches } from './ticket-codes.ts';
import { createUser, findUserByIdentifier, type NewUser } from './users.ts';

/**
 * Creates an account (argon2id hash through services/users).
 * @returns the new user's id.
 * @throws ServiceError `conflict` naming the email or username already taken (case-insensitive).
 */
export async function createAccount(db: DbOrTx, user: NewUser): Promise<string> {
  const taken = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(
      or(
        eq(sql`lower(${users.email})`, user.email.toLowerCase()),
        eq(sql`lower(${users.username})`, user.username.toLowerCase()),
      ),
    );
  if (taken.some((row) => row.email.toLowerCase() === user.email.toLowerCase())) {
    throw new ServiceError('conflict', `A user with email ${user.email} already exists`);
  }
  if (taken.length > 0) throw new ServiceError('conflict', `A user with username ${user.username} already exists`);
  return createUser(db, user);
}

/** A user found by email or username. */
export interface FoundUser {
  id: string;
  email: string;
  username: string;
  displayName: string;
}

/**
 * The user whose email or username is `identifier` (case-insensitive).
 * @throws ServiceError `not_found`.
 */
export async function findUser(db: DbOrTx, identifier: string): Promise<FoundUser> {
  const match = await findUserByIdentifier(db, identifier);
  const [user] = match
    ? await db
        .select({ id: users.id, email: users.email, username: users.username, displayName: users.displayName })
        .from(users)
        .where(eq(users.id, match.id))
    : [];
  if (!user) throw new ServiceError('not_found', `No user with email or username "${identifier}"`);
  return user;
}

/**
 * Creates an organization. Names are unique case-insensitively here, so that an organization can be
 * named instead of given by id in the other commands.
 * @returns the new organization's id.
 * @throws ServiceError `conflict` when the name is taken.
 */
export async function createOrganization(db: DbOrTx, input: { name: string; description?: string }): Promise<string> {
  const [existing] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(sql`lower(${organizations.name})`, input.name.toLowerCase()))
    .limit(1);
  if (existing) throw new ServiceError('conflict', `An organization named "${input.name}" already exists (id ${existing.id})`);
  const [row] = await db
    .insert(organizations)
    .values({ name: input.name, description: input.description ?? '' })
    .returning({ id: organizations.id });
  if (!row) throw new Error('insert into organizations returned no row');
  return row.id;
}

/** An organization as listed by the CLI. */
export interface OrganizationSummary {
  id: string;
  name: string;
  description: string;
  members: number;
  events: number;
}

/** Every organization by name, with its member and event counts. */
export async function listOrganizations(db: DbOrTx): Promise<OrganizationSummary[]> {
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, description: organizations.description })
    .from(organizations)
    .orderBy(asc(organizations.name), asc(organizations.id));
  const members = await db
    .select({ organizationId: memberships.organizationId, value: count() })
    .from(memberships)
    .groupBy(memberships.organizationId);
  const eventCounts = await db
    .select({ organizationId: events.organizationId, value: count() })
    .from(events)
    .groupBy(events.organizationId);
  return rows.map((row) => ({
    ...row,
    members: members.find((entry) => entry.organizationId === row.id)?.value ?? 0,
    events: eventCounts.find((entry) => entry.organizationId === row.id)?.value ?? 0,
  }));
}

/**
 * The organization with id `idOrName`, or else the one named `idOrName` (case-insensitive).
 * @throws ServiceError `not_found`, or `conflict` when several organizations have that name.
 */
export async function findOrganization(db: DbOrTx, idOrName: string): Promise<{ id: string; name: string }> {
  const columns = { id: organizations.id, name: organizations.name };
  if (isId(idOrName)) {
    const [byId] = await db.select(columns).from(organizations).where(eq(organizations.id, idOrName));
    if (byId) return byId;
  }
  const byName = await db
    .select(columns)
    .from(organizations)
    .where(eq(sql`lower(${organizations.name})`, idOrName.toLowerCase()))
    .limit(2);
  if (byName.length > 1) throw new ServiceError('conflict', `Several organizations are named "${idOrName}"; give its id`);
  const [found] = byName;
  if (!found) throw new ServiceError('not_found', `No organization with id or name "${idOrName}"`);
  return found;
}

/**
 * Makes `userId` a member of `organizationId` with `role`, or changes the role of an existing member.
 * @returns the role the user had before (null when they were not a member).
 */
export async function addMember(
  db: Db,
  input: { organizationId: string; userId: string; role: MembershipRole },
): Promise<{ previousRole: MembershipRole | null }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, input.userId), eq(memberships.organizationId, input.organizationId)));
    await tx
      .insert(memberships)
      .values(input)
      .onConflictDoUpdate({ target: [memberships.userId, memberships.organizationId], set: { role: input.role } });
    return { previousRole: existing?.role ?? null };
  });
}

/** A configured event day: day number from 1, name, calendar date (YYYY-MM-DD). */
export interface EventDayInput {
  name: string;
  date: string;
}

/** What an event is created from. `days` empty = a single-day event (implicit day 1 on `date`). */
export interface NewEvent {
  organizationId: string;
  title: string;
  date: string;
  description?: string;
  location?: string;
  status?: EventStatus;
  days?: EventDayInput[];
}

/**
 * Creates an event and its days (numbered 1, 2, … in the given order) in one transaction.
 * @returns the new event's id.
 */
export async function createEvent(db: Db, input: NewEvent): Promise<string> {
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(events)
      .values({
        organizationId: input.organizationId,
        title: input.title,
        date: input.date,
        description: input.description ?? '',
        location: input.location ?? '',
        status: input.status ?? 'draft',
      })
      .returning({ id: events.id });
    if (!event) throw new Error('insert into events returned no row');
    const days = input.days ?? [];
    if (days.length > 0) {
      await tx.insert(eventDays).values(days.map((day, index) => ({ eventId: event.id, day: index + 1, ...day })));
    }
    return event.id;
  });
}

/** An event as listed by the CLI. */
export interface EventSummary {
  id: string;
  title: string;
  date: string;
  status: EventStatus;
  organizationName: string;
  /** Configured days (0 = single implicit day). */
  days: number;
  /** Tickets not revoked. */
  tickets: number;
}

/** Events by date, of one organization or of all. */
export async function listEvents(db: DbOrTx, filter: { organizationId?: string } = {}): Promise<EventSummary[]> {
  const rows = await db
    .select({
      id: events.id,
      title: events.title,
      date: events.date,
      status: events.status,
      organizationName: organizations.name,
    })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(filter.organizationId ? eq(events.organizationId, filter.organizationId) : undefined)
    .orderBy(asc(events.date), asc(events.title));
  const dayCounts = await db.select({ eventId: eventDays.eventId, value: count() }).from(eventDays).groupBy(eventDays.eventId);
  const ticketCounts = await db
    .select({ eventId: tickets.eventId, value: count() })
    .from(tickets)
    .where(isNull(tickets.revokedAt))
    .groupBy(tickets.eventId);
  return rows.map((row) => ({
    ...row,
    days: dayCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
    tickets: ticketCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
  }));
}

/** The outcome of revokeTicket. */
export interface RevokedTicket {
  code: string;
  holderName: string;
  eventTitle: string;
  revokedAt: Date;
  /** True when the ticket had been revoked before this call (nothing changed). */
  wasAlreadyRevoked: boolean;
}

/**
 * Revokes the ticket `code` (case-insensitive, as verify looks codes up): later scans are denied with reason `revoked`.
 * Existing check-ins stay. Revoking twice keeps the first time.
 * @throws ServiceError `not_found`.
 */
export async function revokeTicket(db: DbOrTx, code: string): Promise<RevokedTicket> {
  const [updated] = await db
    .update(tickets)
    .set({ revokedAt: new Date() })
    .where(and(ticketCodeMatches(code), isNull(tickets.revokedAt)))
    .returning({ revokedAt: tickets.revokedAt });
  const [ticket] = await db
    .select({ code: tickets.code, holderName: tickets.holderName, eventTitle: events.title, revokedAt: tickets.revokedAt })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(code));
  if (!ticket || !ticket.revokedAt) throw new ServiceError('not_found', `No ticket with code "${code}"`);
  return { ...ticket, revokedAt: ticket.revokedAt, wasAlreadyRevoked: !updated };
}

/** Check-ins of one event day. */
export interface DayCheckInCount extends EventDayInfo {
  /** Tickets checked in on this day (revoked later or not: these people came through the gate). */
  checkedIn: number;
  /** Tickets not revoked that admit this day (all-day tickets and those listing it). */
  admitted: number;
}

/**
 * Check-in counts of `eventId`, for `day` only or for every day of the event.
 * @throws ServiceError `not_found` for an unknown event, `bad_request` for a day the event does not have.
 */
export async function countCheckIns(db: DbOrTx, eventId: string, day?: number): Promise<{ event: EventDetails; days: DayCheckInCount[] }> {
  const event = await findEvent(db, eventId);
  const days = day === undefined ? event.days : event.days.filter((entry) => entry.day === day);
  if (days.length === 0) {
    throw new ServiceError('bad_request', `Event "${event.title}" has no day ${day} (days: ${event.days.map((d) => d.day).join(', ')})`);
  }
  const checkedIn = await db
    .select({ day: checkIns.day, value: count() })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(eq(tickets.eventId, event.id))
    .groupBy(checkIns.day);
  const result: DayCheckInCount[] = [];
  for (const entry of days) {
    const [admitted] = await db
      .select({ value: count() })
      .from(tickets)
      .where(
        and(
          eq(tickets.eventId, event.id),
          isNull(tickets.revokedAt),
          or(isNull(tickets.admittedDays), sql`${entry.day} = any(${tickets.admittedDays})`),
        ),
      );
    result.push({
      ...entry,
      checkedIn: checkedIn.find((row) => row.day === entry.day)?.value ?? 0,
      admitted: admitted?.value ?? 0,
    });
  }
  return { event, days: result };
}
