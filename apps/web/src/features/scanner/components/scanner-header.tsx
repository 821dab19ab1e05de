import { ArrowLeft, MapPin } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { DayWarning } from '@/components/day-warning.tsx';
import { Tooltip } from '@/components/ui/tooltip.tsx';
import type { EventDay, EventItem } from '@/lib/entities.ts';
import { CheckInCount } from './check-in-count.tsx';
import { useTranslation } from 'react-i18next';

/**
 * 'Scanning For', the event title, the day name and number, the location (SPEC §2), and Back; plus
 * the day's 'Checked in N / M' (issue 10) and `dayWarning` (issue 15) when the chosen day is not
 * today at the event, or null.
 */
export function ScannerHeader({
  event,
  day,
  dayWarning,
  approvalsWaiting,
  onBack,
}: {
  event: EventItem;
  day: EventDay;
  dayWarning: string | null;
  /** This device's approvals of the day not yet sent, added to the count (`CheckInCount`). */
  approvalsWaiting: number;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  return (
    <header className="flex items-start gap-3">
      <Tooltip label={t('common.back')}>
        <Button variant="ghost" size="icon" onClick={onBack} aria-label={t('common.back')}>
          <ArrowLeft aria-hidden="true" className="size-7" />
        </Button>
      </Tooltip>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold tracking-wide text-slate-700 uppercase">{t('scanner.scanningFor')}</p>
        <h1 className="text-2xl font-bold break-words text-slate-950">{event.name}</h1>
        <p className="text-lg text-slate-900">
          {t('scanner.dayLine', { name: day.name, day: day.day })}
        </p>
        {event.location && (
          <p className="flex items-center gap-1 text-base text-slate-800">
            <MapPin aria-hidden="true" className="size-4 shrink-0" />
            {event.location}
          </p>
        )}
        <CheckInCount eventId={event.id} day={day.day} approvalsWaiting={approvalsWaiting} />
        {dayWarning && (
          <p className="mt-2">
            <DayWarning text={dayWarning} />
          </p>
        )}
      </div>
    </header>
  );
}
