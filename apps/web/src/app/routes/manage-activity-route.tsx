/**
 * /manage/events/:eventId/activity (docs/decisions/106): the event's audit trail, newest first —
 * who (a person, or the admin CLI), when, what, and each setting before and after.
 */
import { useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { managedEventPath, paths } from '@/config/paths.ts';
import { manageQueries } from '@/features/manage/api.ts';
import { actionWords, canManage, changeLines, refusalOf } from '@/features/manage/manage-logic.ts';
import { formattingLocale } from '@/lib/i18n/index.ts';
import { useSelection } from '@/lib/selection.ts';

/** 'Fri 27 Nov 2026, 17:05' in the device's clock. */
function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString(formattingLocale('en-GB'), { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function ManageActivityRoute() {
  const { organization } = useSelection();
  const { eventId = '' } = useParams();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return <Activity eventId={eventId} />;
}

function Activity({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const event = useQuery(manageQueries.event(eventId));
  const activity = useQuery(manageQueries.activity(eventId));
  return (
    <PageShell title={t('manage.activity')} subtitle={event.data?.title} onBack={() => void navigate(managedEventPath(eventId), { replace: true })}>
      {activity.isPending && <p role="status" className="text-lg text-slate-700">{t('manage.loading')}</p>}
      {activity.isError && <FormNotice variant="error" title={refusalOf(activity.error).text} />}
      {activity.data?.length === 0 && <p className="text-base text-slate-800">{t('manage.noActivity')}</p>}
      {activity.data && activity.data.length > 0 && (
        <ol className="flex flex-col gap-3">
          {activity.data.map((entry) => (
            <li key={entry.id} className="rounded-2xl border-2 border-slate-200 bg-white p-4">
              <p className="text-lg font-bold text-slate-900">{actionWords(entry)}</p>
              <p className="text-base text-slate-800">
                <time dateTime={entry.at}>{formatWhen(entry.at)}</time> · {entry.actor.name}
              </p>
              <dl className="mt-2 flex flex-col gap-2">
                {changeLines(entry).map((line) => (
                  <div key={line.field} className="flex flex-col">
                    <dt className="text-sm font-semibold text-slate-700">{line.label}</dt>
                    <dd className="text-base break-words text-slate-900">
                      {entry.before ? t('manage.fromTo', { before: line.before, after: line.after }) : line.after}
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ol>
      )}
    </PageShell>
  );
}
