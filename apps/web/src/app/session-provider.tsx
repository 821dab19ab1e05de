/**
 * The session of SPEC §4 for the whole tree: 'loading' until the stored user has been checked,
 * then 'authenticated' or 'unauthenticated'. When the check finally fails (after the SPEC §9
 * retries), the stored user is deleted and the visitor is signed out with 'Session expired'.
 */
import { useQuery } from '@tanstack/react-query';
import { createContext, use, useEffect, type ReactNode } from 'react';
import { SESSION_EXPIRED, sessionQueries } from '@/features/auth/api.ts';
import type { User } from '@/lib/entities.ts';
import { removeStoredUser } from '@/lib/stored-user.ts';

export type SessionState =
  | { status: 'loading'; user: null; reason?: undefined }
  | { status: 'authenticated'; user: User; reason?: undefined }
  | { status: 'unauthenticated'; user: null; reason?: string };

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const query = useQuery(sessionQueries.current());

  useEffect(() => {
    if (query.isError) void removeStoredUser();
  }, [query.isError]);

  let state: SessionState;
  if (query.isPending) state = { status: 'loading', user: null };
  else if (query.isError) state = { status: 'unauthenticated', user: null, reason: SESSION_EXPIRED };
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
