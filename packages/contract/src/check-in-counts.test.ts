import { expect, test } from 'vitest';
import { CheckInCountsParams } from './check-in-counts.ts';
import { apiPaths, checkInCountsPath } from './paths.ts';

test('the counts path fills the route pattern, with the event id encoded', () => {
  expect(apiPaths.checkInCounts).toBe('/events/:eventId/days/:day/counts');
  expect(checkInCountsPath('6f1c1d0e-0000-4000-8000-000000000001', 2)).toBe('/events/6f1c1d0e-0000-4000-8000-000000000001/days/2/counts');
  expect(checkInCountsPath('a/b?c', 1)).toBe('/events/a%2Fb%3Fc/days/1/counts');
});

test('the day in the path is read as a whole number from 1 to 366', () => {
  expect(CheckInCountsParams.parse({ eventId: 'e', day: '2' })).toEqual({ eventId: 'e', day: 2 });
  expect(CheckInCountsParams.parse({ eventId: 'e', day: '366' }).day).toBe(366);
  for (const day of ['0', '367', 'two', '1.5', '', '-1', ' 2', '0x2', '1e2', '02']) expect(CheckInCountsParams.safeParse({ eventId: 'e', day }).success, day).toBe(false);
  expect(CheckInCountsParams.safeParse({ eventId: '', day: '1' }).success).toBe(false);
});
