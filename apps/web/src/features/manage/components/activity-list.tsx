/**
 * An Activity page's entries (docs/decisions/106, 126): newest first, each with what happened, when,
 * who, and each setting before and after; 'Show older' loads the next page while there is one.
 */
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formattingLocale } from '@/lib/i18n/index.ts';
import { changeLineWords, type ChangeLine } from '../manage-logic.ts';

/** One entry as the page shows it. */
export interface ActivityItem {
  id: string;
  at: string;
  actorName: string;
  /** What happened, in words ('Changed the event'). */
  title: string;
  lines: ChangeLine[];
  /** Whether the entry had a before (a change: lines read 'before → after'; else the new value alone). */
  isChange: boolean;
}

/** 'Fri 27 Nov 2026, 17:05' in the device's clock. */
function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString(formattingLocale('en-GB'), { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export interface ActivityListProps {
  items: ActivityItem[] | undefined;
  isPending: boolean;
  /** The first page's failure, in words. */
  error: string | null;
  hasOlder: boolean;
  isLoadingOlder: boolean;
  /** A later page's failure, in words (the entries shown stay). */
  olderError: string | null;
  onShowOlder(): void;
}

export function ActivityList({ items, isPending, error, hasOlder, isLoadingOlder, olderError, onShowOlder }: ActivityListProps) {
  const { t } = useTranslation();
  if (isPending) return <p role="status" className="text-lg text-slate-700">{t('manage.loading')}</p>;
  if (error !== null) return <FormNotice variant="error" title={error} />;
  if (!items || items.length === 0) return <p className="text-base text-slate-800">{t('manage.noActivity')}</p>;
  return (
    <div className="flex flex-col gap-4">
      <ol className="flex flex-col gap-3">
        {items.map((entry) => (
          <li key={entry.id} className="rounded-2xl border-2 border-slate-200 bg-white p-4">
            <p className="text-lg font-bold break-words text-slate-900">{entry.title}</p>
            <p className="text-base break-words text-slate-800">
              <time dateTime={entry.at}>{formatWhen(entry.at)}</time> · {entry.actorName}
            </p>
            <dl className="mt-2 flex flex-col gap-2">
              {entry.lines.map((line) => (
                <div key={line.field} className="flex flex-col">
                  <dt className="text-sm font-semibold text-slate-700">{line.label}</dt>
                  <dd className="text-base break-words text-slate-900">{changeLineWords(line, entry.isChange)}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ol>
      {olderError !== null && <FormNotice variant="error" title={olderError} />}
      {hasOlder && (
        <Button variant="secondary" disabled={isLoadingOlder} onClick={onShowOlder}>
          {isLoadingOlder ? t('manage.loading') : t('manage.showOlder')}
        </Button>
      )}
    </div>
  );
}
