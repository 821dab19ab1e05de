/**
 * The scanner's check-in list kept in step with the event's lists (docs/decisions/151): a stored day
 * that names no list on an event that has gained lists since it was chosen, and a list the organizer
 * deleted while this phone scans at it, both end at the list step on /day-select — asked once, in
 * plain words, never over a scan in progress.
 */
import { CheckInLists } from '@gatecheck/contract/check-in-lists';
import { checkInListsPath } from '@gatecheck/contract/paths';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client.ts';
import { checkInListQueries, checkInListStep } from '@/lib/check-ins/check-in-lists.ts';
import type { SelectedDay } from '@/lib/entities.ts';
import { onListRefused } from '@/lib/list-refused.ts';
import { askForCheckInList, getSelection, selectCheckInList } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';

/** The toast that says the lists changed: one at a time, however many calls were refused. */
const LIST_CHANGED_TOAST_ID = 'check-in-list-changed';

/** What `useListKeptCurrent` keeps in step: the scanner's event, its stored day, who scans and whether they are scanning. */
export interface ListKeptCurrentOptions {
  /** The event scanned at. */
  eventId: string;
  /** The stored day (SPEC §3 selectedDay), with the list chosen inside it, if any. */
  day: SelectedDay;
  /** The signed-in door device (docs/decisions/107), if it is one: its list is its organizer's to set. */
  device: { checkInListId: string | null } | undefined;
  /** True while staff scan (the camera or the field is open) or a scan is being decided. */
  isScanning: boolean;
}

/**
 * For the mounted scanner screen (one entry: a load, the furthest-step resume of SPEC §2, or a
 * navigation to /scanner):
 *
 * - **A day stored with no list** (`checkInList` absent: chosen while the event had one list, or by
 *   an app from before lists) on an event whose lists, as read from the server after this entry,
 *   now ask for a choice (`checkInListStep`): several lists open that day go to the list step
 *   (`checkInList: null`); one list open that day among several is stored and named, as the day
 *   step would. Only once per entry, from the lists read from the server as the screen mounted (not
 *   the copy kept offline, which is restored first and may be older); when the server cannot be
 *   reached the kept copy decides. While staff are
 *   scanning, the question waits until they stop (a toast says so once): a verdict on screen
 *   mid-queue is never taken away.
 * - **A list the server refuses** (a 400 naming `checkInListId`, `onListRefused`) for a signed-in
 *   person (not a door device, whose heartbeat follows its organizer's move; docs/decisions/129):
 *   the event's lists are read again from the server; when the stored list is no longer among them
 *   (deleted), a toast names it and the day goes to the list step. Once: the scanner then leaves the
 *   screen. A list still there (the refusal meant something else) changes nothing.
 */
export function useListKeptCurrent({ eventId, day, device, isScanning }: ListKeptCurrentOptions): void {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isDevice = device !== undefined;
  const deviceListId = device?.checkInListId ?? null;
  const namesNoList = day.checkInList === undefined;
  /** The event's lists as this entry learnt them: null until then, or when there is nothing to check. */
  const [entryLists, setEntryLists] = useState<CheckInLists | null>(null);
  const entryCheck = useRef<'pending' | 'waiting' | 'done'>('pending');

  // Once per entry, and only for a day naming no list: the lists from the server, not the copy kept
  // for offline use (restored first, it may be from before the new list); that copy when the server
  // cannot be reached.
  useEffect(() => {
    if (!namesNoList) return undefined;
    let isCurrent = true;
    const listsQuery = checkInListQueries.list(eventId);
    void apiRequest(checkInListsPath(eventId), { schema: CheckInLists })
      .then((fresh) => {
        queryClient.setQueryData(listsQuery.queryKey, fresh);
        return fresh;
      })
      .catch(() => queryClient.getQueryData(listsQuery.queryKey) ?? null)
      .then((lists) => {
        if (isCurrent) setEntryLists(lists);
      });
    return () => {
      isCurrent = false;
    };
  }, [namesNoList, eventId, queryClient]);

  useEffect(() => {
    if (entryCheck.current === 'done' || !namesNoList || !entryLists) return;
    const step = checkInListStep(entryLists.lists, day.day, isDevice ? { checkInListId: deviceListId } : null);
    if (step.kind === 'first') {
      entryCheck.current = 'done';
      return;
    }
    if (isScanning) {
      if (entryCheck.current === 'pending') notify({ id: LIST_CHANGED_TOAST_ID, title: t('lists.addedTitle'), description: t('lists.addedWhenStopped'), variant: 'info' });
      entryCheck.current = 'waiting';
      return;
    }
    entryCheck.current = 'done';
    if (step.kind === 'only') {
      void selectCheckInList(step.list);
      notify({ id: LIST_CHANGED_TOAST_ID, title: t('lists.selected'), description: step.list.name, variant: 'success', isBrief: true });
      return;
    }
    notify({ id: LIST_CHANGED_TOAST_ID, title: t('lists.addedTitle'), description: t('lists.addedChoose'), variant: 'info', scope: 'next-screen' });
    void askForCheckInList();
  }, [entryLists, namesNoList, day.day, isDevice, deviceListId, isScanning, t]);

  const listId = day.checkInList?.id;
  const listName = day.checkInList?.name;
  useEffect(() => {
    if (isDevice || listId === undefined) return undefined;
    let isAsking = false;
    return onListRefused(() => {
      if (isAsking) return;
      isAsking = true;
      void (async () => {
        // From the server, not the copy kept for offline use (which may still hold the deleted list):
        // without the persister, which answers from IndexedDB when nothing is in memory.
        const fresh = await queryClient.fetchQuery({ ...checkInListQueries.list(eventId), persister: undefined, staleTime: 0, retry: 1 }).catch(() => null);
        isAsking = false;
        if (!fresh || fresh.lists.some((list) => list.id === listId)) return;
        // Staff may have chosen another day or list meanwhile: only the list refused is left.
        const now = getSelection();
        if (now.event?.id !== eventId || now.day?.checkInList?.id !== listId) return;
        notify({ id: LIST_CHANGED_TOAST_ID, title: t('lists.removedTitle'), description: t('lists.removedChoose', { name: listName }), variant: 'error', scope: 'next-screen' });
        await askForCheckInList();
      })();
    });
  }, [isDevice, listId, listName, eventId, queryClient, t]);
}
