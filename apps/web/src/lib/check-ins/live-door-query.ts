/**
 * The live door's figures of an event day (docs/decisions/117) as a query under the day's key root
 * (check-in-queries.ts `checkInKeys.live`). Apart from the scanner's queries so the scanner's first
 * screen loads without the live door's schemas (docs/decisions/128).
 */
import { LIVE_DOOR_POLL_MS, LiveDoor, liveDoorPaths } from '@gatecheck/contract/live-door';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { checkInKeys } from './check-in-queries.ts';

/**
 * GET …/days/{day}/live (docs/decisions/117): asked again every LIVE_DOOR_POLL_MS while shown, also
 * in a background tab (a supervisor's laptop beside the door), so a scan at any gate shows within
 * that and one request; the last figures stay on screen while a request fails.
 */
export function liveDoorQuery(eventId: string, day: number) {
  return queryOptions({
    queryKey: checkInKeys.live(eventId, day),
    queryFn: ({ signal }) => apiRequest(liveDoorPaths.live(eventId, day), { schema: LiveDoor, signal }),
    refetchInterval: LIVE_DOOR_POLL_MS,
    refetchIntervalInBackground: true,
  });
}
