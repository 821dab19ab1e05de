import { apiPaths, type AttendeeSearchResponse, type ScanLogPage, supervisorPaths, VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { QueryClientProvider, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createElement, type ReactNode } from 'react';
import { expect, test } from 'vitest';
import { ApiError } from '@/lib/api-client.ts';
import { attendeeQueries } from '@/lib/check-ins/attendee-queries.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { NO_SELECTED_EVENT_MESSAGE, useVerifyTicketMutation, verifyTicket } from './api.ts';

const check = { eventId: 'event-1', day: 2, qrCode: 'GC-1001', scanId: '7b0e4a52-6c0b-4d55-9f39-0b8f0c5f1a11' };

test('verifyTicket posts eventId, qrCode, day and scanId and maps an approval with its details', async () => {
  const bodies: VerifyTicketRequest[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      bodies.push(VerifyTicketRequest.parse(await request.json()));
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' });
    }),
  );
  await expect(verifyTicket(check)).resolves.toEqual({
    isValid: true,
    details: { eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' },
  });
  expect(bodies).toEqual([check]);
});

test('verifyTicket maps a denial with its reason, time and staff name (a verdict, not an error)', async () => {
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), () =>
      HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'already_checked_in', checkedInAt: '2026-07-11T10:42:00.000Z', checkedInBy: 'Demo Staff' }),
    ),
  );
  await expect(verifyTicket(check)).resolves.toEqual({
    isValid: false,
    denial: { reason: 'already_checked_in', checkedInAt: '2026-07-11T10:42:00.000Z', checkedInBy: 'Demo Staff' },
  });
});

test('verifyTicket refuses to run without a selected event id and sends nothing', async () => {
  let requests = 0;
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), () => {
      requests++;
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true });
    }),
  );
  await expect(verifyTicket({ ...check, eventId: null })).rejects.toThrow(NO_SELECTED_EVENT_MESSAGE);
  await expect(verifyTicket({ ...check, eventId: '' })).rejects.toThrow('No selected event found.');
  expect(requests).toBe(0);
});

test('verifyTicket throws an ApiError for an error answer and for a body outside the contract', async () => {
  server.use(http.post(apiUrl(apiPaths.verifyTicket), () => errorResponse(403, { code: 'forbidden', message: 'Not a member' })));
  await expect(verifyTicket(check)).rejects.toMatchObject({ status: 403, code: 'forbidden' });

  server.use(http.post(apiUrl(apiPaths.verifyTicket), () => HttpResponse.json({ isValid: 'yes' })));
  const error = await verifyTicket(check).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ code: 'invalid_response' });
});

test("a verify, approved or denied, refreshes the day's scan log and attendee search wherever they are shown, not another day's", async () => {
  let verdict: VerifyTicketResponse = { isValid: true, holderName: 'Ada Lovelace' };
  const reads: string[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), () => HttpResponse.json<VerifyTicketResponse>(verdict)),
    http.get(apiUrl(supervisorPaths.scanLog('event-1')), ({ request }) => {
      reads.push(`scan log day ${new URL(request.url).searchParams.get('day')}`);
      return HttpResponse.json<ScanLogPage>({ entries: [], nextCursor: null });
    }),
    http.get(apiUrl(supervisorPaths.attendeeSearch('event-1')), () => {
      reads.push('search day 2');
      return HttpResponse.json<AttendeeSearchResponse>({ attendees: [], hasMore: false });
    }),
  );
  const queryClient = createQueryClient({ retry: false });
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: queryClient }, children);
  // The supervisor's screens of day 2 (and a log of day 3) open beside the scanner on one client.
  const { result } = renderHook(
    () => ({
      log: useInfiniteQuery(attendeeQueries.scanLog('event-1', 2, 'all')),
      otherDayLog: useInfiniteQuery(attendeeQueries.scanLog('event-1', 3, 'all')),
      search: useQuery(attendeeQueries.search('event-1', 2, 'ada')),
      verify: useVerifyTicketMutation(),
    }),
    { wrapper },
  );
  await expect.poll(() => reads.toSorted()).toEqual(['scan log day 2', 'scan log day 3', 'search day 2']);

  for (const next of [verdict, { isValid: false, reason: 'already_checked_in' } satisfies VerifyTicketResponse]) {
    verdict = next;
    reads.length = 0;
    await act(() => result.current.verify.mutateAsync({ ...check, scanId: crypto.randomUUID() }));
    await expect.poll(() => queryClient.isFetching()).toBe(0);
    expect(reads.toSorted()).toEqual(['scan log day 2', 'search day 2']);
  }
  queryClient.clear();
});
