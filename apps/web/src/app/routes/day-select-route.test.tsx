import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { getSelection } from '@/lib/selection.ts';
import { testDay, testEvent, testEventWithoutDays, testOrganization } from '@/test/fixtures.ts';
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

  test('the day that falls on the device\'s date today is marked Today, and only that one', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 6, 11, 9, 30));
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    expect(within(screen.getByRole('button', { name: /Big Saturday/ })).getByText('Today')).toBeInTheDocument();
    expect(screen.getAllByText('Today')).toHaveLength(1);
  });

  test('back goes to event selection', async () => {
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: 'Choose Your Event' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/event-select');
  });
});
