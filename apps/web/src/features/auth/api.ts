/**
 * Authentication calls of SPEC §7 and the session of SPEC §4, with the SPEC §8 messages.
 *
 * The session lives in the query cache under `sessionQueries.current()`: `{ user }` when signed in,
 * `{ user: null, reason? }` when not. Login and logout write it directly.
 *
 * The account screens (docs/decisions/018) use `authOptionsQueries` (is sign-up offered?) and the
 * calls of account-api.ts (apart, so the sign-in screen's first load does without them; issue 13).
 */
import { apiPaths, AuthOptionsResponse, LoginAnswer, UserMe } from '@gatecheck/contract';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { SESSION_CHECK_TIMEOUT_MS } from '@/config/constants.ts';
import { ApiError, apiRequest } from '@/lib/api-client.ts';
import type { User } from '@/lib/entities.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { reportServerUnreachable } from '@/lib/reachability.ts';
import { clearPersistedQueries } from '@/lib/query-persister.ts';
import { clearSelection } from '@/lib/selection.ts';
import { readStoredUser, removeStoredUser, writeStoredUser } from '@/lib/stored-user.ts';
import { toLoginRequest, toUser } from './auth-logic.ts';
import type { SessionEndReason } from './auth-messages.ts';

/**
 * The session: a signed-in user, or none with the reason the last check failed (SPEC §8 'Session
 * expired' / 'No token available for native platform', worded by `sessionEndText`). `isUnconfirmed`:
 * the stored user, kept because the server could not be asked (offline start, docs/decisions/056);
 * confirmed again once the server answers.
 */
export type Session = { user: User; reason?: undefined; isUnconfirmed?: boolean } | { user: null; reason?: SessionEndReason; isUnconfirmed?: undefined };

/**
 * SPEC §4 session check. Reads the stored user; none → signed out without a call. On native a token
 * is required (reason 'no_native_token': 'No token available for native platform', the stored user
 * is deleted); the web checks GET /users/me with its cookie, native with the bearer token.
 *
 * Only the server's 401 ends the session ('Session expired', the stored user is deleted). When the
 * server cannot be asked — no answer within `timeoutMs` (default 5000 ms), a network failure, a 5xx,
 * any other refusal or an answer that is not a user (a captive portal's page) — the stored user
 * stays signed in, marked `isUnconfirmed`, so a door without network still starts the app at the
 * furthest step (issue 12 item 1; supersedes SPEC §4 "on failure … deleted" for these cases,
 * docs/decisions/056). A later 401 on any call still ends the session (session-provider.tsx).
 *
 * @throws {ApiError} only when `signal` (the query's) was aborted
 */
export async function checkSession(signal?: AbortSignal, timeoutMs: number = SESSION_CHECK_TIMEOUT_MS): Promise<Session> {
  const stored = await readStoredUser();
  if (!stored) return { user: null };
  const isNative = isNativePlatform();
  if (isNative && !stored.token) {
    await removeStoredUser();
    return { user: null, reason: 'no_native_token' };
  }
  const deadline = new AbortController();
  const onAbort = () => deadline.abort();
  signal?.addEventListener('abort', onAbort);
  if (signal?.aborted) deadline.abort();
  const timer = setTimeout(onAbort, timeoutMs);
  try {
    const me = await apiRequest(apiPaths.usersMe, { schema: UserMe, token: isNative ? stored.token : null, signal: deadline.signal });
    return { user: toUser(me, stored.token) };
  } catch (error) {
    if (signal?.aborted) throw error;
    // A removed door device: the session provider sends its scans, then deletes it all (app/remove-this-device.ts).
    if (error instanceof ApiError && error.status === 401 && error.code === 'device_revoked') return { user: null, reason: 'device_removed' };
    if (error instanceof ApiError && error.status === 401) {
      await removeStoredUser();
      return { user: null, reason: 'session_expired' };
    }
    // Given up after timeoutMs: the api-client does not count a call its caller aborted.
    if (deadline.signal.aborted) reportServerUnreachable();
    return { user: stored, isUnconfirmed: true };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

export const sessionQueries = {
  all: () => ['session'] as const,
  /** The current session; checked once per app start, then kept until login or logout change it. */
  current: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'current'] as const,
      queryFn: ({ signal }) => checkSession(signal),
      // checkSession decides about failures itself; it throws only when the query was cancelled.
      retry: false,
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
    }),
};

/**
 * SPEC §4/§7 login: POST /auth/login (`useCookie: true` on the web), then GET /users/me with the
 * returned bearer token (`sessionToken` or `token`); the user, with its token, is stored.
 *
 * @throws {ApiError} from the login call (its message is the server's, SPEC §8)
 * @throws {Error} 'Login failed' when no token came back; 'Failed to fetch user data' when
 *   GET /users/me did not answer 200 (SPEC §8)
 */
