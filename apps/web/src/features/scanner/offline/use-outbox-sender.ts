/**
 * Sends this device's offline scans (the outbox, ./outbox.ts) while the signed-in user is on any
 * screen but the scanner, which sends them itself (use-offline-door.ts): a gate that scanned offline
 * and then went back to choose another day, or to the account screens, still gets its check-ins to
 * the server as soon as it answers, not only the next time the scanner is opened (issue 12, "never
 * a lost check-in").
 *
 * Tries on mount, every `OUTBOX_SEND_INTERVAL_MS` while items wait, when the browser says it is
 * online again, and after a failed round 1 s, 2 s, 4 s … 30 s later (`outboxRetryDelay`, SPEC §9's
 * policy). Only this user's items are sent (as the scanner does); scans the server answers
 * `conflict` for are marked 'Conflict' in their own day's recent scans. Re-sending an item is safe:
 * the server keeps one row per scan id and answers a repeat as before.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { recordUploadConflicts } from '../check-in-queries.ts';
import { sendOfflineScans } from './offline-api.ts';
import { openOfflineDb } from './offline-db.ts';
import { outboxRetryDelay, uploadOutbox } from './outbox.ts';

/** How often (ms) a waiting outbox is tried again when the last round neither failed nor emptied it. */
export const OUTBOX_SEND_INTERVAL_MS = 30_000;

/** @param userId the signed-in user (null: nothing is sent). */
export function useOutboxSender(userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    let isActive = true;
    let isSending = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = (ms: number) => {
      if (!isActive) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => void send(), ms);
    };
    const send = async (): Promise<void> => {
      if (!isActive || isSending) return;
      isSending = true;
      try {
        // No IndexedDB (private mode, a broken store): nothing can have been queued on this device.
        const db = await openOfflineDb().catch(() => null);
        if (!db) return;
        // With nothing of this user's waiting, this reads the outbox and sends nothing.
        const outcome = await uploadOutbox(db, userId, sendOfflineScans);
        if (outcome.conflicts.length > 0) recordUploadConflicts(queryClient, outcome.conflicts);
        if (outcome.failed) {
          schedule(outboxRetryDelay(failures));
          failures += 1;
        } else {
          failures = 0;
          schedule(OUTBOX_SEND_INTERVAL_MS);
        }
      } catch {
        // IndexedDB failed mid-round: the items stay where they are; try again later.
        schedule(OUTBOX_SEND_INTERVAL_MS);
      } finally {
        isSending = false;
      }
    };
    const onOnline = () => void send();
    window.addEventListener('online', onOnline);
    void send();
    return () => {
      isActive = false;
      if (timer !== null) clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [userId, queryClient]);
}
