/**
 * /manage/events/:eventId/activity (docs/decisions/106, 126): the event's audit trail, newest first —
 * who (a person, or the admin CLI), when, what, and each setting before and after — a page at a
 * time, 'Show older' for the next.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageShell } from '@/components/page-shell.tsx';
import { managedEventPath, paths } from '@/config/paths.ts';
import { manageQueries } from '@/features/manage/api.ts';
import { ActivityList } from '@/features/manage/components/activity-list.tsx';
import { canManage } from '@/features/manage/manage-access.ts';
import { actionWords, changeLines, refusalOf } from '@/features/manage/manage-logic.ts';
import { useSelection } from '@/lib/selection.ts';

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
  const activity = useInfiniteQuery(manageQueries.activity(eventId));
  const items = activity.data?.pages.flat().map((entry) => ({
    id: entry.id,
    at: entry.at,
    actorName: entry.actor.name,
    title: actionWords(entry),
    lines: changeLines(entry),
    isChange: entry.before !== null,
  }));
  return (
    <PageShell title={t('manage.activity')} subtitle={event.data?.title} onBack={() => void navigate(managedEventPath(eventId), { replace: true })}>
      <ActivityList
        items={items}
        isPending={activity.isPending}
        error={activity.isError && !activity.data ? refusalOf(activity.error).text : null}
        hasOlder={activity.hasNextPage}
        isLoadingOlder={activity.isFetchingNextPage}
        olderError={activity.isFetchNextPageError ? refusalOf(activity.error).text : null}
        onShowOlder={() => void activity.fetchNextPage()}
      />
    </PageShell>
  );
}
