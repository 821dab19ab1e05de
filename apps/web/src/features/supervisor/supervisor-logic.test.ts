import type { Attendee, ScanLogEntry } from '@gatecheck/contract';
import { expect, test } from 'vitest';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import { admitsSelectedDay, admittedDaysText, attendeeStatusText, canUseSupervisorTools, scanLogVerdictText } from './supervisor-logic.ts';

test('only supervisors and admins see the supervisor tools; unknown roles do not (issue 11)', () => {
  expect(canUseSupervisorTools('supervisor')).toBe(true);
  expect(canUseSupervisorTools('admin')).toBe(true);
  expect(canUseSupervisorTools('staff')).toBe(false);
  expect(canUseSupervisorTools('guest')).toBe(false);
  expect(canUseSupervisorTools('')).toBe(false);
});

const attendee: Attendee = { ticketId: 't', code: 'C', holderName: 'H', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: 2, checkIn: null };

test("an attendee's days and status for the selected day in words", () => {
  expect(admittedDaysText(null)).toBe('All days');
  expect(admittedDaysText([2])).toBe('Day 2');
  expect(admittedDaysText([1, 3])).toBe('Days 1, 3');
  // Its own days and its type's share none (docs/decisions/125): the server answers [].
  expect(admittedDaysText([])).toBe('No day');
  expect(attendeeStatusText({ ...attendee, admittedDays: [] })).toBe('Not valid on Day 2');
  expect(attendeeStatusText(attendee)).toBe('Not checked in');
  expect(attendeeStatusText({ ...attendee, admittedDays: [2, 3] })).toBe('Not checked in');
  // A ticket for other days than the selected one (2): a check-in would be denied.
  expect(attendeeStatusText({ ...attendee, admittedDays: [1] })).toBe('Not valid on Day 2');
  expect(admitsSelectedDay({ ...attendee, admittedDays: [1] })).toBe(false);
  expect(admitsSelectedDay({ ...attendee, admittedDays: [1, 2] })).toBe(true);
  expect(admitsSelectedDay(attendee)).toBe(true);
  expect(attendeeStatusText({ ...attendee, revokedAt: '2026-07-11T10:00:00Z', checkIn: { checkedInAt: '2026-07-11T10:00:00Z', checkedInBy: 'A' } })).toBe('Revoked');
  expect(attendeeStatusText({ ...attendee, checkIn: { checkedInAt: '2026-07-11T10:00:00Z', checkedInBy: 'Alex Morgan' } })).toMatch(/^Checked in at \d\d:\d\d by Alex Morgan$/);
});

const entry: ScanLogEntry = { id: 'l', at: '2026-07-11T10:00:00Z', day: 2, userName: 'U', code: 'C', verdict: 'approved', reason: null, source: 'scan' };

test("scan log verdicts in words: denials in the result card's words, undo reasons as typed", () => {
  expect(scanLogVerdictText(entry)).toBe('Approved');
  expect(scanLogVerdictText({ ...entry, source: 'manual' })).toBe('Approved (manual)');
  expect(scanLogVerdictText({ ...entry, verdict: 'denied', reason: 'already_checked_in' })).toBe('Denied: Already checked in');
  expect(scanLogVerdictText({ ...entry, verdict: 'denied', reason: 'not_found' })).toBe('Denied: Ticket not found');
  expect(scanLogVerdictText({ ...entry, verdict: 'denied', reason: 'not_valid_today' })).toBe('Denied: Not valid today');
  // A code from a newer server than this app: still readable.
  expect(scanLogVerdictText({ ...entry, verdict: 'denied', reason: 'sold_out_gate' })).toBe('Denied: sold out gate');
  expect(scanLogVerdictText({ ...entry, verdict: 'undone', reason: 'Wrong_band', source: 'undo' })).toBe('Undone: Wrong_band');
});

test('scan log denials speak German when German is chosen (no English codes left in the German screen)', async () => {
  await chooseLanguage('de');
  expect(scanLogVerdictText({ ...entry, verdict: 'denied', reason: 'not_found' })).toBe('Abgelehnt: Ticket nicht gefunden');
  expect(scanLogVerdictText({ ...entry, verdict: 'denied', reason: 'already_checked_in' })).toBe('Abgelehnt: Bereits eingecheckt');
  expect(scanLogVerdictText({ ...entry, source: 'offline', reason: 'conflict' })).toBe('Eingelassen (offline): auch an einem anderen Einlass eingecheckt');
});

test('an offline admission says it was offline and, when the server found it wrong, why: no raw codes', () => {
  const offline: ScanLogEntry = { ...entry, source: 'offline' };
  expect(scanLogVerdictText(offline)).toBe('Approved (offline)');
  expect(scanLogVerdictText({ ...offline, reason: 'conflict' })).toBe('Approved (offline): also checked in at another gate');
  expect(scanLogVerdictText({ ...offline, reason: 'revoked' })).toBe('Approved (offline): the server would have denied it (Ticket revoked)');
  expect(scanLogVerdictText({ ...offline, reason: 'unknown_staff' })).toBe('Approved (offline): made by someone not in this organization');
  // Recorded, at its session's start, since the device claimed an earlier time (decision 088).
  expect(scanLogVerdictText({ ...offline, reason: 'scanned_before_session' })).toBe('Approved (offline): its device claimed a time before its sign-in; logged at the sign-in');
  expect(scanLogVerdictText({ ...offline, verdict: 'denied', reason: 'not_found' })).toBe('Denied (offline): Ticket not found');
});
