/**
 * /manage/events/new and /manage/events/:eventId (docs/decisions/105, 106): an event's form for the
 * organization's admins — create it, or change its settings and days (moving a day that has
 * check-ins asks first, docs/decisions/145); archive or restore it; its Activity page. Saving refreshes the scanner's lists too, so the event shows there at once.
 */
import type { EventRequest, ManagedEvent } from '@gatecheck/contract/event-management';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, DoorOpen, History, RotateCcw, Ticket } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Button, buttonClassName } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { eventActivityPath, eventListsPath, eventTicketsPath, managedEventPath, paths } from '@/config/paths.ts';
import { eventQueries } from '@/features/events/api.ts';
import { organizationQueries } from '@/features/organizations/api.ts';
import { manageQueries, useArchiveEvent, useCreateEvent, useSaveEvent } from '@/features/manage/api.ts';
import { EventForm } from '@/features/manage/components/event-form.tsx';
import { canManage } from '@/features/manage/manage-access.ts';
import { eventToForm, newEventForm, refusalOf, todayOnDevice } from '@/features/manage/manage-logic.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { useSelection } from '@/lib/selection.ts';
import { ApiError } from '@/lib/api-client.ts';
import { notify } from '@/lib/toast.ts';
import { useBack } from '@/lib/use-back.ts';

/** Whether `error` is the server asking to confirm moving a day that has check-ins (docs/decisions/145). */
function isConfirmationRequired(error: Error): boolean {
  return error instanceof ApiError && error.code === 'confirmation_required';
}

/** Refreshes what the scanning flow shows of the organization's events (its event list, active-event counts). */
function useRefreshScanningLists(organizationId: string) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: eventQueries.list(organizationId).queryKey });
    void queryClient.invalidateQueries({ queryKey: organizationQueries.list().queryKey });
  };
}

export function ManageEventRoute() {
  const { organization } = useSelection();
  const { eventId } = useParams();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return eventId ? <EditEvent organization={organization} eventId={eventId} /> : <NewEvent organization={organization} />;
}

function NewEvent({ organization }: { organization: OrganizationItem }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const goBack = useBack(paths.manage);
  const create = useCreateEvent(organization.id);
  const refreshScanning = useRefreshScanningLists(organization.id);
  const [initial] = useState(() => newEventForm(todayOnDevice()));
  const submit = (request: EventRequest) =>
    create.mutate(request, {
      onSuccess: (event) => {
        refreshScanning();
        notify({ title: t('manage.created'), description: event.title, variant: 'success', scope: 'next-screen', isBrief: true });
        void navigate(managedEventPath(event.id), { replace: true });
      },
    });
  return (
    <PageShell title={t('manage.newEvent')} subtitle={organization.name} onBack={goBack}>
      <EventForm initial={initial} submitLabel={t('manage.create')} isPending={create.isPending} refusal={create.error ? refusalOf(create.error) : null} onSubmit={submit} />
    </PageShell>
  );
}

function EditEvent({ organization, eventId }: { organization: OrganizationItem; eventId: string }) {
  const { t } = useTranslation();
  const goBack = useBack(paths.manage);
  const event = useQuery(manageQueries.event(eventId));
  return (
    <PageShell title={event.data?.title ?? t('manage.editEvent')} subtitle={organization.name} onBack={goBack}>
      {event.isPending && <p role="status" className="text-lg text-slate-700">{t('manage.loading')}</p>}
      {event.isError && <FormNotice variant="error" title={refusalOf(event.error).text} />}
      {/* Keyed by the saved version: after a save the form starts again from what the server holds. */}
      {event.data && <EventEditor key={JSON.stringify(event.data)} organization={organization} event={event.data} />}
    </PageShell>
  );
}

