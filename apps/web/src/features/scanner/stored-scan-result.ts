/**
 * The one schema of a verdict kept in tab memory (`ScanResult` of scanner-logic.ts), read back by the
 * scanner's latest verdict (scanner-memory.ts, decision 027) and by 'Recent scans' (recent-scans.ts,
 * decision 034). One schema, so that what a card shows before a reload it shows after it: the day
 * denial's facts, 'Offline', 'Conflict', 'Undone elsewhere since', an undo made on this screen and
 * the ticket's check-in note.
 */
import { ListDenial } from '@gatecheck/contract/check-in-lists';
import { CheckInAttention } from '@gatecheck/contract/check-in-notes';
import { DayDenial, DenialReason } from '@gatecheck/contract/tickets';
import { z } from 'zod';
import type { ScanResult } from './scanner-logic.ts';

export const StoredScanResult: z.ZodType<ScanResult> = z.intersection(
  z.object({
    id: z.string(),
    ticketId: z.string(),
    timestamp: z.string(),
    // An undo from this screen: the card says so after a reload too.
    undone: z.object({ at: z.string(), reason: z.string() }).optional(),
    // Decided on the device (issue 12 item 3), found in conflict by an upload, replaced by a later approval.
    isOffline: z.boolean().optional(),
    isConflict: z.boolean().optional(),
    isReplaced: z.boolean().optional(),
    // An exit denied here that the server recorded when sent (docs/decisions/150).
    isExitRecordedOnUpload: z.boolean().optional(),
    // The ticket's check-in note and attention flag (docs/decisions/102): the card keeps showing them.
    attention: CheckInAttention.optional(),
  }),
  z.discriminatedUnion('isValid', [
    z.object({
      isValid: z.literal(true),
      details: z.object({ eventName: z.string().optional(), holderName: z.string().optional(), ticketType: z.string().optional() }),
      // An exit recorded, an entry whose capacity the device could not check (docs/decisions/113).
      isExit: z.boolean().optional(),
      isCapacityUnchecked: z.boolean().optional(),
    }),
    z.object({
      isValid: z.literal(false),
      denial: z.object({
        reason: DenialReason.optional(),
        checkedInAt: z.string().optional(),
        checkedInBy: z.string().optional(),
        // Kept before decision 050 as `message` (English words): dropped on read, the reason shows.
        dayDenial: DayDenial.optional(),
        listDenial: ListDenial.optional(),
        capacityDenial: z.object({ insideNow: z.number(), capacity: z.number() }).optional(),
      }),
    }),
  ]),
);
