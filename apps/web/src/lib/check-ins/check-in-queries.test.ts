import { type CheckInCounts, checkInCountsPath, type OfflineConflictList, offlinePaths, type ScanLogPage, supervisorPaths, type AttendeeSearchResponse } from '@gatecheck/contract';
import { InfiniteQueryObserver, QueryObserver } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { createQueryClient } from '@/lib/query-client.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { attendeeQueries, isSearchable } from './attendee-queries.ts';
import { checkInKeys, checkInQueries, recordOccupancy, refreshCheckInDay } from './check-in-queries.ts';

test("every kind of an event day's check-in data sits under that day's one root key", () => {
  const root = ['check-ins', 'event-1', 2];
  expect(checkInKeys.day('event-1', 2)).toEqual(root);
  expect(checkInKeys.counts('event-1', 2)).toEqual([...root, 'counts', null]);
  // A check-in list's data sits under the same day's root (docs/decisions/109).
  expect(checkInKeys.counts('event-1', 2, 'list-vip')).toEqual([...root, 'counts', 'list-vip']);
  expect(checkInKeys.search('event-1', 2, 'zoe', 'list-vip')).toEqual([...root, 'search', 'list-vip', 'zoe']);
  expect(checkInKeys.recent('event-1', 2)).toEqual([...root, 'recent', null]);
  expect(checkInKeys.conflicts('event-1', 2)).toEqual([...root, 'conflicts', null]);
  // Recent scans and conflicts are per check-in list too (docs/decisions/113).
  expect(checkInKeys.recent('event-1', 2, 'list-vip')).toEqual([...root, 'recent', 'list-vip']);
  expect(checkInKeys.conflicts('event-1', 2, 'list-vip')).toEqual([...root, 'conflicts', 'list-vip']);
  expect(checkInKeys.scanLog('event-1', 2, 'denied')).toEqual([...root, 'scan-log', 'denied']);
  expect(checkInKeys.search('event-1', 2, '  zoe ')).toEqual([...root, 'search', null, 'zoe']);
  // The query options use the factory's keys, so nothing is typed by hand elsewhere.
  expect(checkInQueries.counts('event-1', 2).queryKey).toEqual(checkInKeys.counts('event-1', 2));
  expect(checkInQueries.conflicts('event-1', 2).queryKey).toEqual(checkInKeys.conflicts('event-1', 2));
  expect(attendeeQueries.scanLog('event-1', 2, 'all').queryKey).toEqual(checkInKeys.scanLog('event-1', 2, 'all'));
  expect(attendeeQueries.search('event-1', 2, 'zoe').queryKey).toEqual(checkInKeys.search('event-1', 2, 'zoe'));
});

test('a search needs 3 characters after trimming', () => {
  expect(isSearchable('zo')).toBe(false);
  expect(isSearchable('  zo  ')).toBe(false);
  expect(isSearchable('zoe')).toBe(true);
  expect(isSearchable('%%%')).toBe(true);
});

test("refreshing an event day reads its counts, conflicts, scan log and search again, and leaves other days' alone", async () => {
  const reads: string[] = [];
  const seen = (what: string, day: string | null) => reads.push(`${what} day ${day}`);
  server.use(
    http.get(apiUrl(checkInCountsPath('event-1', 2)), () => (seen('counts', '2'), HttpResponse.json<CheckInCounts>({ eventId: 'event-1', day: 2, checkedIn: 1, validTickets: 9 }))),
    http.get(apiUrl(checkInCountsPath('event-1', 3)), () => (seen('counts', '3'), HttpResponse.json<CheckInCounts>({ eventId: 'event-1', day: 3, checkedIn: 0, validTickets: 9 }))),
    http.get(apiUrl(offlinePaths.offlineConflicts('event-1', 2)), () => (seen('conflicts', '2'), HttpResponse.json<OfflineConflictList>({ conflicts: [] }))),
    http.get(apiUrl(supervisorPaths.scanLog('event-1')), ({ request }) => (seen('scan log', new URL(request.url).searchParams.get('day')), HttpResponse.json<ScanLogPage>({ entries: [], nextCursor: null }))),
    http.get(apiUrl(supervisorPaths.attendeeSearch('event-1')), ({ request }) => (seen('search', new URL(request.url).searchParams.get('day')), HttpResponse.json<AttendeeSearchResponse>({ attendees: [], hasMore: false }))),
  );
  const queryClient = createQueryClient({ retry: false });
  const observers = [
    new QueryObserver(queryClient, checkInQueries.counts('event-1', 2)),
    new QueryObserver(queryClient, checkInQueries.conflicts('event-1', 2)),
    new InfiniteQueryObserver(queryClient, attendeeQueries.scanLog('event-1', 2, 'all')),
    new QueryObserver(queryClient, attendeeQueries.search('event-1', 2, 'zoe')),
    new QueryObserver(queryClient, checkInQueries.counts('event-1', 3)),
  ];
  const unsubscribe = observers.map((observer) => observer.subscribe(() => undefined));
  await expect.poll(() => reads.length).toBe(5);
  reads.length = 0;

  await refreshCheckInDay(queryClient, { eventId: 'event-1', day: 2 });
  expect(reads.toSorted()).toEqual(['conflicts day 2', 'counts day 2', 'scan log day 2', 'search day 2']);
  for (const stop of unsubscribe) stop();
  queryClient.clear();
});

test("a verdict's occupancy goes into its list's cached counts (or the day's, at an event's only list); a verdict without one, or counts not read yet, change nothing", () => {
  const queryClient = createQueryClient({ retry: false });
  const counts: CheckInCounts = { eventId: 'event-1', day: 2, checkedIn: 10, validTickets: 40, insideNow: 8 };
  const atList: CheckInCounts = { ...counts, checkInList: { id: 'list-bar', name: 'Bar', checkedIn: 5, validTickets: 40, insideNow: 3, capacity: 50, allowsReentry: true } };
  queryClient.setQueryData(checkInKeys.counts('event-1', 2), counts);
  queryClient.setQueryData(checkInKeys.counts('event-1', 2, 'list-bar'), atList);

  recordOccupancy(queryClient, { eventId: 'event-1', day: 2, checkInListId: 'list-bar' }, { insideNow: 4, capacity: 50 });
  expect(queryClient.getQueryData(checkInKeys.counts('event-1', 2, 'list-bar'))).toEqual({ ...atList, checkInList: { ...atList.checkInList, insideNow: 4 } });
  recordOccupancy(queryClient, { eventId: 'event-1', day: 2 }, { insideNow: 9, capacity: null });
  expect(queryClient.getQueryData(checkInKeys.counts('event-1', 2))).toEqual({ ...counts, insideNow: 9 });

  recordOccupancy(queryClient, { eventId: 'event-1', day: 2 }, {});
  expect(queryClient.getQueryData(checkInKeys.counts('event-1', 2))).toEqual({ ...counts, insideNow: 9 });
  recordOccupancy(queryClient, { eventId: 'event-1', day: 3 }, { insideNow: 1 });
  expect(queryClient.getQueryData(checkInKeys.counts('event-1', 3))).toBeUndefined();
});
