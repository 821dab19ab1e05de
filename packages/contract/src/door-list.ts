/**
 * The door list of an event day (issue 12 item 2, docs/decisions/044): what a device downloads so it
 * can decide a scan with the network down, with the same rule as the server (`decideCheckIn`,
 * check-in-rules.ts, SEAMS §2 — one rule, two callers).
 *
 * GET /events/{eventId}/days/{day}/door-list[?since=<cursor>]: the event (every field
 * `decideCheckIn` reads), one entry per ticket of the event, and a `cursor`. With `since`, only the
 * tickets that changed since that cursor (the ticket itself, or its check-in of the day added or
 * undone), each with its whole current state: the device replaces its entry by lookup key.
 *
 * No guest list on the device: an entry is found by `lookupKey` (a hash of the code, as scanned,
 * normalised like the server's case-insensitive match), and the holder name is AES-GCM encrypted
 * with a key derived from the code (HKDF-SHA-256), so only a device holding the ticket's code can read
 * it. WebCrypto only (`crypto.subtle`): the same functions run on the server (Node 24) and in the
 * browser / WebView.
 */
import { z } from 'zod';
import { CheckInList, CheckInListId } from './check-in-lists.ts';
import { type CheckInAttention, checkInAttention } from './check-in-notes.ts';
import type { CheckInDirection } from './check-in-lists.ts';
import { type CheckInEvent, type CheckInInput, type CheckInListRule, type ExistingCheckIn, isCheckInInside } from './check-in-rules.ts';
import { fromBase64Url, fromUtf8, globalCrypto, subtle, toBase64Url, utf8 } from './bytes.ts';
import { EventStatus } from './organizations.ts';
import { ticketCodeOfQrText } from './signed-ticket.ts';

/** Path params of the door list, its conflicts and the offline batch: an event and a day number. */
export const EventDayParams = z.object({
  eventId: z.string().min(1).max(64),
  day: z.coerce.number().int().min(1).max(366),
});
export type EventDayParams = z.infer<typeof EventDayParams>;

/**
 * `?since=`: the `cursor` of the previous door list download (opaque text). `?checkInListId=`: the
 * check-in list whose check-ins the entries carry (docs/decisions/100); default the event's first.
 */
export const DoorListQuery = z.object({
  since: z.string().regex(/^[0-9]{1,20}$/, 'a cursor from a previous door list').optional(),
  checkInListId: CheckInListId.optional(),
});
export type DoorListQuery = z.infer<typeof DoorListQuery>;

/** The event as `decideCheckIn` reads it (CheckInEvent), on the wire. */
export const DoorListEvent = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  status: EventStatus,
  timeZone: z.string(),
  dayCutoff: z.string(),
  allowsScanningOutsideDays: z.boolean(),
  days: z.array(z.object({ day: z.number().int(), name: z.string(), date: z.string() })),
  /**
   * The venue's capacity across all its lists (docs/decisions/147), so an offline entry says
   * 'capacity not checked offline' as at a list with one. Absent (older server, or none): none.
   */
  capacity: z.number().int().min(1).nullable().optional(),
}).meta({ id: 'DoorListEvent' });
export type DoorListEvent = z.infer<typeof DoorListEvent>;

/** AES-GCM ciphertext: `iv` (12 bytes) and `data` (ciphertext + 16-byte tag), both base64url. */
export const SealedText = z.object({
  iv: z.string(),
  data: z.string(),
}).meta({ id: 'SealedText' });
export type SealedText = z.infer<typeof SealedText>;

/**
 * One ticket of the door list. `admittedDays` null = every day of the event. `ticketType` decides
 * which check-in lists admit it. `checkIn` is the ticket's active (not undone) check-in on the list's
 * day at the door list's check-in list (`checkInListId`), or null: when (ISO 8601) and by whom
 * (display name).
 */
