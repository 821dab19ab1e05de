/**
 * Ticket verification, POST /tickets/verify (SPEC §7). Exactly one check-in per ticket per event
 * day. A denial is a verdict (`isValid: false` with a `reason`), never an HTTP error.
 */
import { z } from 'zod';
import { requestText } from './text.ts';

/** Longest QR payload accepted, in characters. */
export const QR_CODE_MAX_LENGTH = 512;

/**
 * Body: eventId, qrCode (the scanned text), day (day number); `scanId` makes a retry idempotent.
 * `qrCode` is the one request text not held to `requestText`: a camera decoding a damaged or binary
 * code can produce ill-formed text, and a code that cannot be a ticket is a verdict (DENIED,
 * `not_found`), not a 400 (issue 15 item 18).
 */
export const VerifyTicketRequest = z
  .object({
    eventId: requestText().min(1).max(64),
    qrCode: z.string().trim().min(1).max(QR_CODE_MAX_LENGTH),
    day: z.number().int().min(1).max(366),
    scanId: requestText().uuid().optional(),
  })
  .meta({ id: 'VerifyTicketRequest' });
export type VerifyTicketRequest = z.infer<typeof VerifyTicketRequest>;

/**
 * Why a ticket was denied. `event_not_active`: the event is a draft, completed or cancelled, so no
 * ticket of it admits anyone. `not_valid_today`: the ticket does not admit the chosen day (or the
 * event has no such day). `not_event_day`: the chosen day is not today at the event (issue 15;
 * see check-in-rules.ts).
 */
export const DenialReason = z.enum([
  'not_found',
  'wrong_event',
  'not_valid_today',
  'revoked',
  'already_checked_in',
  'event_not_active',
  'not_event_day',
]).meta({ id: 'DenialReason' });
export type DenialReason = z.infer<typeof DenialReason>;

/** APPROVED: the check-in was recorded now (or, for a retried `scanId`, earlier by this same scan). */
export const ApprovedVerdict = z.object({
  isValid: z.literal(true),
  eventName: z.string().optional(),
  holderName: z.string().optional(),
  ticketType: z.string().optional(),
  checkedInAt: z.string().optional(),
}).meta({ id: 'ApprovedVerdict' });
export type ApprovedVerdict = z.infer<typeof ApprovedVerdict>;

/** DENIED, with the reason; for `already_checked_in`, when and by whom the first check-in was made. */
export const DeniedVerdict = z.object({
  isValid: z.literal(false),
  reason: DenialReason.optional(),
  message: z.string().optional(),
  checkedInAt: z.string().optional(),
  checkedInBy: z.string().optional(),
}).meta({ id: 'DeniedVerdict' });
export type DeniedVerdict = z.infer<typeof DeniedVerdict>;

export const VerifyTicketResponse = z.discriminatedUnion('isValid', [ApprovedVerdict, DeniedVerdict]).meta({ id: 'VerifyTicketResponse' });
export type VerifyTicketResponse = z.infer<typeof VerifyTicketResponse>;
