import { apiPaths, type CheckInList, type CheckInLists, type ScanLogPage } from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { getSelection } from '@/lib/selection.ts';
import { testDay, testEvent, testEventWithoutDays, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

afterEach(() => {
  vi.useRealTimers();
});

describe('day selection (SPEC §2)', () => {
  test('without a chosen event it redirects to event selection', async () => {
    const { router } = renderApp({ route: '/day-select', selection: { organization: testOrganization } });
    expect(await screen.findByRole('heading', { name: 'Choose Your Event' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/event-select');
  });

  test('shows the heading, the instruction and the event title and location', () => {
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(screen.getByRole('heading', { level: 1, name: 'Select Event Day' })).toBeInTheDocument();
    expect(screen.getByText('Choose which day you want to scan tickets for')).toBeInTheDocument();
    expect(screen.getByText('Harbour Sound 2026')).toBeInTheDocument();
    expect(screen.getByText('Pier 4, Rotterdam')).toBeInTheDocument();
  });

  test('lists each day with its name, Day {n} and a long-form date', () => {
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    const days = screen.getAllByRole('button', { name: /Day \d/ });
    expect(days).toHaveLength(3);
    const saturday = screen.getByRole('button', { name: /Big Saturday/ });
    expect(within(saturday).getByText('Day 2')).toBeInTheDocument();
    expect(within(saturday).getByText('Saturday, July 11, 2026')).toBeInTheDocument();
  });

  test('choosing a day stores it, toasts Day Selected and opens the scanner', async () => {
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    await user.click(screen.getByRole('button', { name: /Big Saturday/ }));
    expect(await screen.findByText('Day Selected')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/scanner');
    expect(getSelection().day).toEqual(testDay);
    expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual(testDay);
  });

  test('an event without days says No Event Days and continues with day 1, the event date, Main Event', async () => {
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEventWithoutDays } });
    expect(screen.getByRole('heading', { name: 'No Event Days' })).toBeInTheDocument();
    expect(screen.getByText("This event doesn't have specific days configured.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue to Scanner' }));
    expect(await screen.findByText('Day Selected')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/scanner');
    expect(getSelection().day).toEqual({ day: 1, date: '2026-08-01', name: 'Main Event' });
  });

  test("the day that is today on the event's clock is marked Today, and only that one; the other days warn (issue 15)", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Saturday 11 Jul 2026, 11:30 in Amsterdam (the event's zone).
    vi.setSystemTime(new Date('2026-07-11T09:30:00Z'));
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    const saturday = screen.getByRole('button', { name: /Big Saturday/ });
    expect(within(saturday).getByText('Today')).toBeInTheDocument();
    expect(within(saturday).queryByRole('note')).toBeNull();
    expect(screen.getAllByText('Today')).toHaveLength(1);
    expect(within(screen.getByRole('button', { name: /Opening Friday/ })).getByRole('note')).toHaveTextContent(
      'Not today — Day 1 (Opening Friday) was Fri 10 Jul. Today is Day 2, Sat 11 Jul. Tickets will be denied.',
    );
  });

  test("today's day comes first, marked Today, the other days after it by date; with no day today, by date (decision 093)", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const dayNames = () => screen.getAllByRole('listitem').map((item) => within(item).getByText(/^Day \d$/).textContent);
    // Saturday 11 Jul 2026, 11:30 in Amsterdam: Day 2 is today.
    vi.setSystemTime(new Date('2026-07-11T09:30:00Z'));
    const { unmount } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(dayNames()).toEqual(['Day 2', 'Day 1', 'Day 3']);
    expect(within(screen.getAllByRole('listitem')[0] ?? document.body).getByText('Today')).toBeInTheDocument();
    unmount();
    // A week before the event: no day is today.
    vi.setSystemTime(new Date('2026-07-03T09:30:00Z'));
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(dayNames()).toEqual(['Day 1', 'Day 2', 'Day 3']);
    expect(screen.queryByText('Today')).toBeNull();
  });

  test("a supervisor's first visit (no day chosen yet) offers Supervisor tools for today's day, and choosing it selects that day", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-07-11T09:30:00Z'));
    server.use(http.get(apiUrl(`/events/${testEvent.id}/scan-log`), () => HttpResponse.json<ScanLogPage>({ entries: [], nextCursor: null })));
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent } });
    await user.click(screen.getByRole('link', { name: 'Supervisor tools (Day 2)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/supervisor'));
    expect(getSelection().day).toEqual(testDay);
    expect(await screen.findByRole('heading', { level: 1, name: 'Supervisor tools' })).toBeInTheDocument();
  });

  test("a supervisor's first visit to an event with several lists: Supervisor tools asks for the list first (no 'lists added' words, no tools opened without a list), then opens the tools at it (docs/decisions/109, 151)", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-07-11T09:30:00Z'));
    const lists: CheckInList[] = [
      { id: '11111111-1111-4111-8111-111111111111', name: 'Main entrance', position: 1, ticketTypes: null, days: null },
      { id: '22222222-2222-4222-8222-222222222222', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null },
    ];
    let scanLogReads = 0;
    server.use(
      http.get(apiUrl(apiPaths.checkInLists), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists })),
      http.get(apiUrl(`/events/${testEvent.id}/scan-log`), () => {
        scanLogReads += 1;
        return HttpResponse.json<ScanLogPage>({ entries: [], nextCursor: null });
      }),
    );
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent } });
    await user.click(screen.getByRole('link', { name: 'Supervisor tools (Day 2)' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    expect(getSelection().day).toEqual({ ...testDay, checkInList: null });
    // The tools never opened at the event's first list behind the question.
    expect(scanLogReads).toBe(0);
    expect(screen.queryByText('This event now has several check-in lists')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'VIP Gate' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Supervisor tools' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/supervisor');
    expect(screen.queryByText('This event now has several check-in lists')).not.toBeInTheDocument();
    await waitFor(() => expect(scanLogReads).toBeGreaterThan(0));
    // Stored, not only shown: no write of the selection outlives the test.
    await waitFor(() => expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: { id: lists[1]?.id, name: 'VIP Gate' } }));
  });

  test('with no day today and none chosen, no Supervisor tools link: there is no day to open them for', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-09-01T09:30:00Z'));
    renderApp({ route: '/day-select', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent } });
    expect(screen.queryByRole('link', { name: /Supervisor tools/ })).not.toBeInTheDocument();
  });

  test("before the cut-off, the night before is still today at the event, whatever the device's date (issue 15)", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Saturday 05:30 in Amsterdam: Friday's night still runs until 06:00.
    vi.setSystemTime(new Date('2026-07-11T03:30:00Z'));
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(within(screen.getByRole('button', { name: /Opening Friday/ })).getByText('Today')).toBeInTheDocument();
    expect(screen.getAllByText('Today')).toHaveLength(1);
  });

  test('back goes to event selection', async () => {
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Choose Your Event' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/event-select');
  });
});
