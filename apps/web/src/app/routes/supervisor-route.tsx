/**
 * /supervisor (issue 11): the supervisor tools for the selected event day — Find attendee and the
 * scan log. Reached from the day-select screen's 'Supervisor tools' link, shown only to supervisors
 * and admins of the selected organization; the server refuses everyone else anyway.
 *
 * The day's check-in list is kept in step with the event's lists as on /scanner (docs/decisions/151):
 * a list deleted since it was chosen, or still to choose, leads to the list step, and the list chosen
 * there leads back here (`listStepForSupervisor`).
 *
 * A manual check-in of a ticket this device admitted offline, in a scan not yet sent, is refused on
 * the device, as on the scanner's Find attendee (decision 078): the server does not know it yet.
 */
import { Activity } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { buttonClassName } from '@/components/ui/button.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { paths } from '@/config/paths.ts';
import { liveDoorPagePath } from '@/features/live-door/api.ts';
import { dayLabel } from '@/features/days/days-logic.ts';
import { AttendeeSearch } from '@/features/supervisor/components/attendee-search.tsx';
import { ScanLogList } from '@/features/supervisor/components/scan-log-list.tsx';
import { canUseSupervisorTools } from '@/features/supervisor/supervisor-logic.ts';
import { listStepForSupervisor } from '@/lib/list-step-for.ts';
import { useSelection } from '@/lib/selection.ts';
import { useBack } from '@/lib/use-back.ts';
import { useTranslation } from 'react-i18next';
import { useMemo } from 'react';
import { unsentAdmissionCheck } from '@/features/scanner/offline/outbox.ts';
import { useListKeptCurrent } from '@/features/scanner/use-list-kept-current.ts';
import { useSession } from '@/app/session-provider.tsx';
import type { EventItem, SelectedDay } from '@/lib/entities.ts';

export function SupervisorRoute() {
  const { organization, event, day } = useSelection();
  if (!organization || !event || !day) return <Navigate to={paths.daySelect} replace />;
  if (!canUseSupervisorTools(organization.role)) return <Navigate to={paths.scanner} replace />;
  // The day's list still to choose (chosen nowhere yet, or deleted since): the list step, as from
  // /scanner — the tools would otherwise search and check in at the event's first list.
  // The list chosen there leads back here.
  if (day.checkInList === null) return <Navigate to={paths.daySelect} replace state={listStepForSupervisor} />;
  return <SupervisorTools event={event} day={day} />;
}

/** The tools for the chosen event day, at its chosen check-in list. */
function SupervisorTools({ event, day }: { event: Pick<EventItem, 'id' | 'name'>; day: SelectedDay }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const goBack = useBack(paths.daySelect);
  const isAdmittedHereUnsent = useMemo(() => unsentAdmissionCheck(event.id, day.day, { checkInListId: day.checkInList?.id }), [event.id, day.day, day.checkInList?.id]);
  // A list deleted (or lists added) since the day was chosen: the list step, as on /scanner
  // (docs/decisions/151). Nothing here is a scan in progress that a question could interrupt.
  useListKeptCurrent({ eventId: event.id, day, device: user?.device ?? undefined, isScanning: false });
  return (
    <PageShell title={t('supervisor.title')} subtitle={`${event.name} · ${dayLabel(day.day)}: ${day.name}${day.checkInList ? ` · ${day.checkInList.name}` : ''}`} onBack={goBack}>
      <Link to={liveDoorPagePath(event.id, day.day)} className={buttonClassName({ variant: 'secondary', size: 'large' })}>
        <Activity aria-hidden="true" className="size-5" />
        {t('live.open')}
      </Link>
      <AttendeeSearch eventId={event.id} day={day.day} checkInListId={day.checkInList?.id} isAdmittedHereUnsent={isAdmittedHereUnsent} />
      <ScanLogList eventId={event.id} day={day.day} />
    </PageShell>
  );
}
