/** The session store outside the query cache (docs/decisions/098), against MSW's server. */
import { apiPaths } from '@gatecheck/contract';
import { delay, http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { createQueryClient } from '@/lib/query-client.ts';
import { readyQueryClient } from '@/lib/query-client-slot.ts';
import { isServerUnreachable } from '@/lib/reachability.ts';
import { readStoredUser, writeStoredUser } from '@/lib/stored-user.ts';
import { testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { createSessionStore } from './session-store.ts';

test('the stored user is checked once however often the check is asked for, and the session follows the answer', async () => {
  let checks = 0;
  server.use(
    http.get(apiUrl(apiPaths.usersMe), () => {
      checks += 1;
      return HttpResponse.json(wireUser);
    }),
  );
  await writeStoredUser(testUser);
  const store = createSessionStore({ queryClient: readyQueryClient(createQueryClient({ retry: false })) });
  const seen: string[] = [];
  store.subscribe(() => seen.push(store.getState().status));
  expect(store.getState().status).toBe('loading');
  await Promise.all([store.check(), store.check()]);
  await store.check();
  expect(checks).toBe(1);
  expect(store.getState()).toMatchObject({ status: 'authenticated', user: { id: testUser.id }, isUnconfirmed: false });
  expect(seen).toEqual(['authenticated']);
});

test('a check stopped before its answer changes nothing, even an answer that would have ended the session', async () => {
  server.use(
    http.get(apiUrl(apiPaths.usersMe), async () => {
      await delay(50);
      return errorResponse(401, { code: 'unauthenticated', message: 'expired' });
    }),
  );
  await writeStoredUser(testUser);
  const store = createSessionStore({ queryClient: readyQueryClient(createQueryClient({ retry: false })) });
  const check = store.check();
  store.cancelCheck();
  await check;
  await delay(100);
  expect(store.getState().status).toBe('loading');
  expect(await readStoredUser()).toEqual(testUser);
  expect(isServerUnreachable()).toBe(false);
  // The next check runs afresh and ends the session.
  await store.check();
  expect(store.getState()).toEqual({ status: 'unauthenticated', user: null, reason: 'session_expired' });
  expect(await readStoredUser()).toBeNull();
});

test("signing in forgets the previous user's cached answers, then signs in; logout and expiry sign out and forget them too", async () => {
  const queryClient = createQueryClient({ retry: false });
  const store = createSessionStore({ queryClient: readyQueryClient(queryClient), initial: { user: null } });
  queryClient.setQueryData(['organizations'], ['left by the previous user']);
  let cachedAtBeforeSignIn: unknown = 'not run';
  await store.signIn({ identifier: 'demo', password: 'demo-scanner' }, { beforeSignIn: async () => void (cachedAtBeforeSignIn = queryClient.getQueryData(['organizations'])) });
  expect(cachedAtBeforeSignIn).toBeUndefined();
  expect(store.getState()).toMatchObject({ status: 'authenticated', user: { id: testUser.id } });

  queryClient.setQueryData(['organizations'], ['this user']);
  await store.expire();
  expect(store.getState()).toEqual({ status: 'unauthenticated', user: null, reason: 'session_expired' });
  expect(queryClient.getQueryData(['organizations'])).toBeUndefined();
  expect(await readStoredUser()).toBeNull();

  await store.signIn({ identifier: 'demo', password: 'demo-scanner' });
  queryClient.setQueryData(['organizations'], ['this user']);
  await store.signOut();
  expect(store.getState()).toEqual({ status: 'unauthenticated', user: null });
  expect(queryClient.getQueryData(['organizations'])).toBeUndefined();
});

test('a failed sign-in leaves the session signed out and rejects with the failure', async () => {
  server.use(http.post(apiUrl(apiPaths.login), () => errorResponse(401, { code: 'invalid_credentials', message: 'Invalid credentials' })));
  const store = createSessionStore({ queryClient: readyQueryClient(createQueryClient({ retry: false })), initial: { user: null } });
  await expect(store.signIn({ identifier: 'demo', password: 'wrong' })).rejects.toThrow('Invalid credentials');
  expect(store.getState()).toEqual({ status: 'unauthenticated', user: null });
});
