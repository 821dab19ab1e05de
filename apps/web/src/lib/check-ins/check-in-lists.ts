/**
 * An event's check-in lists on the web (docs/decisions/100, 109): GET /events/{eventId}/check-in-lists
 * as query options, and the rule of the scanner's list step — which lists are offered after the day.
 * Shared by the day step (features/days via the route) and the scanner, so it sits in lib/.
 */
import { type CheckInList, CheckInLists } from '@gatecheck/contract/check-in-lists';
import { checkInListsPath } from '@gatecheck/contract/paths';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import type { ChosenCheckInList } from '@/lib/entities.ts';
import { persistedQuery } from '@/lib/query-persister.ts';

export const checkInListQueries = {
  all: () => ['check-in-lists'] as const,
  /**
   * The event's lists, first list first. Kept in IndexedDB like the events (decision 056), so a
   * device that saw them chooses a list offline too. @throws {ApiError} from the query function.
   */
  list: (eventId: string) =>
    queryOptions({
      queryKey: [...checkInListQueries.all(), eventId] as const,
      queryFn: ({ signal }) => apiRequest(checkInListsPath(eventId), { schema: CheckInLists, signal }),
      persister: persistedQuery,
    }),
};

/**
 * What the scanner scans at on `day` (docs/decisions/109):
 * - `first`: the event has one list: nothing to choose, nothing stored, no `checkInListId` sent;
 * - `only`: several lists but one open that day: that one, chosen without asking;
 * - `choose`: the lists open that day (list order), for staff to choose from.
 * A list's `days` null means every day. A day no list is open on offers every list (each then
 * denies with its own words; the server is the judge).
 *
 * A door device (`device`, docs/decisions/116, 129) always names its list: the one it is held to, or
 * an event's only list — `only`, so the chosen day stores it and the device's door list, queued
 * scans and own admissions are kept under that list's key, and a move to another list never mixes
 * the two lists' records (nor sends the scans of one as the other's).
 */
export type CheckInListStep =
  | { kind: 'first' }
  | { kind: 'only'; list: ChosenCheckInList }
  | { kind: 'choose'; lists: CheckInList[] };

export function checkInListStep(lists: readonly CheckInList[], day: number, device?: { checkInListId: string | null } | null): CheckInListStep {
  const deviceList = !device ? undefined : device.checkInListId === null ? (lists.length === 1 ? lists[0] : undefined) : lists.find((list) => list.id === device.checkInListId);
  if (deviceList) return { kind: 'only', list: { id: deviceList.id, name: deviceList.name } };
  if (lists.length <= 1) return { kind: 'first' };
  const open = lists.filter((list) => list.days === null || list.days.includes(day));
  const offered = open.length > 0 ? open : [...lists];
  const [only] = offered;
  if (offered.length === 1 && only) return { kind: 'only', list: { id: only.id, name: only.name } };
  return { kind: 'choose', lists: offered };
}
