/**
 * What the full-screen verdict flash says (issue 10 item 2), as plain data: the word, the reason in
 * plain words for a denial, and the one sentence announced to screen readers. No React, no I/O.
 */
import type { CheckInAttention } from '@gatecheck/contract/check-in-notes';
import { denialText, type ScanResult } from './scanner-logic.ts';
import { t } from '@/lib/i18n/index.ts';

/** How long the flash stays on screen, in ms (issue 10 item 2: "a full-screen flash (≈1 s)"). */
export const VERDICT_FLASH_MS = 1_000;

/**
 * How long the flash of a verdict with a check-in note stays, in ms (docs/decisions/102): a note of
 * a line or two takes longer than a second to read; a tap ends it sooner.
 */
export const VERDICT_FLASH_WITH_NOTE_MS = 2_500;

/** How long the flash of `result` stays on screen, in ms. */
export function verdictFlashMs(result: ScanResult): number {
  return result.attention ? VERDICT_FLASH_WITH_NOTE_MS : VERDICT_FLASH_MS;
}

/**
 * What a ticket's check-in note says (docs/decisions/102): its label ('ATTENTION' when the ticket
 * needs attention, else 'Note') and its text — the note, or for a flag without a note, 'Look at
 * this guest before letting them in'.
 */
export function checkInNoteContent(attention: CheckInAttention): { label: string; text: string } {
  const label = attention.requiresAttention ? t('scanner.attention') : t('scanner.checkInNote');
  return { label, text: attention.note !== '' ? attention.note : t('scanner.attentionWithoutNote') };
}

/**
 * What an approval says besides APPROVED (docs/decisions/113): 'Exit recorded' for an exit, and
 * 'capacity not checked offline' for an entry the device admitted at a list with a capacity; null
 * for a plain entry.
 */
export function approvalText(result: ScanResult): string | null {
  if (!result.isValid) return null;
  const words = [result.isExit ? t('doors.exitRecorded') : null, result.isCapacityUnchecked ? t('doors.capacityNotCheckedOffline') : null].filter((word) => word !== null);
  return words.length > 0 ? words.join(' — ') : null;
}

/** The flash's content; `reason` is null for approvals and for denials the server gave no reason for. */
export interface VerdictFlashContent {
  isApproved: boolean;
  /** 'APPROVED' / 'DENIED' in English (SPEC §8), in the active language otherwise. */
  word: string;
  reason: string | null;
  /** 'Offline' when the device decided it without the server (issue 12 item 3), else null. */
  offline: string | null;
  /** Read out once through the flash's live region, e.g. "DENIED. Ticket revoked", "APPROVED. ATTENTION: Green wristband". */
  announcement: string;
  /** The ticket's check-in note and flag (docs/decisions/102), shown large; null when it has none. */
  attention: CheckInAttention | null;
}

/**
 * The flash for `result`. The reason words are the result card's (`denialText`, e.g. "Already
 * checked in at 10:42 by Demo Staff", "Ticket revoked", "Ticket for another event", the server's
 * words naming the right day for a ticket not valid on this day, "Ticket not found"), so the flash
 * and the card never disagree.
 */
export function verdictFlashContent(result: ScanResult): VerdictFlashContent {
  const offline = result.isOffline === true ? t('scanner.offline') : null;
  const attention = result.attention ?? null;
  // The note is read with the verdict, in the one announcement (the card below is not live).
  const note = attention === null ? null : checkInNoteContent(attention);
  const announce = (words: string) => {
    const withOffline = offline === null ? words : `${words} (${offline})`;
    return note === null ? withOffline : t('scanner.announcementWithNote', { announcement: withOffline, label: note.label, note: note.text.replace(/\n/g, '. ') });
  };
  if (result.isValid) {
    const kind = approvalText(result);
    return { isApproved: true, word: t('scanner.approved'), reason: kind, offline, announcement: announce(kind === null ? t('scanner.approved') : `${t('scanner.approved')}. ${kind}`), attention };
  }
  const reason = denialText(result.denial);
  return { isApproved: false, word: t('scanner.denied'), reason, offline, announcement: announce(reason === null ? t('scanner.denied') : t('scanner.deniedWithReason', { reason })), attention };
}
