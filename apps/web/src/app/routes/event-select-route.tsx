/**
 * /event-select (SPEC §2): choose an event of the chosen organization; for its admins, also the way
 * into the management area ('Manage events', docs/decisions/105).
 */
import { useQuery } from '@tanstack/react-query';
import { Ban, CalendarDays, MapPin, Settings, Users } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { ChoiceCard, ChoiceList } from '@/components/ui/choice-list.tsx';
import { paths } from '@/config/paths.ts';
import { eventQueries } from '@/features/events/api.ts';
import { canManage } from '@/features/manage/manage-access.ts';
import { attendeesLabel, closedReasonText, statusBadgeClasses, statusText } from '@/features/events/events-logic.ts';
import { formatShortDate } from '@/lib/dates.ts';
import type { EventItem, OrganizationItem } from '@/lib/entities.ts';
import { clearSelection, selectEvent, useSelection } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';
import { useBackButton } from '@/lib/native/back-button.ts';
import { useBack, useStepForward } from '@/lib/use-back.ts';
import { useSwipeBack } from '@/lib/use-swipe-back.ts';
import { AccountActions } from '../account-actions.tsx';
import { useTranslation } from 'react-i18next';

export function EventSelectRoute() {
  const { organization } = useSelection();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  return <EventSelect organization={organization} />;
}

function clearOrganization(): void {
  void clearSelection('organization');
}

function EventSelect({ organization }: { organization: OrganizationItem }) {
  const { t } = useTranslation();
  const stepForward = useStepForward();
  const events = useQuery(eventQueries.list(organization.id));
  // The organization is cleared once this screen is left: cleared earlier, it would redirect this
  // screen (a history replace) before the history back lands.
  const goBack = useBack(paths.organizationSelect, clearOrganization);
  useBackButton(goBack);
  useSwipeBack(goBack);

  const choose = async (event: EventItem) => {
    await selectEvent(event);
    notify({ title: t('events.selected'), description: event.name, variant: 'success', scope: 'next-screen', isBrief: true });
    await stepForward(paths.daySelect);
  };

  return (
    <PageShell title={t('events.title')} subtitle={organization.name} onBack={goBack} actions={<AccountActions />}>
      {/* Admins only (docs/decisions/105): the organization's events in the management area. */}
      {canManage(organization.role) && (
        <Link to={paths.manage} className={buttonClassName({ variant: 'secondary' }, 'self-start')}>
          <Settings aria-hidden="true" className="size-5" />
          {t('manage.entry')}
        </Link>
      )}
      {events.isPending && <p role="status" className="text-lg text-slate-700">{t('events.loading')}</p>}
      {events.isError && (
        <Button variant="secondary" onClick={() => void events.refetch()}>
          {t('common.tryAgain')}
        </Button>
      )}
      {events.data?.length === 0 && <EmptyState title={t('events.emptyTitle')} description={t('events.emptyDescription')} />}
      {events.data && events.data.length > 0 && (
        <ChoiceList>
          {events.data.map((event) => (
            <ChoiceCard key={event.id} isDisabled={event.closedStatus !== null} onChoose={() => void choose(event)}>
              <span className="flex flex-wrap items-center gap-2">
                <span className="text-xl font-bold text-slate-900">{event.name}</span>
                <Badge className={statusBadgeClasses[event.status]}>{statusText(event.status)}</Badge>
              </span>
              <span className="flex items-center gap-2 text-base text-slate-800">
                <CalendarDays aria-hidden="true" className="size-5 shrink-0" />
                {formatShortDate(event.date)}
              </span>
              {event.location && (
                <span className="flex items-center gap-2 text-base text-slate-800">
                  <MapPin aria-hidden="true" className="size-5 shrink-0" />
                  {event.location}
                </span>
              )}
              <span className="flex items-center gap-2 text-base text-slate-800">
                <Users aria-hidden="true" className="size-5 shrink-0" />
                {attendeesLabel(event.attendeeCount)}
              </span>
              {event.closedStatus && (
                <span className="flex items-center gap-2 text-base font-semibold text-slate-900">
                  <Ban aria-hidden="true" className="size-5 shrink-0" />
                  {closedReasonText(event.closedStatus)}
                </span>
              )}
            </ChoiceCard>
          ))}
        </ChoiceList>
      )}
    </PageShell>
  );
}
