/** The native session at app start (SPEC §4, §8), through the `lib/native` boundary only. */
import { apiPaths } from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test, vi } from 'vitest';
import { TEST_TOKEN, testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const preferences = vi.hoisted(() => new Map<string, string>());

vi.mock('@/lib/native/platform.ts', () => ({ isNativePlatform: () => true }));
vi.mock('@/lib/native/preferences.ts', () => ({
  preferencesGet: async (key: string) => preferences.get(key) ?? null,
  preferencesSet: async (key: string, value: string) => void preferences.set(key, value),
  preferencesRemove: async (key: string) => void preferences.delete(key),
}));

beforeEach(() => preferences.clear());

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
