/**
 * Check-in notes and the attention flag (docs/decisions/102): a word from the door for every ticket
 * of a type ('Green wristband') or for one ticket ('Wheelchair access: open the side gate'), and a
 * flag that makes the scanner sound and vibrate differently so staff look up before waving the
 * guest through.
 *
 * A ticket type and a ticket each carry a note ('' = none) and a flag. What a scan shows is
 * `checkInAttention`: the ticket's note and its type's note both (the ticket's first), and the
 * attention flag when either sets it. Server and device combine them with this one function, so an
 * offline verdict shows what an online one does.
 */
import { z } from 'zod';
import { requestText } from './text.ts';

/** Longest check-in note, in characters: a few lines on a phone's verdict card, no essay. */
export const CHECK_IN_NOTE_MAX_LENGTH = 300;

/** What a refused note's 400 says (after the field's name). */
export const CHECK_IN_NOTE_CONTROL_MESSAGE = 'must not contain control characters (line breaks are allowed)';

/** C0 and C1 control characters and DEL, except the line feed a multi-line note needs. */
const CONTROL_CHARACTERS = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/u;

/**
 * Whether `note` is a note a door may show: storable text without control characters other than
 * line feeds (a carriage return, tab, escape or bell would render as nothing or garbage on the
 * card). Length is checked separately.
 */
export function isCheckInNoteText(note: string): boolean {
  return !CONTROL_CHARACTERS.test(note);
}

/**
 * A check-in note as a request field: trimmed, Windows line ends made `\n`, at most
 * CHECK_IN_NOTE_MAX_LENGTH characters, no control characters; '' clears the note.
 */
export function checkInNoteText(): z.ZodString {
  return requestText()
    .overwrite((note) => note.replace(/\r\n?/g, '\n').trim())
    .max(CHECK_IN_NOTE_MAX_LENGTH, `must be at most ${CHECK_IN_NOTE_MAX_LENGTH} characters`)
    .refine(isCheckInNoteText, { message: CHECK_IN_NOTE_CONTROL_MESSAGE });
}

/** A note and flag as stored on a ticket type or a ticket: `note` '' = none. */
export interface CheckInNoteSource {
  note: string;
  requiresAttention: boolean;
}

/** What the door shows for a ticket: the combined note ('' = none) and whether it needs attention. */
export const CheckInAttention = z.object({
  note: z.string(),
  requiresAttention: z.boolean(),
}).meta({ id: 'CheckInAttention' });
export type CheckInAttention = z.infer<typeof CheckInAttention>;

/**
 * The note and flag a scan of a ticket shows, from its own (`ticket`) and its type's (`type`,
 * undefined when the type has none). Notes add up, the ticket's first (it is about this guest; the
 * type's is a standing instruction that must not be lost when a ticket gets a note of its own),
 * one per line; attention is set when either sets it (a ticket cannot switch off its type's flag).
 * @returns null when there is neither a note nor a flag (the verdict then carries nothing new).
 */
export function checkInAttention(ticket: CheckInNoteSource, type: CheckInNoteSource | undefined): CheckInAttention | null {
  const notes = [ticket.note.trim(), type?.note.trim() ?? ''].filter((note) => note !== '');
  const requiresAttention = ticket.requiresAttention || (type?.requiresAttention ?? false);
  if (notes.length === 0 && !requiresAttention) return null;
  return { note: notes.join('\n'), requiresAttention };
}

/**
 * The verdict fields of `attention` (SPEC §7's answer keeps its fields; these are added only when
 * there is something to say): `checkInNote` (omitted when '') and `requiresAttention` (omitted
 * when false).
 */
export function attentionFields(attention: CheckInAttention | null): { checkInNote?: string; requiresAttention?: true } {
  if (attention === null) return {};
  return {
    ...(attention.note !== '' ? { checkInNote: attention.note } : {}),
    ...(attention.requiresAttention ? { requiresAttention: true as const } : {}),
  };
}

/**
 * The words the CSV import and the CLI take for the attention flag, any letter case, trimmed:
 * yes/no, true/false, 1/0 (and y/n); '' is no.
 * @returns the flag, or null for anything else.
 */
export function parseAttentionFlag(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  if (word === '' || word === 'no' || word === 'n' || word === 'false' || word === '0') return false;
  if (word === 'yes' || word === 'y' || word === 'true' || word === '1') return true;
  return null;
}

/** Path params of one ticket type of an event (`name` as the tickets carry it, URL-encoded). */
export const TicketTypeParams = z.object({
  eventId: requestText().min(1).max(64),
  name: requestText().trim().min(1).max(100),
});
export type TicketTypeParams = z.infer<typeof TicketTypeParams>;

/**
 * The event days a ticket type admits (docs/decisions/125): day numbers, at least one; null: every
 * day of the event. A ticket of the type admits a day only when its own days admit it too.
 */
export const TicketTypeDays = z
  .array(z.number().int().min(1).max(366))
  .min(1, 'Choose at least one day, or every day')
  .max(366)
  .nullable();

/**
 * A ticket type of an event: its name (as tickets carry it in `ticketType`), its check-in note
 * ('' = none), its attention flag, the days it admits (null: every day; docs/decisions/125) and how
 * many tickets of the event have it.
 */
export const TicketType = z.object({
  name: z.string(),
  checkInNote: z.string(),
  requiresAttention: z.boolean(),
  days: z.array(z.number().int()).nullable(),
  tickets: z.number().int(),
}).meta({ id: 'TicketType' });
export type TicketType = z.infer<typeof TicketType>;

/** GET /events/{eventId}/ticket-types: every type of the event, by name. */
export const TicketTypesResponse = z.object({ ticketTypes: z.array(TicketType) }).meta({ id: 'TicketTypesResponse' });
export type TicketTypesResponse = z.infer<typeof TicketTypesResponse>;

/**
 * PATCH /events/{eventId}/ticket-types/{name}: sets the type's note, flag and/or days (a field left
 * out keeps its value). The type is created when the event has none of that name yet, so a note can
 * be set before the tickets are imported.
 */
export const UpdateTicketTypeRequest = z.object({
  checkInNote: checkInNoteText().optional(),
  requiresAttention: z.boolean().optional(),
  days: TicketTypeDays.optional(),
}).meta({ id: 'UpdateTicketTypeRequest' });
export type UpdateTicketTypeRequest = z.infer<typeof UpdateTicketTypeRequest>;
