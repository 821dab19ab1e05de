/**
 * Authentication calls of SPEC §7 and the session of SPEC §4, with the SPEC §8 messages.
 *
 * The calls only: the session itself is kept by ./session-store.ts (outside the query cache, so the
 * sign-in screen's first load does without TanStack Query; docs/decisions/098). The account screens
 * (docs/decisions/018) use the calls of account-api.ts (apart, so the first load does without them).
 */
import { apiPaths } from '@gatecheck/contract/paths';
import { AuthOptionsResponse, LoginAnswer } from '@gatecheck/contract/sign-in';
import { UserMe } from '@gatecheck/contract/users';
import { z } from 'zod/mini';
import { SESSION_CHECK_TIMEOUT_MS } from '@/config/constants.ts';
import { ApiError, apiRequest } from '@/lib/api-client.ts';
import type { User } from '@/lib/entities.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { reportServerUnreachable } from '@/lib/reachability.ts';
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
  const kept = await readStoredUser();
  if (!kept) return { user: null };
  // A door device whose shift has ended scans again as the device, and asks for the next name.
  const stored = kept.device ? await withCurrentShift(kept) : kept;
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
    // A door device asks with its shift's token on the web too: the cookie is the device's own.
    const me = await apiRequest(apiPaths.usersMe, { schema: UserMe, token: isNative || stored.device ? stored.token : null, signal: deadline.signal });
    return { user: { ...toUser(me, stored.token), ...(stored.device ? { device: stored.device } : {}) } };
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
 * GET /auth/options: whether the server offers sign-up (`isSignUpAllowed`, docs/decisions/018).
 * @throws {ApiError} when the server refused or could not be asked (the screens then treat it as "no
 *   sign-up", the server's default)
 */
export function fetchAuthOptions(signal?: AbortSignal): Promise<AuthOptionsResponse> {
  return apiRequest(apiPaths.authOptions, { schema: AuthOptionsResponse, token: null, signal });
}

/**
 * `user` (a door device) as it scans now: after its shift's end the device's own token and no
 * shift (stored so), else unchanged (docs/decisions/116).
 */
async function withCurrentShift(user: User, now = new Date()): Promise<User> {
  const device = user.device;
  if (!device?.shiftEndsAt || Date.parse(device.shiftEndsAt) > now.getTime()) return user;
  const { shiftName: _name, shiftEndsAt: _endsAt, ...rest } = device;
  const ended: User = { ...user, token: device.token, device: rest };
  await writeStoredUser(ended);
  return ended;
}