export const DoorListEntry = z.object({
  lookupKey: z.string(),
  ticketType: z.string(),
  admittedDays: z.array(z.number().int()).nullable(),
  isRevoked: z.boolean(),
  holderName: SealedText,
  /**
   * At a list that records exits (docs/decisions/111, format 5): `lastEnteredAt` the last entry
   * (absent: `checkedInAt`), `exitedAt` the exit since (null: not left). Whether the guest is
   * inside is `isCheckInInside` of these and the list's daily checkout time, at the device's clock.
   */
  checkIn: z.object({
    checkedInAt: z.string(),
    checkedInBy: z.string(),
    lastEnteredAt: z.string().optional(),
    exitedAt: z.string().nullable().optional(),
  }).nullable(),
  /**
   * The ticket's own check-in note (docs/decisions/102), sealed like the holder name: a note may
   * say something personal ('wheelchair user'). Absent when the ticket has none.
   */
  checkInNote: SealedText.optional(),
  /** The ticket's own attention flag (its type's is in the list's `ticketTypes`). */
  requiresAttention: z.boolean().default(false),
}).meta({ id: 'DoorListEntry' });
export type DoorListEntry = z.infer<typeof DoorListEntry>;

/**
 * A ticket type's check-in note and attention flag (docs/decisions/102) and the days it admits
 * (docs/decisions/125; null: every day), as the door list carries it.
 */
export const DoorListTicketType = z.object({
  name: z.string(),
  checkInNote: z.string(),
  requiresAttention: z.boolean(),
  days: z.array(z.number().int()).nullable().default(null),
}).meta({ id: 'DoorListTicketType' });
export type DoorListTicketType = z.infer<typeof DoorListTicketType>;

/**
 * The answer. `isComplete`: true for a full list (no `since`), false for changes only. `cursor`:
 * send it back as `since` next time. `generatedAt`: the server's clock (ISO 8601), for 'Last synced'.
 */
export const DoorList = z.object({
  event: DoorListEvent,
  day: z.number().int(),
  isComplete: z.boolean(),
  cursor: z.string(),
  generatedAt: z.string(),
  tickets: z.array(DoorListEntry),
  /**
   * The check-in list the entries' check-ins are at (docs/decisions/100), one of `checkInLists`.
   * Absent (older server): the event's first list.
   */
  checkInListId: z.string().optional(),
  /**
   * The event's check-in lists, first list first, so the device decides which list admits a ticket
   * with the same rule as the server. Absent (older server): none known; the device decides as
   * before lists (every ticket admitted).
   */
  checkInLists: z.array(CheckInList).default([]),
  /**
   * Whether the event has tickets this list leaves out because their codes are too weak to keep
   * secret on a device (`isDoorListCode`, docs/decisions/087). A weak code the list does not hold
   * may then be a valid ticket: the device cannot decide it offline. Absent (older server): false.
   */
  hasUnlistedCodes: z.boolean().default(false),
  /**
   * Signing keys of the event that were revoked (docs/decisions/089): a signed ticket naming one of
   * these key ids is not accepted by the device, whatever keys it kept. Always the full set, in full
   * lists and change lists alike. Absent (older server): none.
   */
  revokedKeyIds: z.array(z.string()).default([]),
  /**
   * The rules the list was built by (DOOR_LIST_FORMAT). A device keeping a list of another format
   * downloads the full list again rather than merge changes into it: entries an older server listed
   * (weak codes) would otherwise stay, never updated. Absent (older server): 1.
   */
  format: z.number().int().min(1).default(1),
  /**
   * The event's ticket types that carry a check-in note or the attention flag (docs/decisions/102)
   * or admit only some days (docs/decisions/125), always the full set, in full lists and change lists alike (a type's note edited changes no
   * ticket row). Absent (older server): none.
   */
  ticketTypes: z.array(DoorListTicketType).default([]),
  /**
   * Guests inside through the door list's check-in list when it was made (`generatedAt`;
   * docs/decisions/111, format 5): a device shows it and may add its own entries and exits since,
   * but cannot know other gates': the capacity is not checked offline. Absent (older server): null.
   */
  insideNow: z.number().int().min(0).nullable().optional(),
}).meta({ id: 'DoorList' });
export type DoorList = z.infer<typeof DoorList>;

