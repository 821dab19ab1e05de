import { expect, test } from 'vitest';
import { hasRoleAtLeast, MembershipRole } from './organizations.ts';
import { AttendeeSearchQuery, ScanLogQuery, UndoCheckInRequest } from './supervisor.ts';

test('roles are ordered staff < supervisor < admin (issue 11)', () => {
  expect(MembershipRole.options).toEqual(['staff', 'supervisor', 'admin']);
  expect(hasRoleAtLeast('staff', 'supervisor')).toBe(false);
  expect(hasRoleAtLeast('supervisor', 'supervisor')).toBe(true);
  expect(hasRoleAtLeast('admin', 'supervisor')).toBe(true);
  expect(hasRoleAtLeast('supervisor', 'admin')).toBe(false);
  expect(hasRoleAtLeast('staff', 'staff')).toBe(true);
});

test('a search needs 3 characters after trimming; its day comes from the query string', () => {
  expect(AttendeeSearchQuery.safeParse({ q: ' zo ', day: '1' }).success).toBe(false);
  expect(AttendeeSearchQuery.parse({ q: ' %_% ', day: '2' })).toEqual({ q: '%_%', day: 2 });
  expect(AttendeeSearchQuery.safeParse({ q: 'abc', day: '0' }).success).toBe(false);
});

test('an undo needs a reason; the scan log page size is bounded with a default', () => {
  expect(UndoCheckInRequest.safeParse({ day: 1, reason: '   ' }).success).toBe(false);
  expect(UndoCheckInRequest.parse({ day: 1, reason: ' Wrong guest ' }).reason).toBe('Wrong guest');
  expect(ScanLogQuery.parse({})).toEqual({ limit: 50 });
  expect(ScanLogQuery.safeParse({ limit: '201' }).success).toBe(false);
  expect(ScanLogQuery.parse({ limit: '7', verdict: 'undone', day: '3' })).toEqual({ limit: 7, verdict: 'undone', day: 3 });
});
