import { apiPaths } from '@gatecheck/contract';
import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { getSelection } from '@/lib/selection.ts';
import { testEvent, testOrganization } from '@/test/fixtures.ts';
import { pointerSwipe, touchSwipe } from '@/test/gestures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const withOrganization = { route: '/event-select', selection: { organization: testOrganization } };

describe('event selection (SPEC §2)', () => {
  test('without a chosen organization it redirects to organization selection', async () => {
    const { router } = renderApp({ route: '/event-select' });
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
  });

  test('shows Choose Your Event with the organization name and Loading events... while loading', async () => {
    renderApp(withOrganization);
    expect(screen.getByRole('heading', { level: 1, name: 'Choose Your Event' })).toBeInTheDocument();
    expect(screen.getByText('Harbour Festivals')).toBeInTheDocument();
    expect(screen.getByText('Loading events...')).toBeInTheDocument();
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    expect(screen.queryByText('Loading events...')).not.toBeInTheDocument();
  });

  test('loads the events of the chosen organization', async () => {
    let requested: string | undefined;
    server.use(
      http.get(apiUrl(apiPaths.organizationEvents), ({ params }) => {
        requested = String(params['organizationId']);
        return HttpResponse.json([]);
      }),
    );
    renderApp(withOrganization);
    await screen.findByText('No Events Found');
    expect(requested).toBe('org-1');
  });

  test('each card shows the name, status badge, date, location and attendee count', async () => {
    renderApp(withOrganization);
    const live = await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    expect(within(live).getByText('live')).toBeInTheDocument();
    expect(within(live).getByText('Jul 10, 2026')).toBeInTheDocument();
    expect(within(live).getByText('Pier 4, Rotterdam')).toBeInTheDocument();
    expect(within(live).getByText('1250 attendees')).toBeInTheDocument();
  });

  test('a server status other than live or draft is shown as upcoming; missing counts as 0 attendees', async () => {
    renderApp(withOrganization);
    const active = await screen.findByRole('button', { name: /Quay Jazz Night/ });
    expect(within(active).getByText('upcoming')).toBeInTheDocument();
    expect(within(active).getByText('0 attendees')).toBeInTheDocument();
    const draft = screen.getByRole('button', { name: /Winter Warm-up/ });
    expect(within(draft).getByText('draft')).toBeInTheDocument();
  });

  test('a draft event is listed but cannot be chosen, and says why (issue 15)', async () => {
    const { user, router } = renderApp(withOrganization);
    const draft = await screen.findByRole('button', { name: /Winter Warm-up/ });
    expect(draft).toBeDisabled();
    expect(within(draft).getByText('Draft — not open for scanning yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Harbour Sound 2026/ })).toBeEnabled();
    await user.click(draft);
    expect(router.state.location.pathname).toBe('/event-select');
    expect(getSelection().event).toBeNull();
  });

  test('without events it says No Events Found for this organization', async () => {
    server.use(http.get(apiUrl(apiPaths.organizationEvents), () => HttpResponse.json([])));
    renderApp(withOrganization);
    expect(await screen.findByRole('heading', { name: 'No Events Found' })).toBeInTheDocument();
    expect(screen.getByText('No events are available for this organization.')).toBeInTheDocument();
  });

  test('a failed load toasts Error / Failed to fetch events (SPEC §8)', async () => {
    server.use(http.get(apiUrl(apiPaths.organizationEvents), () => errorResponse(403, { code: 'forbidden', message: 'Not a member' })));
    renderApp(withOrganization);
    expect(await screen.findByText('Failed to fetch events')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
  });

  test('choosing an event stores it, toasts Event Selected and moves to day selection', async () => {
    const { user, router } = renderApp(withOrganization);
    await user.click(await screen.findByRole('button', { name: /Harbour Sound 2026/ }));
    expect(await screen.findByText('Event Selected')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    expect(getSelection().event).toEqual(testEvent);
    expect(JSON.parse(localStorage.getItem('selectedEvent') ?? 'null')).toEqual(testEvent);
  });

  test('back clears the chosen organization and goes to organization selection', async () => {
    const { user, router } = renderApp(withOrganization);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
    expect(getSelection().organization).toBeNull();
    expect(localStorage.getItem('selectedOrganization')).toBeNull();
  });

  test('a touch swipe from the left edge does the same as back', async () => {
    const { router } = renderApp(withOrganization);
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    act(() => touchSwipe({ x: 0, y: 300 }, { x: 150, y: 250 }));
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
    expect(getSelection().organization).toBeNull();
  });

  test('a mouse drag from the left edge does the same as back', async () => {
    const { router } = renderApp(withOrganization);
    act(() => pointerSwipe({ x: 45, y: 300 }, { x: 260, y: 300 }));
    expect(await screen.findByRole('heading', { name: 'Choose Your Organization' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/organization-select');
  });

  test('a swipe not from the edge keeps the organization and the screen', async () => {
    const { router } = renderApp(withOrganization);
    await screen.findByRole('button', { name: /Harbour Sound 2026/ });
    act(() => touchSwipe({ x: 51, y: 300 }, { x: 300, y: 300 }));
    act(() => pointerSwipe({ x: 5, y: 300 }, { x: 300, y: 100 }));
    expect(router.state.location.pathname).toBe('/event-select');
    expect(getSelection().organization).toEqual(testOrganization);
  });

  test('logout clears the organization and goes to /login', async () => {
    const { user, router } = renderApp(withOrganization);
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Gatecheck Scanner' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSelection().organization).toBeNull();
    expect(localStorage.getItem('selectedOrganization')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
