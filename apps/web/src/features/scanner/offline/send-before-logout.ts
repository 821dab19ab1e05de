/**
 * A logout with scans still queued offline (docs/decisions/076). The outbox sends a user's scans
 * only under that user's session (./outbox.ts), so after a logout they wait for the same staff
 * member's next sign-in on this device, which on a gate phone handed over at a shift change may
 * never come: those check-ins would never reach the server (issue 12, "never a lost check-in").
 * So 'Logout' first sends them, and asks before leaving any behind (app/logout-button.tsx).
 */
import { LOGOUT_SEND_TIMEOUT_MS } from '@/config/constants.ts';
import { sendOfflineScans } from './offline-api.ts';
import { openOfflineDb } from './offline-db.ts';
import { summarizeOutbox, uploadOutbox } from './outbox.ts';

/**
 * Sends `userId`'s queued scans (one upload round, given up after `timeoutMs`) and says how many of
 * them still wait: 0 when none was queued, all were sent, or this device has no readable outbox
 * (private mode, a broken store: nothing can be sent from it either). Set-aside scans do not count:
 * the server has answered them. Never throws.
 * @param timeoutMs how long the round may wait for the server, in ms
 */
export async function sendBeforeLogout(userId: string, timeoutMs: number = LOGOUT_SEND_TIMEOUT_MS): Promise<number> {
  try {
    const db = await openOfflineDb();
    if ((await summarizeOutbox(db, userId)).waiting === 0) return 0;
    const signal = AbortSignal.timeout(timeoutMs);
    await uploadOutbox(db, userId, (eventId, day, scans) => sendOfflineScans(eventId, day, scans, signal));
    return (await summarizeOutbox(db, userId)).waiting;
  } catch {
    return 0;
  }
}
