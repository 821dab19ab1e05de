import type { AuditEntry, EventSnapshot, OrganizationAuditEntry } from '@gatecheck/contract';
import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { canManage } from './manage-access.ts';
import { changeLines, changeLineWords, checkEventForm, newEventForm, nextDayRow, organizationChangeLines, refusalOf, todayOnDevice } from './manage-logic.ts';

describe('canManage', () => {
  test('admins only; unknown roles count as staff', () => {
    expect(canManage('admin')).toBe(true);
    expect(canManage('supervisor')).toBe(false);
    expect(canManage('staff')).toBe(false);
    expect(canManage('owner')).toBe(false);
  });
});

describe('the event form', () => {
  test('a new form is a draft on the given day, and Add day numbers on and takes the next date', () => {
    const form = newEventForm('2026-12-31', 'Europe/Berlin');
    expect(form).toMatchObject({ status: 'draft', date: '2026-12-31', timeZone: 'Europe/Berlin', dayCutoff: '06:00', days: [] });
    const first = nextDayRow(form);
    expect([first.day, first.date]).toEqual(['1', '2026-12-31']);
    const second = nextDayRow({ ...form, days: [first] });
    expect([second.day, second.date]).toEqual(['2', '2027-01-01']);
  });

  test("is checked with the contract's schema: each field's problem in words, keyed by its path", () => {
    const form = newEventForm('2026-12-04', 'UTC');
    const checked = checkEventForm({
      ...form,
      title: ' ',
      dayCutoff: '24:00',
      days: [
        { key: 'a', day: '1', name: 'Friday', date: '2026-12-04', checkIns: 0 },
        { key: 'b', day: '1', name: '', date: '2026-02-30', checkIns: 0 },
        { key: 'c', day: 'x', name: 'Sunday', date: '2026-12-06', checkIns: 0 },
      ],
    });
    expect(checked.problems).toEqual({
      title: 'Give the event a title.',
      dayCutoff: 'Use a time as HH:MM, e.g. 06:00.',
      'days.1.name': 'Give the day a name.',
      'days.1.date': 'Choose a date that exists.',
      'days.1.day': 'Another day has this number.',
      'days.2.day': 'Use a whole number from 1 to 999.',
    });
  });

  test('a good form becomes the request, trimmed, with day numbers as numbers', () => {
    const checked = checkEventForm({ ...newEventForm('2026-12-04', 'UTC'), title: '  Pier Nights ', days: [{ key: 'a', day: '2', name: 'Late', date: '2026-12-05', checkIns: 0 }] });
    expect(checked.request).toMatchObject({ title: 'Pier Nights', days: [{ day: 2, name: 'Late', date: '2026-12-05' }] });
  });

  test("the venue's capacity: empty is none, a whole number is sent, 0 or words are refused in words next to the field", () => {
    const form = newEventForm('2026-12-04', 'UTC');
    expect(form.capacity).toBe('');
    expect(checkEventForm({ ...form, title: 'Pier Nights' }).request).toMatchObject({ capacity: null });
    expect(checkEventForm({ ...form, title: 'Pier Nights', capacity: ' 1200 ' }).request).toMatchObject({ capacity: 1200 });
    for (const typed of ['0', '-5', 'many', '2.5']) {
      expect(checkEventForm({ ...form, title: 'Pier Nights', capacity: typed }).problems, typed).toEqual({ capacity: 'Use a whole number of guests from 1 to 100000, or leave it empty.' });
    }
  });

  test('today on the device is its local calendar date', () => {
    expect(todayOnDevice(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

test("a refusal is placed on the field the server named, in the server's words", () => {
  const refusal = refusalOf(new ApiError(409, 'conflict', 'Day 2 (Saturday) has 3 check-ins and cannot be removed.', undefined, 'body.days'));
  expect(refusal).toEqual({ field: 'days', text: 'Day 2 (Saturday) has 3 check-ins and cannot be removed.' });
  expect(refusalOf(new ApiError(0, 'network_error', 'Failed to fetch'))).toEqual({ field: null, text: 'No connection to the server. Check the network and try again.' });
});

test('an activity entry lists only what changed, each before and after; a creation lists what was set', () => {
  const before: EventSnapshot = { title: 'A', description: '', date: '2026-12-04', location: '', status: 'draft', timeZone: 'UTC', dayCutoff: '06:00', allowsScanningOutsideDays: false, days: [], archivedAt: null };
  const updated: AuditEntry = { id: '1', at: '2026-11-27T10:00:00.000Z', actor: { kind: 'user', name: 'Dana' }, action: 'event.updated', before, after: { ...before, status: 'live', allowsScanningOutsideDays: true, days: [{ day: 1, name: 'Fri', date: '2026-12-04' }] } };
  expect(changeLines(updated).map((line) => [line.label, line.before, line.after])).toEqual([
    ['Status', 'Draft', 'Live'],
    ['Scan outside the event days', 'Off', 'On'],
    ['Days', 'One day, on the event date', '1. Fri (2026-12-04)'],
  ]);
  const capacitySet: AuditEntry = { ...updated, before, after: { ...before, capacity: 1200 } };
  expect(changeLines(capacitySet).map((line) => [line.label, line.before, line.after])).toEqual([['Venue capacity', '—', '1200']]);
  const created: AuditEntry = { ...updated, action: 'event.created', before: null, after: before };
  expect(changeLines(created).map((line) => line.label)).toEqual(['Title', 'Date', 'Status', 'Time zone', 'Day ends at (next morning)', 'Scan outside the event days', 'Days']);
});

test("an organization entry's lines read 'before → after' only for what changed; who it is about reads once", () => {
  /** The entry's lines as the Activity page shows them: label and words (isChange as its route decides). */
  const shown = (entry: OrganizationAuditEntry) =>
    organizationChangeLines(entry).map((line) => [line.label, changeLineWords(line, entry.before !== null && entry.after !== null)]);
  const member = { userId: 'u1', name: 'Nadia Door', email: 'nadia@example.org', role: 'staff' };
  const entry = (action: OrganizationAuditEntry['action'], before: OrganizationAuditEntry['before'], after: OrganizationAuditEntry['after']): OrganizationAuditEntry => ({
    id: '1',
    at: '2026-11-28T06:35:00.000Z',
    actor: { kind: 'user', name: 'Demo Staff' },
    action,
    before,
    after,
  });
  expect(shown(entry('member.role_changed', member, { ...member, role: 'supervisor' }))).toEqual([
    ['Name', 'Nadia Door'],
    ['E-mail address', 'nadia@example.org'],
    ['Role', 'Staff → Supervisor'],
  ]);
  // The used invitation's after names the account, not the address again: the address reads once.
  expect(shown(entry('invitation.accepted', { invitationId: 'i1', email: member.email, role: 'staff' }, { userId: 'u1', role: 'staff' }))).toEqual([['E-mail address', 'nadia@example.org']]);
  // A removal says what it removed.
  expect(shown(entry('member.removed', member, null))).toEqual([
    ['Name', 'Nadia Door'],
    ['E-mail address', 'nadia@example.org'],
    ['Role', 'Staff'],
  ]);
  // A change that clears a value still says so.
  expect(changeLineWords({ field: 'description', label: 'Description', before: 'Old', after: '—' }, true)).toBe('Old → —');
});
