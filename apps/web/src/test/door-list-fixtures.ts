/**
 * Door lists for tests (issue 12), built with the contract's own functions — the lookup key and the
 * sealed holder name are made exactly as the server makes them (decision 044).
 */
import { DOOR_LIST_FORMAT, doorListLookupKey, sealCheckInNote, sealHolderName, type DoorList, type DoorListEntry, type DoorListTicketType } from '@gatecheck/contract';

/** The event of the test door lists: testEvent's id and days, organization org-1, scanning any day. */
export const doorListEvent: DoorList['event'] = {
  id: 'event-1',
  organizationId: 'org-1',
  name: 'Harbour Sound 2026',
  status: 'live',
  timeZone: 'Europe/Amsterdam',
  dayCutoff: '06:00',
  // Tests scan "now", which is none of the event's days: the rehearsal setting lets the rule go on.
  allowsScanningOutsideDays: true,
  days: [
    { day: 1, name: 'Opening Friday', date: '2026-07-10' },
    { day: 2, name: 'Big Saturday', date: '2026-07-11' },
    { day: 3, name: 'Closing Sunday', date: '2026-07-12' },
  ],
};

/** A ticket of a test door list, in clear (the code is what a scan carries). */
export interface TestTicket {
  code: string;
  holderName: string;
  ticketType?: string;
  admittedDays?: number[] | null;
  isRevoked?: boolean;
  checkIn?: DoorListEntry['checkIn'];
  /** Its own check-in note (sealed on the list) and attention flag (docs/decisions/102). */
  checkInNote?: string;
  requiresAttention?: boolean;
}

/** The door-list entry of `ticket` for `eventId`. */
export async function doorListEntry(ticket: TestTicket, eventId = doorListEvent.id): Promise<DoorListEntry> {
  return {
    lookupKey: await doorListLookupKey(eventId, ticket.code),
    ticketType: ticket.ticketType ?? 'Weekend',
    admittedDays: ticket.admittedDays ?? null,
    isRevoked: ticket.isRevoked ?? false,
    holderName: await sealHolderName(eventId, ticket.code, ticket.holderName),
    checkIn: ticket.checkIn ?? null,
    ...(ticket.checkInNote ? { checkInNote: await sealCheckInNote(eventId, ticket.code, ticket.checkInNote) } : {}),
    requiresAttention: ticket.requiresAttention ?? false,
  };
}

/** A door list of day `day` (default 2) with `tickets`; full unless `isComplete: false`. */
export async function makeDoorList(
  tickets: TestTicket[],
  options: { day?: number; cursor?: string; isComplete?: boolean; event?: DoorList['event']; hasUnlistedCodes?: boolean; revokedKeyIds?: string[]; format?: number; ticketTypes?: DoorListTicketType[] } = {},
): Promise<DoorList> {
  const event = options.event ?? doorListEvent;
  return {
    event,
    day: options.day ?? 2,
    isComplete: options.isComplete ?? true,
    cursor: options.cursor ?? '100',
    generatedAt: '2026-07-11T10:00:00.000Z',
    tickets: await Promise.all(tickets.map((ticket) => doorListEntry(ticket, event.id))),
    hasUnlistedCodes: options.hasUnlistedCodes ?? false,
    revokedKeyIds: options.revokedKeyIds ?? [],
    checkInLists: [],
    format: options.format ?? DOOR_LIST_FORMAT,
    ticketTypes: options.ticketTypes ?? [],
  };
}
