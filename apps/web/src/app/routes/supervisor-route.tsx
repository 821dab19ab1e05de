/**
 * /supervisor (issue 11): the supervisor tools for the selected event day — Find attendee and the
 * scan log. Reached from the day-select screen's 'Supervisor tools' link, shown only to supervisors
 * and admins of the selected organization; the server refuses everyone else anyway.
 */
import { Navigate } from 'react-router';
import { PageShell } from '@/components/page-shell.tsx';
import { paths } from '@/config/paths.ts';
import { dayLabel } from '@/features/days/days-logic.ts';
import { AttendeeSearch } from '@/features/supervisor/components/attendee-search.tsx';
import { ScanLogList } from '@/features/supervisor/components/scan-log-list.tsx';
import { canUseSupervisorTools } from '@/features/supervisor/supervisor-logic.ts';
import { useSelection } from '@/lib/selection.ts';
import { useBack } from '@/lib/use-back.ts';
import { useTranslation } from 'react-i18next';

export function SupervisorRoute() {
  const { t } = useTranslation();
  const { organization, event, day } = useSelection();
  const goBack = useBack(paths.daySelect);
  if (!organization || !event || !day) return <Navigate to={paths.daySelect} replace />;
  if (!canUseSupervisorTools(organization.role)) return <Navigate to={paths.scanner} replace />;
  return (
    <PageShell title={t('supervisor.title')} subtitle={`${event.name} · ${dayLabel(day.day)}: ${day.name}`} onBack={goBack}>
      <AttendeeSearch eventId={event.id} day={day.day} />
      <ScanLogList eventId={event.id} day={day.day} />
    </PageShell>
  );
}
