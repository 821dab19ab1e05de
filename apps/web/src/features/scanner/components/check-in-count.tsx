import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { checkInQueries } from '@/lib/check-ins/check-in-queries.ts';
import { useTranslation } from 'react-i18next';

/**
 * 'Checked in N / M' for the selected event day (issue 10 item 4): N check-ins of the day, M tickets
 * valid that day, from `checkInQueries.counts` (every 30 s, and after every check-in write of the day). Shows
 * nothing until the first answer, and keeps the last numbers when a later fetch fails, so the door
 * never sees a made-up '0 / 0'. N adds `approvalsWaiting`, this device's approvals of the day not yet
 * sent (issue 12): offline, the count goes on with the gate's own admissions. At a chosen check-in
 * list (`checkInListId`, docs/decisions/109) the numbers are the list's: the door's own count.
 */
export function CheckInCount({ eventId, day, checkInListId, approvalsWaiting = 0 }: { eventId: string; day: number; checkInListId?: string | undefined; approvalsWaiting?: number }) {
  const { t } = useTranslation();
  const { data: counts } = useQuery(checkInQueries.counts(eventId, day, checkInListId));
  if (counts === undefined) return null;
  const data = counts.checkInList ?? counts;
  return (
    <p className="flex items-center gap-1 text-base font-semibold text-slate-900 tabular-nums" data-testid="check-in-count">
      <Users aria-hidden="true" className="size-4 shrink-0" />
      {t('scanner.checkedIn', { checkedIn: data.checkedIn + approvalsWaiting, validTickets: data.validTickets })}
    </p>
  );
}
