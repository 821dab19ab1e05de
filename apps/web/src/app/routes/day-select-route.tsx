/**
 * /day-select (SPEC §2): choose the event day to scan for; today's day at the event comes first,
 * marked 'Today' (decision 093). When the event has several check-in lists open that day, the same
 * screen then asks for the list (docs/decisions/109): 'Choose Check-in List', one card per list;
 * Back from there goes back to the days. The chosen list leads to /scanner, or back to /supervisor
 * when the step was asked for the supervisor tools (`useListStepFor`).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays, DoorOpen, MapPin } from 'lucide-react';
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
import { checkInListQueries, checkInListStep, type CheckInListStep } from '@/lib/check-ins/check-in-lists.ts';
import { useListStepFor } from '@/lib/list-step-for.ts';
import type { EventDay, EventItem, SelectedDay } from '@/lib/entities.ts';
import { clearSelection, selectCheckInList, selectDay, useSelection } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';
import { useBackButton } from '@/lib/native/back-button.ts';
import { useSession } from '@/app/session-provider.tsx';
import { useBack, useStepForward } from '@/lib/use-back.ts';
import { useNow } from '@/lib/use-now.ts';
import { useTranslation } from 'react-i18next';

export function DaySelectRoute() {
  const { event, day } = useSelection();
  if (!event) return <Navigate to={paths.eventSelect} replace />;
  if (day?.checkInList === null) return <CheckInListSelect event={event} day={day} />;
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
  const { setListStepFor } = useListStepFor();

  // Fetched ahead, so choosing a day rarely waits for the event's check-in lists.
  useQuery(checkInListQueries.list(event.id));
  const queryClient = useQueryClient();
  // A door device stores its list with the day (docs/decisions/129).
  const device = useSession().user?.device;
  /** The list step after `day` (docs/decisions/109), from the event's lists; no lists and no server: as before lists. */
  const listStepAfter = async (day: EventDay): Promise<CheckInListStep> => {
    try {
      // The lists read as the screen opened (or kept from before) serve; none yet: fetched now.
      return checkInListStep((await queryClient.ensureQueryData({ ...checkInListQueries.list(event.id), retry: 1 })).lists, day.day, device);
    } catch {
      // Lists never seen and no server: a door device held to one list scans at it (its name unknown
      // until the lists load; docs/decisions/129), anyone else at the first list, as before lists.
      const deviceListId = device?.checkInListId;
      notify({ title: t('lists.loadFailed'), description: t(deviceListId ? 'lists.deviceListUsed' : 'lists.firstListUsed'), variant: 'error', scope: 'next-screen' });
      return deviceListId ? { kind: 'only', list: { id: deviceListId, name: t('lists.deviceListName') } } : { kind: 'first' };
    }
  };

  // Today's day, not chosen yet: chosen first, with its list as `choose` asks for it, so /supervisor
  // finds both and never works at the event's first list behind the list step. Several lists open
  // that day: the list step, which then leads to /supervisor (not /scanner).
  const openSupervisorTools = async (click: MouseEvent, day: EventDay) => {
    if (selectedDay) return;
    click.preventDefault();
    const step = await listStepAfter(day);
    if (step.kind === 'choose') {
      await setListStepFor(paths.supervisor);
      await selectDay({ ...day, checkInList: null });
      return;
    }
    await selectDay(step.kind === 'only' ? { ...day, checkInList: step.list } : day);
    await stepForward(paths.supervisor);
  };

  const choose = async (day: EventDay) => {
    const step = await listStepAfter(day);
    if (step.kind === 'choose') {
      // This entry may still say the list step leads to /supervisor (Back from the tools to here).
      await setListStepFor(paths.scanner);
      await selectDay({ ...day, checkInList: null });
      notify({ title: t('days.selected'), description: `${dayLabel(day.day)}: ${day.name}`, variant: 'success', isBrief: true });
      return;
    }
    await selectDay(step.kind === 'only' ? { ...day, checkInList: step.list } : day);
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

/** The list step after the day (docs/decisions/109): the lists open that day, in list order. */
function CheckInListSelect({ event, day }: { event: EventItem; day: SelectedDay }) {
  const { t } = useTranslation();
  const stepForward = useStepForward();
  // /scanner, or /supervisor when the step was asked for the supervisor tools.
  const { listStepFor, setListStepFor } = useListStepFor();
  // Back to the days: a day chosen there is for the scanner again.
  const goBack = () => void setListStepFor(paths.scanner).then(() => clearSelection('day'));
  useBackButton(goBack);
  const lists = useQuery(checkInListQueries.list(event.id));
  // A door device held to one list is offered that list only (docs/decisions/129): its scans name
  // the list, and the server refuses a batch naming a list the device never was at. Lists that do
  // not hold it yet (a copy from before the list was made) offer it by a stand-in name.
  const device = useSession().user?.device;
  const deviceListId = device?.checkInListId;
  const step = lists.data ? checkInListStep(lists.data.lists, day.day, device) : null;
  // An event down to one list since the day was stored offers that one.
  const offered =
    step?.kind === 'only'
      ? [step.list]
      : deviceListId && lists.data
        ? [{ id: deviceListId, name: t('lists.deviceListName') }]
        : step?.kind === 'choose'
          ? step.lists
          : (lists.data?.lists ?? []);

  const choose = async (list: { id: string; name: string }) => {
    await selectCheckInList(list);
    notify({ title: t('lists.selected'), description: list.name, variant: 'success', scope: 'next-screen', isBrief: true });
    await stepForward(listStepFor);
  };

  return (
    <PageShell title={t('lists.title')} subtitle={t('lists.subtitle')} onBack={goBack}>
      <Card>
        <p className="text-xl font-bold text-slate-900">{event.name}</p>
        <p className="mt-1 text-lg text-slate-900">{t('scanner.dayLine', { name: day.name, day: day.day })}</p>
      </Card>
      {lists.isPending ? (
        <p className="text-base text-slate-800">{t('lists.loading')}</p>
      ) : offered.length === 0 ? (
        <EmptyState title={t('lists.loadFailed')} description={t('lists.retryHint')}>
          <Button size="large" onClick={() => void lists.refetch()}>
            {t('lists.retry')}
          </Button>
        </EmptyState>
      ) : (
        <ChoiceList>
          {offered.map((list) => (
            <ChoiceCard key={list.id} icon={DoorOpen} onChoose={() => void choose(list)}>
              <span className="text-xl font-bold break-words text-slate-900">{list.name}</span>
            </ChoiceCard>
          ))}
        </ChoiceList>
      )}
    </PageShell>
  );
}
