/**
 * What the app does when the server says this door device was removed by its organizer (401
 * `device_revoked`, docs/decisions/108), in this order: the screen says so at once ('This device
 * was removed by your organizer' on /login, nothing signed in); the scans admitted offline are sent
 * under the stored token, which the server still takes for them; then the door lists and guest data
 * are deleted, and the stored user (with its token) and the chosen organization, event and day.
 * Uploading before deleting is what keeps every admission; deleting the token last is what lets
 * the upload go out. Someone who signs in on the phone while the scans are sent keeps that sign-in
 * and the choices made since.
 */
import type { SessionStore } from '@/features/auth/session-store.ts';
import type { User } from '@/lib/entities.ts';
import { clearSelection, getSelection } from '@/lib/selection.ts';
import { readStoredUser, removeStoredUser } from '@/lib/stored-user.ts';

let removing: Promise<void> | null = null;

/** Runs the removal once however many calls heard the 401 (`session`: the app's session store). Never rejects. */
export function removeThisDevice(session: SessionStore): Promise<void> {
  removing ??= (async () => {
    session.end('device_removed');
    const stored = await readStoredUser().catch(() => null);
    const chosen = getSelection();
    // Loaded here, not with the session provider: the offline store and door-list schemas stay off
    // the sign-in screen's first load (docs/decisions/098).
    const { sendThenForgetDoorData } = await import('@/features/scanner/offline/forget-door-data.ts');
    await sendThenForgetDoorData(stored?.id ?? null);
    // The upload may take an outbox round (seconds): whoever signed in on the phone meanwhile keeps
    // their sign-in, and a choice made meanwhile is theirs (as keep-own-selection.ts leaves one).
    const now = await readStoredUser().catch(() => null);
    if (now !== null && !isSameSignIn(now, stored)) return;
    if (getSelection() === chosen) await clearSelection('organization').catch(() => undefined);
    await removeStoredUser().catch(() => undefined);
  })().finally(() => {
    removing = null;
  });
  return removing;
}

/** Whether `user` is the sign-in `removed` was (the same account and token, and the same device token). */
function isSameSignIn(user: User, removed: User | null): boolean {
  return removed !== null && user.id === removed.id && user.token === removed.token && user.device?.token === removed.device?.token;
}