export async function login(credentials: { identifier: string; password: string }): Promise<User> {
  const body = toLoginRequest(credentials.identifier, credentials.password, isNativePlatform());
  const answer = await apiRequest(apiPaths.login, { method: 'POST', body, schema: LoginAnswer, token: null });
  const token = answer.sessionToken ?? answer.token;
  if (!token) throw new Error('Login failed');
  let me: UserMe;
  try {
    me = await apiRequest(apiPaths.usersMe, { schema: UserMe, token });
  } catch {
    throw new Error('Failed to fetch user data');
  }
  const user = toUser(me, token);
  await writeStoredUser(user);
  return user;
}

/**
 * SPEC §4/§7 logout: POST /auth/logout with an empty JSON body (bearer token if stored, cookies);
 * its failure is ignored (SPEC §8). Then, whatever the outcome, the stored user and the selected
 * organization, event and day are cleared.
 */
export async function logout(): Promise<void> {
  try {
    await apiRequest(apiPaths.logout, { method: 'POST', body: {}, schema: z.unknown() });
  } catch {
    // SPEC §8: a failed logout call is ignored; the session is cleared locally below.
  } finally {
    await Promise.all([removeStoredUser(), clearSelection('organization')]);
  }
}

/**
 * Starts the session signed out with no reason, as `checkSession` finds it when no user is stored,
 * without waiting for storage: the app start calls it once it has read that no user is stored, so
 * the first render is the sign-in form the prerendered page shows (docs/decisions/082), not the
 * guard's 'Loading...'. The build's prerender calls it too.
 */
export function signedOutSession(queryClient: QueryClient): void {
  queryClient.setQueryData(sessionQueries.current().queryKey, { user: null });
}

/** Marks the session signed in as `user` (a door device after its set-up, features/auth/enroll-api.ts). */
export function signInAs(queryClient: QueryClient, user: User): void {
  setSignedIn(queryClient, user);
}

/** Marks the session signed in (after login). */
function setSignedIn(queryClient: QueryClient, user: User): void {
  queryClient.setQueryData(sessionQueries.current().queryKey, { user });
}

/**
 * Forgets every cached server answer except the session, so one user never sees another's data:
 * in memory and the lists kept in IndexedDB for offline use (lib/query-persister.ts).
 */
export async function forgetCachedData(queryClient: QueryClient): Promise<void> {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0] });
  await clearPersistedQueries();
}

/** Marks the session signed out (with `reason`, shown on /login) and forgets the cached data. */
function setSignedOut(queryClient: QueryClient, reason?: SessionEndReason): void {
  queryClient.setQueryData<Session>(sessionQueries.current().queryKey, reason === undefined ? { user: null } : { user: null, reason });
  void forgetCachedData(queryClient);
}

/**
 * Signs the screen out with `reason` (shown on /login) and forgets the cached data, keeping the
 * stored user and its token for what must still be sent (app/remove-this-device.ts).
 */
export function endSession(queryClient: QueryClient, reason: SessionEndReason): void {
  setSignedOut(queryClient, reason);
}

/** True when the cached session has a signed-in user. */
export function isSignedIn(queryClient: QueryClient): boolean {
  return Boolean(queryClient.getQueryData<Session>(sessionQueries.current().queryKey)?.user);
}

/**
 * Ends a session the server no longer accepts (SPEC §8 'Session expired'): signs out with that
 * reason and deletes the stored user, but keeps the chosen organization, event and day, so the same
 * user's next sign-in returns to the furthest step (SPEC §2).
 */
export async function expireSession(queryClient: QueryClient): Promise<void> {
  setSignedOut(queryClient, 'session_expired');
  await removeStoredUser();
}

/**
 * The login mutation; on success the session becomes signed in. `beforeSignIn` runs after the
 * user is stored and before the session flips to signed in (and so before the furthest-step
 * redirect); a rejection from it fails the login.
 */
export function useLoginMutation(options: { beforeSignIn?: (user: User) => Promise<void> } = {}) {
  const queryClient = useQueryClient();
  const { beforeSignIn } = options;
  return useMutation({
    mutationFn: async (credentials: { identifier: string; password: string }) => {
      const user = await login(credentials);
      await forgetCachedData(queryClient);
      await beforeSignIn?.(user);
      return user;
    },
    onSuccess: (user) => setSignedIn(queryClient, user),
  });
}

/** The logout mutation; whatever the server says, the session becomes signed out. */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => setSignedOut(queryClient),
  });
}

/** How long the server's sign-up setting is trusted before it is asked again, in ms. */
const AUTH_OPTIONS_STALE_MS = 5 * 60 * 1000;

export const authOptionsQueries = {
  all: () => ['auth-options'] as const,
  /**
   * GET /auth/options: whether the server offers sign-up (`isSignUpAllowed`, docs/decisions/018).
   * The screens treat a failed call as "no sign-up", the server's default.
   */
  current: () =>
    queryOptions({
      queryKey: [...authOptionsQueries.all(), 'current'] as const,
      queryFn: ({ signal }) => apiRequest(apiPaths.authOptions, { schema: AuthOptionsResponse, token: null, signal }),
      staleTime: AUTH_OPTIONS_STALE_MS,
    }),
};
