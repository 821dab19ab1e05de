/**
 * useListKeptCurrent's answer to a list refusal (docs/decisions/151) when nothing is in memory: the
 * event's lists are read from the server, not from the copy kept in IndexedDB for offline use, which
 * may still hold the deleted list.
 */
import { apiPaths, type CheckInList, type CheckInLists } from '@gatecheck/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { expect, test } from 'vitest';
import { checkInListQueries } from '@/lib/check-ins/check-in-lists.ts';
import { reportListRefused } from '@/lib/list-refused.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { listPersister } from '@/lib/query-persister-store.ts';
import { getSelection, selectDay, selectEvent, selectOrganization } from '@/lib/selection.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { useListKeptCurrent } from './use-list-kept-current.ts';

const mainEntrance: CheckInList = { id: '11111111-1111-4111-8111-111111111111', name: 'Main entrance', position: 1, ticketTypes: null, days: null };
const vipGate: CheckInList = { id: '22222222-2222-4222-8222-222222222222', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null };

test('a list refused with nothing in memory: the lists are read from the server (the VIP Gate is gone there), not the kept copy still holding it, and the day goes to the list step', async () => {
  const listsKey = checkInListQueries.list(testEvent.id).queryKey;
  const keeper = createQueryClient({ retry: false });
  keeper.setQueryData(listsKey, { eventId: testEvent.id, lists: [mainEntrance, vipGate] });
  await listPersister.persistQueryByKey(listsKey, keeper);
  let served = 0;
  server.use(
    http.get(apiUrl(apiPaths.checkInLists), () => {
      served += 1;
      return HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [mainEntrance] });
    }),
  );
  const day = { ...testDay, checkInList: { id: vipGate.id, name: vipGate.name } };
  await selectOrganization(testOrganization);
  await selectEvent(testEvent);
  await selectDay(day);
  const queryClient = createQueryClient({ retry: false });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  renderHook(() => useListKeptCurrent({ eventId: testEvent.id, day, device: undefined, isScanning: false }), { wrapper });
  expect(queryClient.getQueryData(listsKey)).toBeUndefined();
  reportListRefused();
  await waitFor(() => expect(getSelection().day).toEqual({ ...day, checkInList: null }));
  expect(served).toBeGreaterThan(0);
});
