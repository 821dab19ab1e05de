/**
 * The session of SPEC §4 for the whole tree: 'loading' until the stored user has been checked,
 * then 'authenticated' or 'unauthenticated'. When the check finally fails (after the SPEC §9
 * retries), the stored user is deleted and the visitor is signed out with 'Session expired'.
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
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, use, useEffect, type ReactNode } from 'react';
import { expireSession, isSignedIn, sessionQueries } from '@/features/auth/api.ts';
import type { SessionEndReason } from '@/features/auth/auth-messages.ts';
import type { User } from '@/lib/entities.ts';
import { useIsServerUnreachable } from '@/lib/reachability.ts';
import { onSessionEnded } from '@/lib/session-ended.ts';
import { removeStoredUser } from '@/lib/stored-user.ts';
import { removeThisDevice } from './remove-this-device.ts';

export type SessionState =
  | { status: 'loading'; user: null; reason?: undefined }
  | { status: 'authenticated'; user: User; reason?: undefined }
  | { status: 'unauthenticated'; user: null; reason?: SessionEndReason };

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const query = useQuery(sessionQueries.current());

  // Any call the server answers 401 `unauthenticated` while signed in ends the session (a wrong
  // password at sign-in is `invalid_credentials`; before sign-in there is nothing to end).
  useEffect(
    () =>
      onSessionEnded((code) => {
        if (!isSignedIn(queryClient)) return;
        // This door device was removed by its organizer: its scans go first, then its data (decision 108).
        if (code === 'device_revoked') void removeThisDevice(queryClient);
        else void expireSession(queryClient);
      }),
    [queryClient],
  );

  // Confirm an offline start's user once the server answers again (a 401 then signs out).
  const isUnreachable = useIsServerUnreachable();
  const isUnconfirmed = query.data?.isUnconfirmed === true;
  useEffect(() => {
    if (isUnconfirmed && !isUnreachable) void queryClient.refetchQueries({ queryKey: sessionQueries.current().queryKey });
  }, [isUnconfirmed, isUnreachable, queryClient]);

  useEffect(() => {
    if (query.isError) void removeStoredUser();
  }, [query.isError]);

  // Removed while the app was closed: found by the session check at start.
  const isDeviceRemoved = query.data?.reason === 'device_removed';
  useEffect(() => {
    if (isDeviceRemoved) void removeThisDevice(queryClient);
  }, [isDeviceRemoved, queryClient]);

  let state: SessionState;
  if (query.isPending) state = { status: 'loading', user: null };
  else if (query.isError) state = { status: 'unauthenticated', user: null, reason: 'session_expired' };
  else if (query.data.user) state = { status: 'authenticated', user: query.data.user };
  else state = { status: 'unauthenticated', user: null, reason: query.data.reason };

  return <SessionContext value={state}>{children}</SessionContext>;
}

/** The current session. @throws {Error} outside `<SessionProvider>` */
export function useSession(): SessionState {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}
