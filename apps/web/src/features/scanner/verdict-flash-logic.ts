/**
 * What the full-screen verdict flash says (issue 10 item 2), as plain data: the word, the reason in
 * plain words for a denial, and the one sentence announced to screen readers. No React, no I/O.
 */
import { denialText, type ScanResult } from './scanner-logic.ts';
import { t } from '@/lib/i18n/index.ts';

/** How long the flash stays on screen, in ms (issue 10 item 2: "a full-screen flash (≈1 s)"). */
export const VERDICT_FLASH_MS = 1_000;

/** The flash's content; `reason` is null for approvals and for denials the server gave no reason for. */
export interface VerdictFlashContent {
  isApproved: boolean;
  /** 'APPROVED' / 'DENIED' in English (SPEC §8), in the active language otherwise. */
  word: string;
  reason: string | null;
  /** 'Offline' when the device decided it without the server (issue 12 item 3), else null. */
  offline: string | null;
  /** Read out once through the flash's live region, e.g. "DENIED. Ticket revoked". */
  announcement: string;
}

/**
 * The flash for `result`. The reason words are the result card's (`denialText`, e.g. "Already
 * checked in at 10:42 by Demo Staff", "Ticket revoked", "Ticket for another event", the server's
 * words naming the right day for a ticket not valid on this day, "Ticket not found"), so the flash
 * and the card never disagree.
 */
export function verdictFlashContent(result: ScanResult): VerdictFlashContent {
  const offline = result.isOffline === true ? t('scanner.offline') : null;
  const withOffline = (words: string) => (offline === null ? words : `${words} (${offline})`);
  if (result.isValid) return { isApproved: true, word: t('scanner.approved'), reason: null, offline, announcement: withOffline(t('scanner.approved')) };
  const reason = denialText(result.denial);
  return { isApproved: false, word: t('scanner.denied'), reason, offline, announcement: withOffline(reason === null ? t('scanner.denied') : t('scanner.deniedWithReason', { reason })) };
}
