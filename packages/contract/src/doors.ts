/**
 * Doors beyond one entrance (issue 26 items 3, 4, 6; docs/decisions/111): the supervisor's info scan
 * and the words of entry, exit and capacity in English and German (the web's i18n copies the German;
 * the server answers the English `message`).
 *
 * POST /events/{eventId}/info-scan (supervisor or higher, as the other supervisor tools): the state of
 * a ticket on each check-in list of the day, without admitting it. Nothing is checked in; the scan
 * log records one row (verdict `info`). 404 for an unknown event or a non-member, 403 below
 * supervisor, 400 for an ill-formed body.
 */
import { z } from 'zod';
import { QR_CODE_MAX_LENGTH } from './tickets.ts';

/** Body: the scanned text (a code or a signed QR text) and the day number. */
export const InfoScanRequest = z.object({
  qrCode: z.string().trim().min(1).max(QR_CODE_MAX_LENGTH),
  day: z.number().int().min(1).max(366),
  scanId: z.uuid().optional(),
}).meta({ id: 'InfoScanRequest' });
export type InfoScanRequest = z.infer<typeof InfoScanRequest>;

/**
 * A ticket's state on one check-in list of the day. `admitsTicket`: the list admits the ticket's type
 * on the day and the ticket admits the day (its own days with its type's, docs/decisions/125): false
 * where the door would deny it `not_on_list` or `not_valid_today`. `checkIn`: its active check-in there (null: none): first entry (`checkedInAt`, by
 * `checkedInBy`), last entry (`lastEnteredAt`), last exit since (`exitedAt`, null: none) and
 * whether the guest is inside now (`isInside`).
 */
export const InfoScanListState = z.object({
  id: z.string(),
  name: z.string(),
  admitsTicket: z.boolean(),
  allowsReentry: z.boolean(),
  checkIn: z
    .object({
      checkedInAt: z.string(),
      checkedInBy: z.string(),
      lastEnteredAt: z.string(),
      exitedAt: z.string().nullable(),
      isInside: z.boolean(),
    })
    .nullable(),
}).meta({ id: 'InfoScanListState' });
export type InfoScanListState = z.infer<typeof InfoScanListState>;

/**
 * The answer. `ticket` null when no ticket of this event has the code (`message` then says so, the
 * verify words: 'No ticket with this code exists.' / 'This ticket is for a different event.');
 * otherwise the ticket (revoked: `revokedAt` set; `admittedDays` its own days with its type's, null:
 * every day) with its notes, and `lists` every list of the event in order with the ticket's state
 * there on `day`.
 */
export const InfoScanResponse = z.object({
  day: z.number().int(),
  ticket: z
    .object({
      ticketId: z.string(),
      code: z.string(),
      holderName: z.string(),
      ticketType: z.string(),
      admittedDays: z.array(z.number().int()).nullable(),
      revokedAt: z.string().nullable(),
      checkInNote: z.string().optional(),
      requiresAttention: z.boolean().optional(),
    })
    .nullable(),
  message: z.string().optional(),
  lists: z.array(InfoScanListState),
}).meta({ id: 'InfoScanResponse' });
export type InfoScanResponse = z.infer<typeof InfoScanResponse>;
