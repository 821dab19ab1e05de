/**
 * A logout with scans still queued offline (docs/decisions/076, 077). After a logout they wait on
 * the device until someone of the team signs in there and the outbox sends them; until then the
 * server does not know those check-ins, and another gate may admit the same tickets. So 'Logout'
 * first sends them, and asks before leaving any behind (app/logout-button.tsx).
 */
import { LOGOUT_SEND_TIMEOUT_MS } from '@/config/constants.ts';
import { uploadOutboxWithin } from './offline-api.ts';
import { openOfflineDb } from './offline-db.ts';
import { summarizeOutbox, type UploadOutcome } from './outbox.ts';

/**
 * When `userId` has scans queued, sends the outbox (one upload round under this session, after the
 * round already under way if any; the wait and the sending given up after `options.timeoutMs`) and
 * says how many of `userId`'s scans still wait: 0 when none was queued, all were sent, or this
 * device has no readable outbox (private mode, a broken store: nothing can be sent from it either). Set-aside scans do not count: the server has answered them.
 * `options.onUploaded` hears what the upload did (`recordUpload` takes it). Never throws.
 */
export async function sendBeforeLogout(
  userId: string,
  options: { timeoutMs?: number; onUploaded?: (outcome: UploadOutcome) => void } = {},
): Promise<number> {
  try {
    const db = await openOfflineDb();
    if ((await summarizeOutbox(db, userId)).waiting === 0) return 0;
    const outcome = await uploadOutboxWithin(db, userId, options.timeoutMs ?? LOGOUT_SEND_TIMEOUT_MS);
    options.onUploaded?.(outcome);
    return (await summarizeOutbox(db, userId)).waiting;
  } catch {
    return 0;
  }
}
