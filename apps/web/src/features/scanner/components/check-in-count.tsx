import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { checkInQueries } from '@/lib/check-ins/check-in-queries.ts';
import { useTranslation } from 'react-i18next';

/**
 * 'Checked in N / M' for the selected event day (issue 10 item 4): N check-ins of the day, M tickets
 * valid that day, from `checkInQueries.counts` (every 30 s, and after every check-in write of the day). Shows
 * nothing until the first answer, and keeps the last numbers when a later fetch fails, so the door
 * never sees a made-up '0 / 0'. N adds `approvalsWaiting`, this device's approvals of the day not yet
 * sent (issue 12): offline, the count goes on with the gate's own admissions.
 */
export function CheckInCount({ eventId, day, approvalsWaiting = 0 }: { eventId: string; day: number; approvalsWaiting?: number }) {
  const { t } = useTranslation();
  const { data } = useQuery(checkInQueries.counts(eventId, day));
  if (data === undefined) return null;
  return (
    <p className="flex items-center gap-1 text-base font-semibold text-slate-900 tabular-nums" data-testid="check-in-count">
      <Users aria-hidden="true" className="size-4 shrink-0" />
      {t('scanner.checkedIn', { checkedIn: data.checkedIn + approvalsWaiting, validTickets: data.validTickets })}
    </p>
  );
}
