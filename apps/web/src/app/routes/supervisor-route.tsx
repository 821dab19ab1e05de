/**
 * /supervisor (issue 11): the supervisor tools for the selected event day — Find attendee and the
 * scan log. Reached from the day-select screen's 'Supervisor tools' link, shown only to supervisors
 * and admins of the selected organization; the server refuses everyone else anyway.
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
import { useSelection } from '@/lib/selection.ts';
import { useBack } from '@/lib/use-back.ts';
import { useTranslation } from 'react-i18next';
import { useMemo } from 'react';
import { unsentAdmissionCheck } from '@/features/scanner/offline/outbox.ts';

export function SupervisorRoute() {
  const { t } = useTranslation();
  const { organization, event, day } = useSelection();
  const goBack = useBack(paths.daySelect);
  const isAdmittedHereUnsent = useMemo(() => unsentAdmissionCheck(event?.id ?? '', day?.day ?? 0, { checkInListId: day?.checkInList?.id }), [event?.id, day?.day, day?.checkInList?.id]);
  if (!organization || !event || !day) return <Navigate to={paths.daySelect} replace />;
  if (!canUseSupervisorTools(organization.role)) return <Navigate to={paths.scanner} replace />;
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
