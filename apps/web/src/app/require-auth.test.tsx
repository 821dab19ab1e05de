import { apiPaths } from '@gatecheck/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { paths } from '@/config/paths.ts';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp, renderWithProviders } from '@/test/render.tsx';
import { RequireAuth } from './require-auth.tsx';

describe('the route guard (SPEC §2, §6)', () => {
  test('shows Loading... full-screen while the session is checked', async () => {
    let release: () => void = () => {};
    server.use(
      http.get(apiUrl(apiPaths.usersMe), async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return HttpResponse.json(wireUser);
      }),
    );
    await writeStoredUser(testUser);
    renderApp({ route: '/organization-select', user: null, checkSession: true });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByRole('heading', { name: 'Choose Your Organization' })).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
  });

  test.each([paths.organizationSelect, paths.eventSelect, paths.daySelect, paths.scanner])('a visitor who is not signed in is sent from %s to /login', async (route) => {
    const { router } = renderApp({ route, user: null });
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  test('an expired session deletes the stored user and sends the visitor to /login with Session expired', async () => {
    server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, { code: 'unauthenticated', message: 'expired' })));
    await writeStoredUser(testUser);
    const { router } = renderApp({ route: '/event-select', user: null, checkSession: true });
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText('Session expired')).toBeInTheDocument();
    expect(localStorage.getItem('user')).toBeNull();
  });

  test('an unreachable server at start keeps the stored user signed in, marked Offline (issue 12, decision 056)', async () => {
    // No call gets an answer (a list call answered would rightly turn 'Offline' off for a moment).
    server.use(http.all(apiUrl('/*'), () => HttpResponse.error()));
    await writeStoredUser(testUser);
    const { router } = renderApp({ route: '/organization-select', user: null, checkSession: true });
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(await screen.findByText('Offline')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
    expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
    expect(localStorage.getItem('user')).not.toBeNull();
  });

  test('the login route can be overridden', async () => {
    const routeObjects = { route: '/private', user: null };
    const { router } = renderWithProviders(<RequireAuth redirectTo="/welcome" />, routeObjects);
    expect(await screen.findByRole('heading', { name: 'Test page /welcome' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/welcome');
  });
});
