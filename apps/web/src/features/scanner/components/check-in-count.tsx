import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { cn } from '@/lib/cn.ts';
import { checkInQueries } from '@/lib/check-ins/check-in-queries.ts';
import { useTranslation } from 'react-i18next';

/** From this share of a list's capacity inside, the header's capacity line turns amber (docs/decisions/113). */
export const CAPACITY_WARNING_SHARE = 0.9;

/** How full a list is: 'ok' below 90 %, 'filling' from 90 %, 'full' at or over its capacity. */
export function capacityLevel(insideNow: number, capacity: number): 'ok' | 'filling' | 'full' {
  if (insideNow >= capacity) return 'full';
  return insideNow >= capacity * CAPACITY_WARNING_SHARE ? 'filling' : 'ok';
}

/**
 * 'Checked in N / M' for the selected event day (issue 10 item 4): N check-ins of the day, M tickets
 * valid that day, from `checkInQueries.counts` (every 30 s, and after every check-in write of the day). Shows
 * nothing until the first answer, and keeps the last numbers when a later fetch fails, so the door
 * never sees a made-up '0 / 0'. N adds `approvalsWaiting`, this device's approvals of the day not yet
 * sent (issue 12): offline, the count goes on with the gate's own admissions. At a chosen check-in
 * list (`checkInListId`, docs/decisions/109) the numbers are the list's: the door's own count.
 *
 * With entry and exit (docs/decisions/113), at a list that allows re-entry or has a capacity
 * (`showsInside`): 'Inside now: K' beside it, and at a chosen list also the whole event's line ('Whole event: N / M · Inside now: K'). A
 * list with a capacity shows 'Inside now: K / C' with a bar filling up, amber from 90 %, and
 * 'At capacity: K inside' in red once it is full. An event with a capacity (docs/decisions/147)
 * shows its own line the same way, 'Venue: K / C inside', at every list.
 */
export function CheckInCount({
  eventId,
  day,
  checkInListId,
  approvalsWaiting = 0,
  showsInside = false,
}: {
  eventId: string;
  day: number;
  checkInListId?: string | undefined;
  approvalsWaiting?: number;
  /** The list scanned at allows re-entry or has a capacity: 'Inside now' means something there (else it equals N). */
  showsInside?: boolean;
}) {
  const { t } = useTranslation();
  const { data: counts } = useQuery(checkInQueries.counts(eventId, day, checkInListId));
  if (counts === undefined) return null;
  const list = counts.checkInList;
  const data = list ?? counts;
  const insideNow = showsInside ? data.insideNow : undefined;
  const capacity = list?.capacity ?? null;
  // The venue's own limit across all its doors (docs/decisions/147), whatever the list.
  const eventCapacity = counts.capacity ?? null;
  return (
    <>
      <p className="flex flex-wrap items-center gap-x-1 text-base font-semibold text-slate-900 tabular-nums" data-testid="check-in-count">
        <Users aria-hidden="true" className="size-4 shrink-0" />
        {t('scanner.checkedIn', { checkedIn: data.checkedIn + approvalsWaiting, validTickets: data.validTickets })}
        {insideNow !== undefined && capacity === null && <span data-testid="inside-now">· {t('doors.insideNow', { count: insideNow })}</span>}
      </p>
      {insideNow !== undefined && capacity !== null && <CapacityLine insideNow={insideNow} capacity={capacity} />}
      {eventCapacity !== null && counts.insideNow !== undefined && <CapacityLine insideNow={counts.insideNow} capacity={eventCapacity} isVenue />}
      {list && showsInside && (
        <p className="text-sm text-slate-800 tabular-nums" data-testid="event-count">
          {t('doors.eventLine', { checkedIn: counts.checkedIn + approvalsWaiting, validTickets: counts.validTickets })}
          {counts.insideNow !== undefined && ` · ${t('doors.insideNow', { count: counts.insideNow })}`}
        </p>
      )}
    </>
  );
}

/**
 * 'Inside now: K / C' and a bar, amber from 90 %, red 'At capacity: K inside' when full; for the
 * event's capacity (`isVenue`) 'Venue: K / C inside' and 'Venue at capacity: K inside'.
 */
function CapacityLine({ insideNow, capacity, isVenue = false }: { insideNow: number; capacity: number; isVenue?: boolean }) {
  const { t } = useTranslation();
  const level = capacityLevel(insideNow, capacity);
  const share = Math.min(1, insideNow / capacity);
  const words =
    level === 'full'
      ? t(isVenue ? 'doors.venueAtCapacity' : 'doors.atCapacity', { count: insideNow })
      : t(isVenue ? 'doors.venueInsideOfCapacity' : 'doors.insideNowOfCapacity', { count: insideNow, capacity });
  return (
    <div className="mt-0.5" data-testid={isVenue ? 'venue-capacity' : 'capacity'} data-level={level}>
      <p className={cn('text-base font-semibold tabular-nums', level === 'full' ? 'text-red-900' : level === 'filling' ? 'text-amber-900' : 'text-slate-900')}>{words}</p>
      <div className="h-2 w-full max-w-xs overflow-hidden rounded-full bg-slate-200" role="presentation">
        <div className={cn('h-full rounded-full', level === 'full' ? 'bg-red-700' : level === 'filling' ? 'bg-amber-500' : 'bg-green-700')} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}
