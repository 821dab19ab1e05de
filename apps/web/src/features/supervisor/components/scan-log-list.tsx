/**
 * The scan log of the selected event day (issue 11): every scan, manual check-in and undo, newest
 * first, filterable by verdict, 50 at a time with 'Load more'. An offline scan a colleague sent
 * from the same device says who sent it (decision 077); an offline scan shows, beside the time the
 * device claims, when the server received it (decision 088). At an event with several check-in lists
 * each entry names its list ('at VIP Gate'); exits and info scans say so (docs/decisions/113).
 */
import type { ScanLogVerdict } from '@gatecheck/contract/supervisor';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { checkInListQueries } from '@/lib/check-ins/check-in-lists.ts';
import { attendeeQueries } from '@/lib/check-ins/attendee-queries.ts';
import { formatTime, scanLogVerdictText, supervisorErrorText } from '../supervisor-logic.ts';
import { useTranslation } from 'react-i18next';

const FILTERS: Array<{ value: ScanLogVerdict | 'all'; labelKey: 'supervisor.filterAll' | 'supervisor.filterApproved' | 'supervisor.filterDenied' | 'supervisor.filterUndone' }> = [
  { value: 'all', labelKey: 'supervisor.filterAll' },
  { value: 'approved', labelKey: 'supervisor.filterApproved' },
  { value: 'denied', labelKey: 'supervisor.filterDenied' },
  { value: 'undone', labelKey: 'supervisor.filterUndone' },
];

export function ScanLogList({ eventId, day }: { eventId: string; day: number }) {
  const { t } = useTranslation();
  const filterId = useId();
  const [verdict, setVerdict] = useState<ScanLogVerdict | 'all'>('all');
  const log = useInfiniteQuery(attendeeQueries.scanLog(eventId, day, verdict));
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  // Each entry names its check-in list when the event has several (docs/decisions/113): the lists as
  // the day step read them (in the cache), not fetched again here — the scan log must not wait on them.
  const { data: lists } = useQuery({ ...checkInListQueries.list(eventId), enabled: false });
  const listName = (listId: string | null | undefined) => (listId && (lists?.lists.length ?? 0) > 1 ? lists?.lists.find((list) => list.id === listId)?.name : undefined);

  return (
    <section aria-labelledby={`${filterId}-heading`} className="flex flex-col gap-3">
      <h2 id={`${filterId}-heading`} className="text-xl font-bold text-slate-900">
        {t('supervisor.scanLog')}
      </h2>
      <Label htmlFor={filterId}>{t('supervisor.verdict')}</Label>
      <select
        id={filterId}
        className="min-h-12 rounded-xl border-2 border-slate-400 bg-white px-4 text-base"
        value={verdict}
        onChange={(event) => setVerdict(FILTERS.find((filter) => filter.value === event.target.value)?.value ?? 'all')}
      >
        {FILTERS.map((filter) => (
          <option key={filter.value} value={filter.value}>
            {t(filter.labelKey)}
          </option>
        ))}
      </select>
      {log.isError && <FormNotice variant="error" title={supervisorErrorText(log.error)} />}
      {log.isSuccess && entries.length === 0 && <p className="text-base text-slate-700">{t('supervisor.noScans')}</p>}
      <ol className="flex flex-col gap-2" aria-label={t('supervisor.scanLogEntries')}>
        {entries.map((entry) => (
          <li key={entry.id} className="rounded-xl border-2 border-slate-200 bg-white p-3">
            <p className="text-base font-semibold text-slate-900">
              {formatTime(entry.at)} · {scanLogVerdictText(entry)}
              {listName(entry.checkInListId) ? <span data-testid="scan-log-list"> · {t('doors.scanLogList', { list: listName(entry.checkInListId) })}</span> : null}
              {entry.source === 'offline' && entry.receivedAt ? ` · ${t('supervisor.receivedAt', { time: formatTime(entry.receivedAt) })}` : null}
            </p>
            <p className="text-base text-slate-800">
              <span className="font-mono">{entry.code}</span> · {entry.userName}
              {entry.sentBy ? ` · ${t('supervisor.sentBy', { name: entry.sentBy })}` : null}
            </p>
          </li>
        ))}
      </ol>
      {log.hasNextPage && (
        <Button variant="secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {t('supervisor.loadMore')}
        </Button>
      )}
    </section>
  );
}