/**
 * The key under which two scanned texts are the same ticket, as the server's case-insensitive
 * match (`upper(code)`, migration 0001): the ticket code (out of a signed QR text, signed-ticket.ts,
 * when it is one), trimmed, in upper case. Ticket codes are ASCII (services/ticket-codes.ts), so
 * JavaScript's and PostgreSQL's upper case agree on every real code.
 */
export function normalizeTicketCode(scanned: string): string {
  return ticketCodeOfQrText(scanned.trim()).toUpperCase();
}

/**
 * The door list's format: 2 since weak codes are left out (docs/decisions/087), 3 since entries
 * carry check-in notes (docs/decisions/102), 4 since it also carries the event's check-in lists and
 * its entries' check-ins are at one list (docs/decisions/100): a device holding an older list
 * downloads it whole, so no entry it kept lacks its note and no list lacks the check-in lists; 5
 * since entries carry their exits and the list its inside count and its lists' re-entry, capacity
 * and daily checkout (docs/decisions/111).
 */
export const DOOR_LIST_FORMAT = 5;

/** The least strength, in bits, a ticket code must have to be on a door list (docs/decisions/087). */
export const DOOR_LIST_MIN_CODE_BITS = 64;

/**
 * A conservative estimate of how many bits of guessing a ticket code can resist (docs/decisions/087),
 * counted on its normalised form (case does not count: the server matches codes ignoring case): each
 * digit log2(10), each letter log2(26), each other character (`.`, `_`, `-`) log2(3), whatever the
 * rest of the code is. An upper bound of what the characters can carry: a code with a fixed prefix
 * or a sequential number is weaker than this says (see the decision).
 */
export function ticketCodeStrengthBits(code: string): number {
  let bits = 0;
  for (const character of normalizeTicketCode(code)) {
    if (character >= '0' && character <= '9') bits += DIGIT_BITS;
    else if (character >= 'A' && character <= 'Z') bits += LETTER_BITS;
    else bits += OTHER_BITS;
  }
  return bits;
}

/**
 * Whether a ticket with `code` may be on a door list: its code resists at least
 * DOOR_LIST_MIN_CODE_BITS of guessing (`ticketCodeStrengthBits`). A weaker code would be recovered
 * from its lookup key (with its holder's name) by anyone holding the list, and is a valid ticket at
 * verify; such tickets are left off the list and decided online only (docs/decisions/087).
 */
export function isDoorListCode(code: string): boolean {
  return ticketCodeStrengthBits(code) >= DOOR_LIST_MIN_CODE_BITS;
}

const DIGIT_BITS = Math.log2(10);
const LETTER_BITS = Math.log2(26);
const OTHER_BITS = Math.log2(3);

/**
 * The lookup key of a code in event `eventId`'s door list: base64url(SHA-256(UTF-8 of
 * `gatecheck-door-list-v1\n` + eventId + `\n` + normalised code)). Salted by the event, so keys of
 * two events never match and no table precomputed for one event serves another.
 */
export async function doorListLookupKey(eventId: string, code: string): Promise<string> {
  const digest = await subtle().digest('SHA-256', utf8(`${LOOKUP_PREFIX}${eventId}\n${normalizeTicketCode(code)}`));
  return toBase64Url(new Uint8Array(digest));
}

/**
 * Encrypts `holderName` for the door list of `eventId`: AES-256-GCM under a key HKDF-SHA-256 derives
 * from the normalised code (salt: the event id, info: `gatecheck-holder-name-v1`), a fresh random
 * 12-byte IV each time.
 */
export async function sealHolderName(eventId: string, code: string, holderName: string): Promise<SealedText> {
  return sealWithCode(eventId, code, holderName, HOLDER_NAME_INFO);
}

