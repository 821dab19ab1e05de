/**
 * Sends this device's offline scans (the outbox, ./outbox.ts) while the signed-in user is on any
 * screen but the scanner, which sends them itself (use-offline-door.ts): a gate that scanned offline
 * and then went back to choose another day, or to the account screens, still gets its check-ins to
 * the server as soon as it answers, not only the next time the scanner is opened (issue 12, "never
 * a lost check-in").
 *
 * Tries on mount, every `OUTBOX_SEND_INTERVAL_MS` while items wait, when the browser says it is
 * online again, and after a failed round 1 s, 2 s, 4 s … 30 s later (./outbox-rounds.ts, SPEC §9's
 * policy, as the scanner does). Every waiting item is sent under this user's session, a colleague's
 * naming its maker (decision 077, as the scanner does); scans the
 * server answers `conflict` for are marked 'Conflict' in their own day's recent scans, and each day
 * sent is refreshed. Re-sending an item is safe:
 * the server keeps one row per scan id and answers a repeat as before.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { recordUpload } from '../recent-scans-query.ts';
import { roundSender } from './offline-api.ts';
import { openOfflineDb } from './offline-db.ts';
import { uploadOutbox } from './outbox.ts';
import { createOutboxRounds } from './outbox-rounds.ts';

/** How often (ms) a waiting outbox is tried again when the last round neither failed nor emptied it. */
export const OUTBOX_SEND_INTERVAL_MS = 30_000;

/** @param userId the signed-in user (null: nothing is sent). */
export function useOutboxSender(userId: string | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    const rounds = createOutboxRounds(
      async () => {
        // No IndexedDB (private mode, a broken store): nothing can have been queued on this device.
        const db = await openOfflineDb().catch(() => null);
        if (!db) return { failed: false };
        // With nothing waiting, this reads the outbox and sends nothing.
        const outcome = await uploadOutbox(db, userId, await roundSender());
        recordUpload(queryClient, outcome);
        return outcome;
      },
      { whenIdleMs: OUTBOX_SEND_INTERVAL_MS },
    );
    const onOnline = () => void rounds.run();
    window.addEventListener('online', onOnline);
    void rounds.run();
    return () => {
      rounds.stop();
      window.removeEventListener('online', onOnline);
    };
  }, [userId, queryClient]);
}
