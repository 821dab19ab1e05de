import { ArrowLeft, DoorOpen, MapPin } from 'lucide-react';
import { Button } from '@/components/ui/button.tsx';
import { DayWarning } from '@/components/day-warning.tsx';
import { Tooltip } from '@/components/ui/tooltip.tsx';
import type { EventItem, ScanMode, SelectedDay } from '@/lib/entities.ts';
import { CheckInCount } from './check-in-count.tsx';
import { useTranslation } from 'react-i18next';

/**
 * 'Scanning For', the event title, the day name and number, the location (SPEC §2), and Back; plus
 * the day's 'Checked in N / M' (issue 10) and `dayWarning` (issue 15) when the chosen day is not
 * today at the event, or null. With a check-in list chosen among several (docs/decisions/109), its
 * name under the day, 'Check-in list: VIP Gate', and the count is the list's; an event with one
 * list shows no list, as before lists.
 */
export function ScannerHeader({
  event,
  day,
  mode = 'entry',
  showsInside = false,
  dayWarning,
  approvalsWaiting,
  onBack,
}: {
  event: EventItem;
  day: SelectedDay;
  /** How scans are checked (docs/decisions/113): said in the header unless entry. */
  mode?: ScanMode;
  /** Show 'Inside now' and the capacity (the list allows re-entry or has a capacity, docs/decisions/113). */
  showsInside?: boolean;
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
        {day.checkInList && (
          <p className="flex items-center gap-1 text-lg font-semibold break-words text-blue-900" data-testid="check-in-list-name">
            <DoorOpen aria-hidden="true" className="size-5 shrink-0" />
            {t('lists.headerLine', { name: day.checkInList.name })}
          </p>
        )}
        {mode !== 'entry' && (
          <p className="text-lg font-bold text-amber-900" data-testid="scan-mode">
            {t('doors.scanMode')}: {mode === 'exit' ? t('doors.exit') : t('doors.info')}
          </p>
        )}
        {event.location && (
          <p className="flex items-center gap-1 text-base text-slate-800">
            <MapPin aria-hidden="true" className="size-4 shrink-0" />
            {event.location}
          </p>
        )}
        <CheckInCount eventId={event.id} day={day.day} checkInListId={day.checkInList?.id} approvalsWaiting={approvalsWaiting} showsInside={showsInside} />
        {dayWarning && (
          <p className="mt-2">
            <DayWarning text={dayWarning} />
          </p>
        )}
      </div>
    </header>
  );
}
