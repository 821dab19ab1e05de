/** /day-select (SPEC §2): choose the event day to scan for; today's day at the event comes first, marked 'Today' (decision 093). */
import { CalendarDays, MapPin } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { ChoiceCard, ChoiceList } from '@/components/ui/choice-list.tsx';
import { paths } from '@/config/paths.ts';
import { DayWarning } from '@/components/day-warning.tsx';
import { dayLabel, daysTodayFirst, defaultEventDay, isToday, notTodayWarning } from '@/features/days/days-logic.ts';
import { canUseSupervisorTools } from '@/features/supervisor/supervisor-logic.ts';
import { formatLongDate } from '@/lib/dates.ts';
import type { EventDay, EventItem } from '@/lib/entities.ts';
import { selectDay, useSelection } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';
import { useBackButton } from '@/lib/native/back-button.ts';
import { useBack, useStepForward } from '@/lib/use-back.ts';
import { useNow } from '@/lib/use-now.ts';
import { useTranslation } from 'react-i18next';

export function DaySelectRoute() {
  const { event } = useSelection();
  if (!event) return <Navigate to={paths.eventSelect} replace />;
  return <DaySelect event={event} />;
}

function DaySelect({ event }: { event: EventItem }) {
  const { t } = useTranslation();
  const { organization, day: selectedDay } = useSelection();
  const stepForward = useStepForward();
  const goBack = useBack(paths.eventSelect);
  useBackButton(goBack);
  const now = useNow();
  const defaultDayWarning = event.eventDays.length === 0 ? notTodayWarning(event, defaultEventDay(event), now) : null;

  const supervisorDay = selectedDay ?? event.eventDays.find((day) => isToday(event, day, now)) ?? null;
  // Today's day, not chosen yet: chosen first, so /supervisor finds it.
  const openSupervisorTools = async (click: MouseEvent, day: EventDay) => {
    if (selectedDay) return;
    click.preventDefault();
    await selectDay(day);
    await stepForward(paths.supervisor);
  };

  const choose = async (day: EventDay) => {
    await selectDay(day);
    notify({ title: t('days.selected'), description: `${dayLabel(day.day)}: ${day.name}`, variant: 'success', scope: 'next-screen', isBrief: true });
    await stepForward(paths.scanner);
  };

  return (
    <PageShell title={t('days.title')} subtitle={t('days.subtitle')} onBack={goBack}>
      <Card>
        <p className="text-xl font-bold text-slate-900">{event.name}</p>
        {event.location && (
          <p className="mt-1 flex items-center gap-2 text-base text-slate-800">
            <MapPin aria-hidden="true" className="size-5 shrink-0" />
            {event.location}
          </p>
        )}
      </Card>
      {event.eventDays.length === 0 ? (
        <EmptyState title={t('days.emptyTitle')} description={t('days.emptyDescription')}>
          {defaultDayWarning && <DayWarning text={defaultDayWarning} />}
          <Button size="large" onClick={() => void choose(defaultEventDay(event))}>
            {t('days.continue')}
          </Button>
        </EmptyState>
      ) : (
        // Today's day on top, so the card staff need is the first in view, above the other days' warnings.
        <ChoiceList>
          {daysTodayFirst(event, now).map((day) => {
            const warning = notTodayWarning(event, day, now);
            return (
              <ChoiceCard key={day.day} icon={CalendarDays} onChoose={() => void choose(day)}>
                <span className="flex flex-wrap items-center gap-2">
                  <span className="text-xl font-bold text-slate-900">{day.name}</span>
                  {isToday(event, day, now) && <Badge className="border-green-800 bg-green-800 text-white">{t('days.today')}</Badge>}
                </span>
                <span className="text-base font-semibold text-blue-900">{dayLabel(day.day)}</span>
                <span className="text-base text-slate-800">{formatLongDate(day.date)}</span>
                {warning && <DayWarning text={warning} />}
              </ChoiceCard>
            );
          })}
        </ChoiceList>
      )}
      {supervisorDay && organization && canUseSupervisorTools(organization.role) && (
        // Issue 11: supervisors and admins reach their tools for the chosen day from here, or on a
        // first visit (no day chosen yet) for the day that is today at the event.
        <Link to={paths.supervisor} onClick={(click) => void openSupervisorTools(click, supervisorDay)} className={buttonClassName({ variant: 'secondary', size: 'large' })}>
          {t('days.supervisorTools', { day: dayLabel(supervisorDay.day) })}
        </Link>
      )}
    </PageShell>
  );
}
