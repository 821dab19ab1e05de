/**
 * /events/:eventId/live (docs/decisions/117): the live door for supervisors and admins, for the day
 * in `?day=` or else the selected day of that event (day 1 when the event is not the selected one).
 * The day can be changed on the page when the event is the selected one (its days are known). The
 * server refuses staff, other organizations and door devices; the page says so in words.
 * Reached from the supervisor tools ('Live door').
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageShell } from '@/components/page-shell.tsx';
import { Label } from '@/components/ui/label.tsx';
import { paths } from '@/config/paths.ts';
import { dayLabel } from '@/features/days/days-logic.ts';
import { LiveDoorView } from '@/features/live-door/components/live-door-view.tsx';
import { useSelection } from '@/lib/selection.ts';
import { useBack } from '@/lib/use-back.ts';

/** `?day=` when it is a day number (1..366), else undefined. */
function dayParam(text: string | null): number | undefined {
  if (text === null || !/^[1-9]\d{0,2}$/.test(text)) return undefined;
  const day = Number(text);
  return day <= 366 ? day : undefined;
}

export function LiveDoorRoute() {
  const { t } = useTranslation();
  const dayId = useId();
  const { eventId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const { event: selectedEvent, day: selectedDay } = useSelection();
  const goBack = useBack(paths.supervisor);
  const event = selectedEvent?.id === eventId ? selectedEvent : null;
  const day = dayParam(search.get('day')) ?? (event && selectedDay ? selectedDay.day : 1);
  const dayName = event?.eventDays.find((entry) => entry.day === day)?.name;
  return (
    <PageShell title={t('live.title')} subtitle={`${event ? `${event.name} · ` : ''}${dayLabel(day)}${dayName ? `: ${dayName}` : ''}`} onBack={goBack}>
      {event && event.eventDays.length > 1 && (
        <div className="flex flex-col gap-1">
          <Label htmlFor={dayId}>{t('live.day')}</Label>
          <select
            id={dayId}
            className="min-h-12 rounded-xl border-2 border-slate-400 bg-white px-4 text-base"
            value={day}
            onChange={(change) => setSearch({ day: change.target.value }, { replace: true })}
          >
            {event.eventDays.map((entry) => (
              <option key={entry.day} value={entry.day}>
                {`${dayLabel(entry.day)}: ${entry.name}`}
              </option>
            ))}
          </select>
        </div>
      )}
      <LiveDoorView key={`${eventId}-${day}`} eventId={eventId} day={day} />
    </PageShell>
  );
}
