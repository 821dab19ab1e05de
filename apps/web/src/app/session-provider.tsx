/**
 * The session of SPEC §4 for the whole tree (features/auth/session-store.ts): 'loading' until the
 * stored user has been checked, then 'authenticated' or 'unauthenticated'. When the check finally
 * fails, the stored user is deleted and the visitor is signed out with 'Session expired'. The store
 * is outside TanStack Query, so the sign-in screen and the guard work before the query cache has
 * loaded (docs/decisions/098).
 *
 * Offline start (issue 12 item 1, docs/decisions/056): when the server could not be asked, the
 * stored user is signed in unconfirmed (`checkSession`); as soon as the server answers again (the
 * 'Offline' indicator goes off), the session is checked once more, and only a 401 then signs out.
 *
 * A session can also end mid-shift: any call after sign-in that the server answers with 401 signs
 * the visitor out with 'Session expired' (SPEC §8), so the guard sends them to /login instead of
 * leaving them with a 'Verification Error' or a failed list on every try. The one HTTP client
 * reports such answers (lib/session-ended.ts), queries and mutations alike, and the calls outside
 * the query cache too (the offline outbox, the door list).
 */
import { createContext, use, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { SessionState, SessionStore } from '@/features/auth/session-store.ts';
import { useIsServerUnreachable } from '@/lib/reachability.ts';
import { onSessionEnded } from '@/lib/session-ended.ts';
import { removeThisDevice } from './remove-this-device.ts';

export type { SessionState } from '@/features/auth/session-store.ts';

const SessionContext = createContext<SessionStore | null>(null);

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  // The SPEC §4 check, once (the app start may have begun it already); stopped if the app goes first.
  useEffect(() => {
    void store.check();
    return () => store.cancelCheck();
  }, [store]);

  // Any call the server answers 401 `unauthenticated` while signed in ends the session (a wrong
  // password at sign-in is `invalid_credentials`; before sign-in there is nothing to end).
  useEffect(
    () =>
      onSessionEnded((code) => {
        if (store.getState().status !== 'authenticated') return;
        // This door device was removed by its organizer: its scans go first, then its data (decision 108).
        if (code === 'device_revoked') void removeThisDevice(store);
        else void store.expire();
      }),
    [store],
  );

  // Confirm an offline start's user once the server answers again (a 401 then signs out).
  const isUnreachable = useIsServerUnreachable();
  const isUnconfirmed = state.isUnconfirmed === true;
  useEffect(() => {
    if (isUnconfirmed && !isUnreachable) void store.recheck();
  }, [isUnconfirmed, isUnreachable, store]);

  // Removed while the app was closed: found by the session check at start.
  const isDeviceRemoved = state.reason === 'device_removed';
  useEffect(() => {
    if (isDeviceRemoved) void removeThisDevice(store);
  }, [isDeviceRemoved, store]);

  return <SessionContext value={store}>{children}</SessionContext>;
}

/** The session store: sign-in, logout and expiry (features/auth/session-store.ts). @throws {Error} outside `<SessionProvider>` */
export function useSessionStore(): SessionStore {
  const store = use(SessionContext);
  if (!store) throw new Error('useSession must be used inside <SessionProvider>');
  return store;
}

/** The current session; re-renders when it changes. @throws {Error} outside `<SessionProvider>` */
export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
