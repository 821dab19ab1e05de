/**
 * /manage (docs/decisions/105, 106): the selected organization's events for its admins — every
 * event, archived ones too, each opening its form; 'New event'. Reached from /event-select and the
 * scanner, where only admins see the link; others who open it are sent to /event-select (the
 * server refuses them anyway).
 */
import { useQuery } from '@tanstack/react-query';
import { Archive, CalendarDays, History, Plus, Smartphone, UserPlus, Users } from 'lucide-react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { ChoiceCard, ChoiceList } from '@/components/ui/choice-list.tsx';
import { managedEventPath, paths } from '@/config/paths.ts';
import { manageQueries } from '@/features/manage/api.ts';
import { canManage } from '@/features/manage/manage-access.ts';
import { statusWords } from '@/features/manage/manage-logic.ts';
import { formatShortDate } from '@/lib/dates.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { useSelection } from '@/lib/selection.ts';
import { useBack } from '@/lib/use-back.ts';

export function ManageRoute() {
  const { organization } = useSelection();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return <ManageEvents organization={organization} />;
}

function ManageEvents({ organization }: { organization: OrganizationItem }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const events = useQuery(manageQueries.events(organization.id));
  const goBack = useBack(paths.eventSelect);
  return (
    <PageShell title={t('manage.title')} subtitle={organization.name} onBack={goBack}>
      <Link to={paths.manageNewEvent} className={buttonClassName({ size: 'large' })}>
        <Plus aria-hidden="true" className="size-6" />
        {t('manage.newEvent')}
      </Link>
      <Link to={paths.manageTeam} className={buttonClassName({ variant: 'secondary' })}>
        <UserPlus aria-hidden="true" className="size-5" />
        {t('team.title')}
      </Link>
      <Link to={paths.manageDevices} className={buttonClassName({ variant: 'secondary' })}>
        <Smartphone aria-hidden="true" className="size-5" />
        {t('devices.title')}
      </Link>
      <Link to={paths.manageActivity} className={buttonClassName({ variant: 'secondary' })}>
        <History aria-hidden="true" className="size-5" />
        {t('manage.organizationActivity')}
      </Link>
      {events.isPending && <p role="status" className="text-lg text-slate-700">{t('manage.loading')}</p>}
      {events.isError && (
        <Button variant="secondary" onClick={() => void events.refetch()}>
          {t('common.tryAgain')}
        </Button>
      )}
      {events.data?.length === 0 && <EmptyState title={t('manage.emptyTitle')} description={t('manage.emptyDescription')} />}
      {events.data && events.data.length > 0 && (
        <ChoiceList>
          {events.data.map((event) => (
            <ChoiceCard key={event.id} onChoose={() => void navigate(managedEventPath(event.id))}>
              <span className="flex flex-wrap items-center gap-2">
                <span className="text-xl font-bold break-words text-slate-900">{event.title}</span>
                <Badge>{statusWords(event.status)}</Badge>
                {event.archivedAt && (
                  <Badge className="border-slate-500 bg-slate-200">
                    <Archive aria-hidden="true" className="mr-1 size-4" />
                    {t('manage.archived')}
                  </Badge>
                )}
              </span>
              <span className="flex items-center gap-2 text-base text-slate-800">
                <CalendarDays aria-hidden="true" className="size-5 shrink-0" />
                {formatShortDate(event.date)} · {t('manage.dayCount', { count: Math.max(event.days.length, 1) })}
              </span>
              <span className="flex items-center gap-2 text-base text-slate-800">
                <Users aria-hidden="true" className="size-5 shrink-0" />
                {t('manage.ticketCount', { count: event.ticketCount })}
              </span>
            </ChoiceCard>
          ))}
        </ChoiceList>
      )}
    </PageShell>
  );
}
