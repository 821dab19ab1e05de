/**
 * /manage/activity (docs/decisions/126): the selected organization's own audit trail for its admins
 * — invitations, members and their roles, door devices — newest first, who, when, what, before and
 * after, a page at a time with 'Show older'.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageShell } from '@/components/page-shell.tsx';
import { paths } from '@/config/paths.ts';
import { manageQueries } from '@/features/manage/api.ts';
import { ActivityList } from '@/features/manage/components/activity-list.tsx';
import { canManage } from '@/features/manage/manage-access.ts';
import { organizationActionWords, organizationChangeLines, refusalOf } from '@/features/manage/manage-logic.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { useSelection } from '@/lib/selection.ts';

export function ManageOrganizationActivityRoute() {
  const { organization } = useSelection();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return <OrganizationActivity organization={organization} />;
}

function OrganizationActivity({ organization }: { organization: OrganizationItem }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const activity = useInfiniteQuery(manageQueries.organizationActivity(organization.id));
  const items = activity.data?.pages.flat().map((entry) => ({
    id: entry.id,
    at: entry.at,
    actorName: entry.actor.name,
    title: organizationActionWords(entry),
    lines: organizationChangeLines(entry),
    isChange: entry.before !== null && entry.after !== null,
  }));
  return (
    <PageShell title={t('manage.organizationActivity')} subtitle={organization.name} onBack={() => void navigate(paths.manage, { replace: true })}>
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
