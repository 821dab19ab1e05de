import { apiPaths } from '@gatecheck/contract';
import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { getSelection } from '@/lib/selection.ts';
import { testDay, testEvent, testOrganization, testUser } from '@/test/fixtures.ts';
import { pointerSwipe, touchSwipe } from '@/test/gestures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

describe('organization selection (SPEC §2)', () => {
  test('shows the heading and, while loading, Loading organizations...', async () => {
    renderApp({ route: '/organization-select' });
    expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(screen.getByText('Loading organizations...')).toBeInTheDocument();
    await screen.findByRole('button', { name: /Harbour Festivals/ });
    expect(screen.queryByText('Loading organizations...')).not.toBeInTheDocument();
  });

  test('each card shows the name, the role as a badge, the description and the active event count', async () => {
    renderApp({ route: '/organization-select' });
    const harbour = await screen.findByRole('button', { name: /Harbour Festivals/ });
    expect(within(harbour).getByText('staff')).toBeInTheDocument();
    expect(within(harbour).getByText('Open-air concerts at the harbour')).toBeInTheDocument();
    expect(within(harbour).getByText('2 active events')).toBeInTheDocument();
    const theatre = screen.getByRole('button', { name: /City Theatre/ });
    expect(within(theatre).getByText('admin')).toBeInTheDocument();
    expect(within(theatre).getByText('1 active event')).toBeInTheDocument();
  });

  test('without organizations it says No Organizations Found and to contact the administrator', async () => {
    server.use(http.get(apiUrl(apiPaths.organizations), () => HttpResponse.json([])));
    renderApp({ route: '/organization-select' });
    expect(await screen.findByRole('heading', { name: 'No Organizations Found' })).toBeInTheDocument();
    expect(screen.getByText('Contact your administrator to get access to organizations.')).toBeInTheDocument();
  });

  test('a failed load toasts Error / Could not load organizations (SPEC §8)', async () => {
    server.use(http.get(apiUrl(apiPaths.organizations), () => errorResponse(500, { code: 'internal_error', message: 'Internal error' })));
    renderApp({ route: '/organization-select' });
    expect(await screen.findByText('Could not load organizations')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.queryByText('No Organizations Found')).not.toBeInTheDocument();
  });

  test('choosing an organization stores it, toasts Organization Selected and moves to event selection', async () => {
    const { user, router } = renderApp({ route: '/organization-select' });
    await user.click(await screen.findByRole('button', { name: /Harbour Festivals/ }));
    expect(await screen.findByText('Organization Selected')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/event-select');
    expect(getSelection().organization).toEqual(testOrganization);
    expect(JSON.parse(localStorage.getItem('selectedOrganization') ?? 'null')).toEqual(testOrganization);
  });

  test('the back button goes to /login, which sends a signed-in user on again', async () => {
    const { user, visited } = renderApp({ route: '/organization-select' });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(visited).toEqual(['/organization-select', '/login', '/organization-select']);
  });

  test('a touch swipe from the left edge goes to /login', async () => {
    const { visited } = renderApp({ route: '/organization-select' });
    await screen.findByRole('button', { name: /Harbour Festivals/ });
    act(() => touchSwipe({ x: 10, y: 400 }, { x: 200, y: 420 }));
    expect(visited).toContain('/login');
  });

  test('a mouse drag from the left edge goes to /login', async () => {
    const { visited } = renderApp({ route: '/organization-select' });
    act(() => pointerSwipe({ x: 30, y: 400 }, { x: 140, y: 380 }));
    expect(visited).toContain('/login');
  });

  test('a swipe that starts away from the edge, is short or drifts stays on the screen', async () => {
    const { visited } = renderApp({ route: '/organization-select' });
    act(() => touchSwipe({ x: 60, y: 400 }, { x: 300, y: 400 }));
    act(() => touchSwipe({ x: 10, y: 400 }, { x: 110, y: 400 }));
    act(() => pointerSwipe({ x: 10, y: 400 }, { x: 300, y: 500 }));
    expect(visited).toEqual(['/organization-select']);
  });

  test('logout calls the server, clears the user and every selection, and goes to /login', async () => {
    let loggedOut = false;
    server.use(
      http.post(apiUrl(apiPaths.logout), () => {
        loggedOut = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, router, visited } = renderApp({ route: '/organization-select', user: testUser, selection: { organization: testOrganization, event: testEvent, day: testDay } });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(visited).toEqual(['/organization-select', '/login']);
    expect(loggedOut).toBe(true);
    expect(localStorage.length).toBe(0);
    expect(getSelection()).toEqual({ organization: null, event: null, day: null });
  });

  test('logout still signs out when the server cannot be reached', async () => {
    server.use(http.post(apiUrl(apiPaths.logout), () => HttpResponse.error()));
    const { user, router } = renderApp({ route: '/organization-select' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('user')).toBeNull();
  });
});
