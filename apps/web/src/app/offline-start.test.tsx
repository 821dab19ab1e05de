/**
 * The app starting without a server (issue 12 item 1, docs/decisions/056): the stored user stays
 * signed in when the session check gets no answer, the 'Offline' indicator shows, the lists kept in
 * IndexedDB fill the choice screens, and only a real 401 signs out. The browser's IndexedDB is
 * fake-indexeddb's (jsdom has none); the server is MSW.
 */
import 'fake-indexeddb/auto';
import { apiPaths } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { createQueryClient } from '@/lib/query-client.ts';
import { isServerUnreachable } from '@/lib/reachability.ts';
import { readStoredUser } from '@/lib/stored-user.ts';
import { testDay, testEvent, testOrganization, testUser, wireUser } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

/** Every call of the app gets no answer, as with the server process stopped. */
const serverDown = () => server.use(http.all(apiUrl('/*'), () => HttpResponse.error()));

const atScanner = { organization: testOrganization, event: testEvent, day: testDay };

test('with the server down, a reload starts signed in at the scanner of the chosen day, marked Offline', async () => {
  serverDown();
  const { router } = renderApp({ route: '/scanner', checkSession: true, selection: atScanner });

  expect(await screen.findByText('Scanning For')).toBeInTheDocument();
  expect(screen.getByText(testEvent.name)).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/scanner');
  expect(await screen.findByText('Offline')).toBeInTheDocument();
  expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
  expect(await readStoredUser()).toEqual(testUser);
  expect(isServerUnreachable()).toBe(true);
});

test('when the server answers again the indicator goes, and the session is confirmed', async () => {
  let isDown = true;
  let sessionChecks = 0;
  server.use(
    http.all(apiUrl('/*'), () => (isDown ? HttpResponse.error() : undefined)),
    http.get(apiUrl(apiPaths.usersMe), () => {
      sessionChecks += 1;
      return HttpResponse.json(wireUser);
    }),
  );
  // The first session check meets the server down (a handler registered later runs first).
  server.use(http.get(apiUrl(apiPaths.usersMe), () => (isDown ? HttpResponse.error() : undefined)));
  const { router } = renderApp({ route: '/scanner', checkSession: true, selection: atScanner });
  expect(await screen.findByText('Offline')).toBeInTheDocument();
  expect(sessionChecks).toBe(0);

  isDown = false;
  // The indicator probes GET /api/health every 5 s; the first answer turns it off.
  await waitFor(() => expect(screen.queryByText('Offline')).not.toBeInTheDocument(), { timeout: 12_000 });
  await waitFor(() => expect(sessionChecks).toBe(1));
  expect(router.state.location.pathname).toBe('/scanner');
  expect(await readStoredUser()).toEqual(testUser);
}, 20_000);

test('an offline start whose server later answers 401 is signed out with Session expired', async () => {
  let isDown = true;
  server.use(http.all(apiUrl('/*'), () => (isDown ? HttpResponse.error() : undefined)));
  server.use(http.get(apiUrl(apiPaths.usersMe), () => (isDown ? HttpResponse.error() : errorResponse(401, { code: 'unauthenticated', message: 'Sign in first' }))));
  const { router } = renderApp({ route: '/scanner', checkSession: true, selection: atScanner });
  expect(await screen.findByText('Scanning For')).toBeInTheDocument();

  isDown = false;
  expect(await screen.findByText('Session expired', { selector: '[role=status]' }, { timeout: 12_000 })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  expect(await readStoredUser()).toBeNull();
}, 20_000);

test('a 401 at start signs out at once and deletes the stored user (SPEC §4, §8)', async () => {
  server.use(http.get(apiUrl(apiPaths.usersMe), () => errorResponse(401, { code: 'unauthenticated', message: 'Sign in first' })));
  const { router } = renderApp({ route: '/scanner', checkSession: true, selection: atScanner });
  expect(await screen.findByText('Session expired', { selector: '[role=status]' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
  expect(screen.queryByText('Offline')).not.toBeInTheDocument();
  expect(await readStoredUser()).toBeNull();
});

test('the organizations and events seen online are listed again when the app starts offline', async () => {
  const online = renderApp({ route: '/organization-select', selection: { organization: testOrganization } });
  expect(await screen.findByText('Harbour Festivals')).toBeInTheDocument();
  await online.router.navigate('/event-select');
  expect(await screen.findByText('Harbour Sound 2026')).toBeInTheDocument();
  online.unmount();

  // A new start: nothing in memory, the server down.
  serverDown();
  const offline = renderApp({ route: '/organization-select', checkSession: true, queryClient: createQueryClient({ retry: false }) });
  expect(await screen.findByText('Harbour Festivals')).toBeInTheDocument();
  expect(screen.getByText('City Theatre')).toBeInTheDocument();
  expect(await screen.findByText('Offline')).toBeInTheDocument();
  await offline.router.navigate('/event-select');
  expect(await screen.findByText('Harbour Sound 2026')).toBeInTheDocument();
});

test('the kept lists are deleted at sign-out, so the next person on the device sees none of them offline', async () => {
  const online = renderApp({ route: '/organization-select' });
  expect(await screen.findByText('Harbour Festivals')).toBeInTheDocument();
  await online.user.click(screen.getByRole('button', { name: /Log ?out/i }));
  await waitFor(() => expect(online.router.state.location.pathname).toBe('/login'));
  online.unmount();

  serverDown();
  renderApp({ route: '/organization-select', queryClient: createQueryClient({ retry: false }) });
  expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
  expect(screen.queryByText('Harbour Festivals')).not.toBeInTheDocument();
});