/**
 * Encrypts a ticket's own check-in note for the door list of `eventId` as `sealHolderName` does
 * the holder name, under a key of its own (HKDF info `gatecheck-check-in-note-v1`).
 */
export async function sealCheckInNote(eventId: string, code: string, note: string): Promise<SealedText> {
  return sealWithCode(eventId, code, note, CHECK_IN_NOTE_INFO);
}

async function sealWithCode(eventId: string, code: string, text: string, info: string): Promise<SealedText> {
  const key = await codeDerivedKey(eventId, code, info, ['encrypt']);
  const iv = new Uint8Array(12);
  globalCrypto().getRandomValues(iv);
  const data = await subtle().encrypt({ name: 'AES-GCM', iv }, key, utf8(text));
  return { iv: toBase64Url(iv), data: toBase64Url(new Uint8Array(data)) };
}

/**
 * Decrypts a door-list holder name with the scanned `code`.
 * @throws Error (WebCrypto's OperationError) when `code` is not the ticket's code or the text was altered.
 */
export async function openHolderName(eventId: string, code: string, sealed: SealedText): Promise<string> {
  return openWithCode(eventId, code, sealed, HOLDER_NAME_INFO);
}

/**
 * What a device shows for a ticket of `list` scanned as `code` (docs/decisions/102): the entry's
 * own note (opened with the code) and flag combined with its type's by `checkInAttention`, as the
 * server combines them. A note that does not open (altered) is left out; the flag still counts.
 * @returns null when there is neither a note nor a flag.
 */
export async function doorListAttention(list: Pick<DoorList, 'event' | 'ticketTypes'>, code: string, entry: DoorListEntry): Promise<CheckInAttention | null> {
  const note = entry.checkInNote ? await openWithCode(list.event.id, code, entry.checkInNote, CHECK_IN_NOTE_INFO).catch(() => '') : '';
  const type = list.ticketTypes.find((candidate) => candidate.name === entry.ticketType);
  return checkInAttention(
    { note, requiresAttention: entry.requiresAttention },
    type ? { note: type.checkInNote, requiresAttention: type.requiresAttention } : undefined,
  );
}

async function openWithCode(eventId: string, code: string, sealed: SealedText, info: string): Promise<string> {
  const key = await codeDerivedKey(eventId, code, info, ['decrypt']);
  const plain = await subtle().decrypt({ name: 'AES-GCM', iv: fromBase64Url(sealed.iv) }, key, fromBase64Url(sealed.data));
  return fromUtf8(new Uint8Array(plain));
}

/**
 * The device's list after a download (issue 12 item 2): a full list (`isComplete`) replaces
 * `previous`; changes replace the entries with the same lookup key and add new ones, and take the
 * new `cursor`, `event` and `generatedAt`. A change may arrive twice (decision 044): applying it
 * again changes nothing. Changes for another event or day than `previous`, or in another `format`,
 * are refused.
 * @throws Error when `changes` is a change list for another event, day or format.
 */
export function mergeDoorList(previous: DoorList | null, changes: DoorList): DoorList {
  if (changes.isComplete || previous === null) {
    if (!changes.isComplete) throw new Error('a change list needs a full list to apply to');
    return changes;
  }
  if (previous.event.id !== changes.event.id || previous.day !== changes.day) throw new Error('changes for another event or day');
  if (previous.checkInListId !== changes.checkInListId) throw new Error('changes for another check-in list');
  if (previous.format !== changes.format) throw new Error('changes in another format: a full list is needed');
  const byKey = new Map(previous.tickets.map((entry) => [entry.lookupKey, entry]));
  for (const entry of changes.tickets) byKey.set(entry.lookupKey, entry);
  // Tickets are never deleted one by one, so an event that had unlisted codes keeps having them; a
  // change list only knows about the tickets it carries.
  const hasUnlistedCodes = previous.hasUnlistedCodes || changes.hasUnlistedCodes;
  return { ...changes, isComplete: true, hasUnlistedCodes, tickets: [...byKey.values()] };
}

