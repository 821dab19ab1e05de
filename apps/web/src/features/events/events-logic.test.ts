import { describe, expect, test } from 'vitest';
import { wireEvents } from '@/test/fixtures.ts';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import { attendeesLabel, closedReason, statusBadgeClasses, statusText, toDisplayStatus, toEventItem } from './events-logic.ts';

describe('event status shown (SPEC §4)', () => {
  test('live and draft are shown as they are', () => {
    expect(toDisplayStatus('live')).toBe('live');
    expect(toDisplayStatus('draft')).toBe('draft');
  });

  test('any other server status is shown as upcoming', () => {
    for (const status of ['upcoming', 'active', 'completed', 'cancelled', 'LIVE', '']) {
      expect(toDisplayStatus(status)).toBe('upcoming');
    }
  });

  test('badge colours exist for live, upcoming, active, completed and draft, each different', () => {
    const keys = ['live', 'upcoming', 'active', 'completed', 'draft'] as const;
    for (const key of keys) expect(statusBadgeClasses[key]).toMatch(/bg-/);
    expect(new Set(keys.map((key) => statusBadgeClasses[key])).size).toBe(keys.length);
  });
});

describe('event mapping (SPEC §3)', () => {
  test('maps title to name and ticketsSold to attendeeCount', () => {
    const [first] = wireEvents;
    if (!first) throw new Error('fixture missing');
    expect(toEventItem(first)).toEqual({
      id: 'event-1',
      name: 'Harbour Sound 2026',
      description: 'Three days of music',
      date: '2026-07-10',
      location: 'Pier 4, Rotterdam',
      attendeeCount: 1250,
      status: 'live',
      eventDays: first.eventDays,
      timeZone: 'Europe/Amsterdam',
      dayCutoff: '06:00',
      allowsScanningOutsideDays: false,
      closedStatus: null,
    });
  });

  test("an event without a calendar on the wire gets the server's defaults: UTC, 06:00, only on its days", () => {
    expect(toEventItem({ _id: 'e', title: 'T', date: '2026-01-01', status: 'live' })).toMatchObject({
      timeZone: 'UTC',
      dayCutoff: '06:00',
      allowsScanningOutsideDays: false,
    });
  });

  test('draft, completed and cancelled events say why they cannot be scanned; the others can be (issue 15)', () => {
    expect(closedReason('draft')).toBe('Draft — not open for scanning yet');
    expect(closedReason('completed')).toBe('Completed — this event has ended');
    expect(closedReason('cancelled')).toBe('Cancelled — this event will not take place');
    for (const status of ['live', 'upcoming', 'active']) expect(closedReason(status)).toBeNull();
    expect(toEventItem({ _id: 'e', title: 'T', date: '2026-01-01', status: 'cancelled' }).closedStatus).toBe('cancelled');
  });

  test('status badges and closed reasons are worded in the active language; English is SPEC §4 (decision 050)', async () => {
    expect(['live', 'draft', 'upcoming'].map((status) => statusText(toDisplayStatus(status)))).toEqual(['live', 'draft', 'upcoming']);
    await chooseLanguage('de');
    try {
      expect(['live', 'draft', 'upcoming'].map((status) => statusText(toDisplayStatus(status)))).toEqual(['Live', 'Entwurf', 'Demnächst']);
      expect(closedReason('completed')).toBe('Beendet — diese Veranstaltung ist vorbei');
    } finally {
      await chooseLanguage('en');
    }
  });

  test('an event without ticketsSold has 0 attendees and without eventDays has no days', () => {
    const event = toEventItem({ _id: 'e', title: 'T', date: '2026-01-01', status: 'completed', ticketsSold: null, eventDays: null });
    expect(event.attendeeCount).toBe(0);
    expect(event.eventDays).toEqual([]);
    expect(event.status).toBe('upcoming');
    expect(event.location).toBe('');
    expect(event.description).toBe('');
  });

  test('attendee counts read naturally', () => {
    expect(attendeesLabel(1)).toBe('1 attendee');
    expect(attendeesLabel(250)).toBe('250 attendees');
  });
});
