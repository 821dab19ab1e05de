/** The native session at app start (SPEC §4, §8), on Capacitor's real Android bridge (src/test/android-bridge.ts). */
import '@/test/android-bridge-install.ts';
import { apiPaths } from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { devicePreferences as preferences } from '@/test/android-bridge.ts';
import { TEST_TOKEN, testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

test('a native app start with a stored user but no token signs out with No token available for native platform', async () => {
  const { token: _token, ...withoutToken } = testUser;
  preferences.set('user', JSON.stringify(withoutToken));
  const { router } = renderApp({ route: '/organization-select', user: null, checkSession: true });
  expect(await screen.findByText('No token available for native platform')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  expect(preferences.has('user')).toBe(false);
});

test('a native app start with a stored token checks it as a bearer token and signs in', async () => {
  preferences.set('user', JSON.stringify(testUser));
  let authorization: string | null = null;
  server.use(
    http.get(apiUrl(apiPaths.usersMe), ({ request }) => {
      authorization = request.headers.get('Authorization');
      return HttpResponse.json(wireUser);
    }),
  );
  renderApp({ route: '/organization-select', user: null, checkSession: true });
  expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  expect(authorization).toBe(`Bearer ${TEST_TOKEN}`);
});
