/**
 * The native session at app start (SPEC §4, §8), on Capacitor's real Android bridge
 * (src/test/android-bridge.ts), with and without a network.
 */
import '@/test/android-bridge-install.ts';
import { apiPaths } from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test, vi } from 'vitest';
import { devicePreferences as preferences } from '@/test/android-bridge.ts';
import { installFakeServiceWorker } from '@/test/fake-service-worker.ts';
import { registerServiceWorker } from '@/lib/pwa/service-worker.ts';
import { TEST_TOKEN, testDay, testEvent, testOrganization, testUser, wireUser } from '@/test/fixtures.ts';
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

test('a native app start without network stays signed in at the scanner of the stored day, marked Offline (issue 12, decision 056)', async () => {
  preferences.set('user', JSON.stringify(testUser));
  server.use(http.all(apiUrl('/*'), () => HttpResponse.error()));
  const { router } = renderApp({ route: '/scanner', user: null, checkSession: true, selection: { organization: testOrganization, event: testEvent, day: testDay } });
  expect(await screen.findByText('Scanning For')).toBeInTheDocument();
  expect(await screen.findByText('Offline')).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/scanner');
  expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
  expect(JSON.parse(preferences.get('user') ?? 'null')).toEqual(testUser);
});

test('the native app registers no service worker, even where its WebView offers them: Capacitor serves the bundled files (decision 055)', async () => {
  const { register } = installFakeServiceWorker();
  try {
    expect(registerServiceWorker({ onUpdateReady: () => undefined })).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(register).not.toHaveBeenCalled();
  } finally {
    vi.unstubAllGlobals();
  }
});
