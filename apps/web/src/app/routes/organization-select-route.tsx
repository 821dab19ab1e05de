/** /organization-select (SPEC §2): choose one of the user's organizations. */
import { useQuery } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ChoiceCard, ChoiceList } from '@/components/ui/choice-list.tsx';
import { paths } from '@/config/paths.ts';
import { organizationQueries } from '@/features/organizations/api.ts';
import { activeEventsLabel, roleBadgeText } from '@/features/organizations/organizations-logic.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { selectOrganization } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';
import { useBackButton } from '@/lib/native/back-button.ts';
import { useBack, useStepForward } from '@/lib/use-back.ts';
import { useSwipeBack } from '@/lib/use-swipe-back.ts';
import { AccountActions } from '../account-actions.tsx';
import { useTranslation } from 'react-i18next';

export function OrganizationSelectRoute() {
  const { t } = useTranslation();
  const stepForward = useStepForward();
  const organizations = useQuery(organizationQueries.list());
  const goBack = useBack(paths.login);
  useBackButton(goBack);
  useSwipeBack(goBack);

  const choose = async (organization: OrganizationItem) => {
    await selectOrganization(organization);
    notify({ title: t('organizations.selected'), description: organization.name, variant: 'success', scope: 'next-screen', isBrief: true });
    await stepForward(paths.eventSelect);
  };

  return (
    <PageShell title={t('organizations.title')} onBack={goBack} actions={<AccountActions />}>
      {organizations.isPending && <p role="status" className="text-lg text-slate-700">{t('organizations.loading')}</p>}
      {organizations.isError && (
        <Button variant="secondary" onClick={() => void organizations.refetch()}>
          {t('common.tryAgain')}
        </Button>
      )}
      {organizations.data?.length === 0 && (
        <EmptyState title={t('organizations.emptyTitle')} description={t('organizations.emptyDescription')} />
      )}
      {organizations.data && organizations.data.length > 0 && (
        <ChoiceList>
          {organizations.data.map((organization) => (
            <ChoiceCard key={organization.id} icon={Building2} onChoose={() => void choose(organization)}>
              <span className="flex flex-wrap items-center gap-2">
                <span className="text-xl font-bold text-slate-900">{organization.name}</span>
                <Badge>{roleBadgeText(organization.role)}</Badge>
              </span>
              {organization.description && <span className="text-base text-slate-700">{organization.description}</span>}
              <span className="text-base font-semibold text-slate-800">{activeEventsLabel(organization.activeEventCount)}</span>
            </ChoiceCard>
          ))}
        </ChoiceList>
      )}
    </PageShell>
  );
}
