import { type CheckInCounts, checkInCountsPath } from '@gatecheck/contract';
import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { recordOccupancy } from '@/lib/check-ins/check-in-queries.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { CheckInCount } from './check-in-count.tsx';

test("at a phone bound to one list (no list in the key, the server fills it in), a verdict's inside now moves the list's line and leaves the whole event's", async () => {
  // A bound phone asks without ?checkInListId=; the server answers with its list's counts (decision 116).
  server.use(
    http.get(apiUrl(checkInCountsPath('event-1', 2)), () =>
      HttpResponse.json<CheckInCounts>({
        eventId: 'event-1',
        day: 2,
        checkedIn: 300,
        validTickets: 900,
        insideNow: 120,
        checkInList: { id: 'list-bar', name: 'Bar', checkedIn: 60, validTickets: 900, insideNow: 44, capacity: 50, allowsReentry: true },
      }),
    ),
  );
  const queryClient = createQueryClient({ retry: false });
  renderWithProviders(<CheckInCount eventId="event-1" day={2} showsInside />, { queryClient });
  expect(await screen.findByText('Inside now: 44 / 50')).toBeInTheDocument();
  expect(screen.getByTestId('event-count')).toHaveTextContent('Whole event: 300 / 900 · Inside now: 120');

  act(() => recordOccupancy(queryClient, { eventId: 'event-1', day: 2 }, { insideNow: 45, capacity: 50 }));

  expect(await screen.findByText('Inside now: 45 / 50')).toBeInTheDocument();
  // The top-level figure is the whole event's: the verdict's list figure must not replace it.
  expect(screen.getByTestId('event-count')).toHaveTextContent('Whole event: 300 / 900 · Inside now: 120');
  queryClient.clear();
});

test("an event with a capacity shows the venue's line at any list, filling up: amber from 90 %, red when full", async () => {
  let insideNow = 80;
  server.use(
    http.get(apiUrl(checkInCountsPath('event-2', 1)), () =>
      HttpResponse.json<CheckInCounts>({ eventId: 'event-2', day: 1, checkedIn: 95, validTickets: 900, insideNow, capacity: 100, checkInList: { id: 'list-main', name: 'Main', checkedIn: 95, validTickets: 900, insideNow, capacity: null, allowsReentry: false } }),
    ),
  );
  const queryClient = createQueryClient({ retry: false });
  renderWithProviders(<CheckInCount eventId="event-2" day={1} checkInListId="list-main" />, { queryClient });
  expect(await screen.findByText('Venue: 80 / 100 inside')).toBeInTheDocument();
  expect(screen.getByTestId('venue-capacity')).toHaveAttribute('data-level', 'ok');
  insideNow = 90;
  await act(() => queryClient.invalidateQueries());
  expect(await screen.findByText('Venue: 90 / 100 inside')).toBeInTheDocument();
  expect(screen.getByTestId('venue-capacity')).toHaveAttribute('data-level', 'filling');
  insideNow = 100;
  await act(() => queryClient.invalidateQueries());
  expect(await screen.findByText('Venue at capacity: 100 inside')).toBeInTheDocument();
  expect(screen.getByTestId('venue-capacity')).toHaveAttribute('data-level', 'full');
  queryClient.clear();
});
