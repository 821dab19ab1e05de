/**
 * The native paths (SPEC §3, §4, §7) on Capacitor's real Android bridge (src/test/android-bridge.ts):
 * the platform is android and Preferences are the stand-in's device store.
 */
import '@/test/android-bridge-install.ts';
import { apiPaths, type LoginRequest } from '@gatecheck/contract';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { selectOrganization } from '@/lib/selection.ts';
import { devicePreferences as preferences } from '@/test/android-bridge.ts';
import { TEST_TOKEN, testOrganization, testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { checkSession, login, logout } from './api.ts';

test('native login does not ask for a cookie and stores the user in device preferences, not local storage', async () => {
  let body: LoginRequest | undefined;
  server.use(
    http.post(apiUrl(apiPaths.login), async ({ request }) => {
      body = (await request.json()) as LoginRequest;
      return HttpResponse.json({ token: TEST_TOKEN });
    }),
  );
  await login({ identifier: 'demo', password: 'demo-scanner' });
  expect(body).toEqual({ email: 'demo', password: 'demo-scanner' });
  expect(JSON.parse(preferences.get('user') ?? 'null')).toMatchObject({ id: 'user-1', token: TEST_TOKEN });
  expect(localStorage.getItem('user')).toBeNull();
});

test('native selections are stored in device preferences', async () => {
  await selectOrganization(testOrganization);
  expect(JSON.parse(preferences.get('selectedOrganization') ?? 'null')).toEqual(testOrganization);
  expect(localStorage.getItem('selectedOrganization')).toBeNull();
});

test('the native session check sends the stored bearer token', async () => {
  preferences.set('user', JSON.stringify(testUser));
  let authorization: string | null = null;
  server.use(
    http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
      authorization = request.headers.get('Authorization');
      return HttpResponse.json(wireUser);
    }),
  );
  const session = await checkSession();
  expect(authorization).toBe(`Bearer ${TEST_TOKEN}`);
  expect(session.user).toMatchObject({ id: 'user-1' });
});

test('a native session without a token fails with No token available for native platform and is cleared', async () => {
  const { token: _token, ...userWithoutToken } = testUser;
  preferences.set('user', JSON.stringify(userWithoutToken));
  let called = false;
  server.use(
    http.get(apiUrl(apiPaths.usersMe), () => {
      called = true;
      return HttpResponse.json(wireUser);
    }),
  );
  await expect(checkSession()).resolves.toEqual({ user: null, reason: 'no_native_token' });
  expect(called).toBe(false);
  expect(preferences.has('user')).toBe(false);
});

test('a refused native session is cleared from device preferences', async () => {
  preferences.set('user', JSON.stringify(testUser));
  server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, { code: 'unauthenticated', message: 'expired' })));
  await expect(checkSession()).resolves.toEqual({ user: null, reason: 'session_expired' });
  expect(preferences.has('user')).toBe(false);
});

test('a native start without network keeps the stored user and its token in device preferences (issue 12, decision 056)', async () => {
  preferences.set('user', JSON.stringify(testUser));
  server.use(http.get(apiUrl(apiPaths.usersMe), () => HttpResponse.error()));
  await expect(checkSession()).resolves.toEqual({ user: testUser, isUnconfirmed: true });
  expect(JSON.parse(preferences.get('user') ?? 'null')).toEqual(testUser);
});

test('native logout sends the bearer token and clears device preferences', async () => {
  preferences.set('user', JSON.stringify(testUser));
  await selectOrganization(testOrganization);
  let authorization: string | null = null;
  server.use(
    http.post(apiUrl(apiPaths.logout), ({ request }) => {
      authorization = request.headers.get('Authorization');
      return new HttpResponse(null, { status: 204 });
    }),
  );
  await logout();
  expect(authorization).toBe(`Bearer ${TEST_TOKEN}`);
  expect(preferences.size).toBe(0);
});