function EventEditor({ organization, event }: { organization: OrganizationItem; event: ManagedEvent }) {
  const { t } = useTranslation();
  const save = useSaveEvent(event.id);
  const archive = useArchiveEvent(event.id);
  const refreshScanning = useRefreshScanningLists(organization.id);
  const [isConfirmingArchive, setConfirmingArchive] = useState(false);
  // The edit the server asked to confirm: it moves a day that has check-ins (docs/decisions/145).
  const [moveToConfirm, setMoveToConfirm] = useState<{ request: EventRequest; text: string } | null>(null);
  const isArchived = event.archivedAt !== null;
  const submit = (request: EventRequest, confirm = false) => {
    setMoveToConfirm(null);
    save.mutate(
      { ...request, confirm },
      {
        onSuccess: (saved) => {
          refreshScanning();
          notify({ title: t('manage.saved'), description: saved.title, variant: 'success', isBrief: true });
        },
        onError: (error) => {
          if (isConfirmationRequired(error)) setMoveToConfirm({ request, text: refusalOf(error).text });
        },
      },
    );
  };
  const refusal = save.error && !isConfirmationRequired(save.error) ? refusalOf(save.error) : null;
  const archiveOrRestore = (action: 'archive' | 'restore') => {
    setConfirmingArchive(false);
    archive.mutate(action, {
      onSuccess: (changed) => {
        refreshScanning();
        notify({ title: action === 'archive' ? t('manage.archivedToast') : t('manage.restoredToast'), description: changed.title, variant: 'success', isBrief: true });
      },
    });
  };
  return (
    <>
      <Link to={eventActivityPath(event.id)} className={buttonClassName({ variant: 'secondary' })}>
        <History aria-hidden="true" className="size-5" />
        {t('manage.activity')}
      </Link>
      <Link to={eventTicketsPath(event.id)} className={buttonClassName({ variant: 'secondary' })}>
        <Ticket aria-hidden="true" className="size-5" />
        {t('tickets.title')}
      </Link>
      <Link to={eventListsPath(event.id)} className={buttonClassName({ variant: 'secondary' })}>
        <DoorOpen aria-hidden="true" className="size-5" />
        {t('manageLists.title')}
      </Link>
      {isArchived ? (
        <FormNotice variant="success" title={t('manage.archivedNotice')} />
      ) : (
        <EventForm initial={eventToForm(event)} submitLabel={t('manage.save')} isPending={save.isPending} refusal={refusal} onSubmit={(request) => submit(request)} />
      )}
      <section aria-labelledby="archive-heading" className="flex flex-col gap-3 rounded-2xl border-2 border-slate-200 p-4">
        <h2 id="archive-heading" className="text-lg font-bold text-slate-900">
          {isArchived ? t('manage.restoreHeading') : t('manage.archiveHeading')}
        </h2>
        <p className="text-base text-slate-800">{isArchived ? t('manage.restoreExplained') : t('manage.archiveExplained')}</p>
        {archive.error && <FormNotice variant="error" title={refusalOf(archive.error).text} />}
        {isArchived ? (
          <Button variant="secondary" disabled={archive.isPending} onClick={() => archiveOrRestore('restore')}>
            <RotateCcw aria-hidden="true" className="size-5" />
            {t('manage.restore')}
          </Button>
        ) : (
          <Button variant="secondary" disabled={archive.isPending} onClick={() => setConfirmingArchive(true)}>
            <Archive aria-hidden="true" className="size-5" />
            {t('manage.archive')}
          </Button>
        )}
      </section>
      <ConfirmDialog
        open={isConfirmingArchive}
        onOpenChange={setConfirmingArchive}
        title={t('manage.archiveConfirmTitle', { title: event.title })}
        description={t('manage.archiveConfirmText')}
        cancelLabel={t('manage.keep')}
        confirmLabel={t('manage.archive')}
        onConfirm={() => archiveOrRestore('archive')}
      />
      <ConfirmDialog
        open={moveToConfirm !== null}
        onOpenChange={(open) => {
          if (!open) setMoveToConfirm(null);
        }}
        title={t('manage.moveDayConfirmTitle')}
        description={moveToConfirm?.text ?? ''}
        cancelLabel={t('manage.keepDate')}
        confirmLabel={t('manage.moveDay')}
        onConfirm={() => {
          if (moveToConfirm) submit(moveToConfirm.request, true);
        }}
      />
    </>
  );
}
