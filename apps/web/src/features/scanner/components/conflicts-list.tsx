import { useQuery } from '@tanstack/react-query';
import { ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkInQueries } from '@/lib/check-ins/check-in-queries.ts';
import { recentScanTime } from '../recent-scans.ts';
import { resultCodeText } from '../scanner-logic.ts';

/**
 * 'Conflicts' of the selected event day at the chosen check-in list (issue 12 item 5, decisions 045, 113): tickets admitted offline
 * that another gate had already checked in, each with both gates and times — the offline admission
 * (time to the second, staff member, device) and the one the server had (time, staff member).
 * Collapsed like 'Recent scans', its heading counting them (amber when there are any); fetched (GET
 * conflicts) when the scanner opens, after every check-in write of the day (an upload, a verify,
 * an undo: `refreshCheckInDay`), and each time the list is opened. An entry admitted offline over
 * the list's capacity is a conflict too: 'Over capacity: 51 inside of 50'. Open to every member of the
 * event's organization, as the server allows until the supervisor role gates it.
 */
export function ConflictsList({ eventId, day, checkInListId }: { eventId: string; day: number; checkInListId?: string | undefined }) {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  // Read on open of the scanner too (not only of the list): the heading shows the count, so a
  // ticket let in twice is seen without opening anything. Read again on every opening of the list.
  const { data, isError, isPending, refetch } = useQuery({ ...checkInQueries.conflicts(eventId, day, checkInListId), enabled: eventId !== '', refetchOnMount: 'always', staleTime: 0 });
  const conflicts = data?.conflicts ?? [];
  return (
    <details
      className="group rounded-2xl border border-slate-300 bg-white"
      open={isOpen}
      onToggle={(event) => {
        const isNowOpen = event.currentTarget.open;
        setOpen(isNowOpen);
        if (isNowOpen) void refetch();
      }}
    >
      <summary className="flex min-h-12 cursor-pointer list-none items-center gap-2 px-3 py-2 text-lg font-semibold text-slate-950 [&::-webkit-details-marker]:hidden">
        <ChevronRight aria-hidden="true" className="size-5 shrink-0 transition-transform group-open:rotate-90" />
        {t('offline.conflicts')}
        {data && (
          <span className={conflicts.length > 0 ? 'ml-auto rounded-full bg-amber-200 px-2 text-base font-bold text-amber-950 tabular-nums' : 'ml-auto text-base font-normal text-slate-700 tabular-nums'}>
            ({conflicts.length})
          </span>
        )}
      </summary>
      {!isOpen ? null : isError ? (
        <p className="border-t border-slate-200 px-3 py-2 text-base text-red-900">{t('offline.conflictsFailed')}</p>
      ) : isPending ? null : conflicts.length === 0 ? (
        <p className="border-t border-slate-200 px-3 py-2 text-base text-slate-700">{t('offline.noConflicts')}</p>
      ) : (
        <ol aria-label={t('offline.conflicts')} className="divide-y divide-slate-200 border-t border-slate-200">
          {conflicts.map((conflict) => (
            <li key={conflict.scanId} className="px-3 py-2 text-base text-slate-900">
              <p className="flex flex-wrap gap-x-2">
                <span className="font-mono break-all">{resultCodeText(conflict.code)}</span>
                <span className="font-semibold">{conflict.holderName}</span>
              </p>
              <p>{t('offline.conflictOffline', { time: recentScanTime(conflict.offline.scannedAt, 'seconds'), name: conflict.offline.staffName, device: conflict.offline.deviceId.slice(0, 8) })}</p>
              {conflict.kind === 'at_capacity' ? (
                // An entry admitted offline that found its list full (docs/decisions/113): the guest is in, over the capacity.
                <p className="font-semibold text-amber-900">{t('doors.overCapacity', { count: conflict.insideNow ?? '?', capacity: conflict.capacity ?? '?' })}</p>
              ) : (
                <p>{t('offline.conflictExisting', { time: recentScanTime(conflict.existing.checkedInAt, 'seconds'), name: conflict.existing.checkedInBy })}</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