/**
 * A device's own check-in of a ticket not yet in the downloaded list (its outbox): the time it was
 * admitted and by whom, so the same ticket scanned again offline is denied `already_checked_in`.
 */
export interface LocalCheckIn {
  checkedInAt: Date;
  checkedInBy: string;
  /** Whether the guest is inside after this device's own entries and exits; absent: inside. */
  isInside?: boolean | undefined;
}

/**
 * The `decideCheckIn` input for a scan decided from the door list (issue 12 item 3, SEAMS §2):
 * `entry` is the list's entry under the scanned code's lookup key (null: no such ticket in this
 * event — offline, another event's ticket is `not_found`), `localCheckIn` the device's own check-in
 * of it on this day, if any (it wins over the list's, which may be older). `now` is the device clock.
 * The check-in list is the door list's (`checkInListId`, else the first of `checkInLists`); a list
 * without `checkInLists` (older server) decides as before lists. The ticket's type's days are its
 * entry in `ticketTypes` (none: every day). `direction`: the scanner's Entry /
 * Exit switch (docs/decisions/111). The capacity is never checked offline (`insideNow` is not
 * given): an entry at a list with a capacity, or at an event with one, decides `isCapacityUnchecked`.
 */
export function doorListCheckInInput(
  list: Pick<DoorList, 'event'> & Partial<Pick<DoorList, 'checkInListId' | 'checkInLists' | 'ticketTypes'>>,
  day: number,
  entry: DoorListEntry | null,
  now: Date,
  localCheckIn: LocalCheckIn | null = null,
  direction: CheckInDirection = 'entry',
): CheckInInput {
  const event: CheckInEvent = list.event;
  const checkInList = doorListCheckInList(list);
  const listed = entry?.checkIn
    ? {
        checkedInAt: new Date(entry.checkIn.checkedInAt),
        checkedInBy: entry.checkIn.checkedInBy,
        isInside: isCheckInInside(
          { lastEnteredAt: new Date(entry.checkIn.lastEnteredAt ?? entry.checkIn.checkedInAt), exitedAt: entry.checkIn.exitedAt ? new Date(entry.checkIn.exitedAt) : null },
          checkInList?.list ?? {},
          event,
          now,
        ),
      }
    : null;
  const existing = localCheckIn ?? listed;
  const existingCheckIn: ExistingCheckIn | null = existing ? { ...existing, isSameScan: false } : null;
  return {
    ticket: entry
      ? {
          eventId: event.id,
          organizationId: event.organizationId,
          isRevoked: entry.isRevoked,
          admittedDays: entry.admittedDays,
          ticketType: entry.ticketType,
          ticketTypeDays: list.ticketTypes?.find((type) => type.name === entry.ticketType)?.days ?? null,
        }
      : null,
    event,
    day,
    existingCheckIn,
    now,
    checkInList,
    direction,
  };
}

/** The door list's check-in list and the event's lists, as the rule takes them; undefined when it carries none. */
function doorListCheckInList(list: Partial<Pick<DoorList, 'checkInListId' | 'checkInLists'>>): CheckInInput['checkInList'] {
  const lists: CheckInListRule[] = list.checkInLists ?? [];
  const chosen = list.checkInListId === undefined ? lists[0] : lists.find((entry) => entry.id === list.checkInListId);
  return chosen ? { list: chosen, lists } : undefined;
}

const LOOKUP_PREFIX = 'gatecheck-door-list-v1\n';
const HOLDER_NAME_INFO = 'gatecheck-holder-name-v1';
const CHECK_IN_NOTE_INFO = 'gatecheck-check-in-note-v1';

async function codeDerivedKey(eventId: string, code: string, info: string, usages: string[]): Promise<unknown> {
  const material = await subtle().importKey('raw', utf8(normalizeTicketCode(code)), 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: utf8(eventId), info: utf8(info) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    usages,
  );
}

