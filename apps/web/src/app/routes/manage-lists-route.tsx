/**
 * /manage/events/:eventId/lists (docs/decisions/100, 111, 115): an event's check-in lists for the
 * organization's admins — each entrance or desk with the ticket types and days it admits and its
 * door settings; add a list, edit one, delete one (refused by the server while it has check-ins:
 * the words are shown on the list). Others are sent to /event-select; the server refuses them.
 */
import type { CheckInList } from '@gatecheck/contract/check-in-lists';
import { useQuery } from '@tanstack/react-query';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { managedEventPath, paths } from '@/config/paths.ts';
import { manageQueries, useCreateCheckInList, useDeleteCheckInList, useSaveCheckInList } from '@/features/manage/api.ts';
import { CheckInListForm } from '@/features/manage/components/check-in-list-form.tsx';
import {
  checkCheckInListChange,
  checkInListToForm,
  checkNewCheckInList,
  daysWords,
  doorSettingsWords,
  newCheckInListForm,
  ticketTypesWords,
} from '@/features/manage/check-in-list-logic.ts';
import { canManage } from '@/features/manage/manage-access.ts';
import { eventDaysOf, refusalOf } from '@/features/manage/manage-logic.ts';
import { useSelection } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';

export function ManageListsRoute() {
  const { organization } = useSelection();
  const { eventId } = useParams();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role) || !eventId) return <Navigate to={paths.eventSelect} replace />;
  return <CheckInListsOfEvent eventId={eventId} />;
}

function CheckInListsOfEvent({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const event = useQuery(manageQueries.event(eventId));
  const lists = useQuery(manageQueries.checkInLists(eventId));
  const ticketTypes = useQuery(manageQueries.ticketTypes(eventId));
  const create = useCreateCheckInList(eventId);
  const save = useSaveCheckInList(eventId);
  const remove = useDeleteCheckInList(eventId);
  // Which form is open: a new list, one list by id, or none.
  const [editing, setEditing] = useState<'new' | string | null>(null);
  const [deleting, setDeleting] = useState<CheckInList | null>(null);
  const typeNames = ticketTypes.data?.ticketTypes.map((type) => type.name) ?? [];
  const days = eventDaysOf(event.data);

  const confirmDelete = () => {
    const list = deleting;
    setDeleting(null);
    if (!list) return;
    remove.mutate(list.id, { onSuccess: (deleted) => notify({ title: t('manageLists.deleted'), description: deleted.name, variant: 'success', isBrief: true }) });
  };

  return (
    <PageShell title={t('manageLists.title')} subtitle={event.data?.title} onBack={() => void navigate(managedEventPath(eventId), { replace: true })}>
      <p className="text-base text-slate-800">{t('manageLists.explained')}</p>
      {editing === 'new' ? (
        <section aria-labelledby="new-list-heading" className="flex flex-col gap-4 rounded-2xl border-2 border-slate-200 p-4">
          <h2 id="new-list-heading" className="text-lg font-bold text-slate-900">
            {t('manageLists.newList')}
          </h2>
          <CheckInListForm
            initial={newCheckInListForm()}
            ticketTypes={typeNames}
            days={days}
            check={checkNewCheckInList}
            submitLabel={t('manageLists.create')}
            isPending={create.isPending}
            refusal={create.error ? refusalOf(create.error) : null}
            onCancel={() => {
              create.reset();
              setEditing(null);
            }}
            onSubmit={(request) =>
              create.mutate(request, {
                onSuccess: (list) => {
                  notify({ title: t('manageLists.created'), description: list.name, variant: 'success', isBrief: true });
                  setEditing(null);
                },
              })
            }
          />
        </section>
      ) : (
        <Button size="large" onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" className="size-6" />
          {t('manageLists.newList')}
        </Button>
      )}

      {lists.isPending && <p role="status" className="text-lg text-slate-700">{t('manageLists.loading')}</p>}
      {lists.isError && <FormNotice variant="error" title={refusalOf(lists.error).text} />}
      {remove.error && <FormNotice variant="error" title={refusalOf(remove.error).text} />}
      {lists.data && (
        <ol className="flex flex-col gap-3">
          {lists.data.lists.map((list) => (
            <li key={list.id} className="flex flex-col gap-3 rounded-2xl border-2 border-slate-200 bg-white p-4">
              {editing === list.id ? (
                <>
                  <h2 className="text-lg font-bold break-words text-slate-900">{t('manageLists.editList', { name: list.name })}</h2>
                  <CheckInListForm
                    initial={checkInListToForm(list)}
                    ticketTypes={[...new Set([...typeNames, ...(list.ticketTypes ?? [])])].sort()}
                    days={days}
                    check={checkCheckInListChange}
                    submitLabel={t('manageLists.save')}
                    isPending={save.isPending}
                    refusal={save.error ? refusalOf(save.error) : null}
                    onCancel={() => {
                      save.reset();
                      setEditing(null);
                    }}
                    onSubmit={(request) =>
                      save.mutate(
                        { checkInListId: list.id, request },
                        {
                          onSuccess: (saved) => {
                            notify({ title: t('manageLists.saved'), description: saved.name, variant: 'success', isBrief: true });
                            setEditing(null);
                          },
                        },
                      )
                    }
                  />
                </>
              ) : (
                <>
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="text-xl font-bold break-words text-slate-900">{list.name}</span>
                    <Badge>{t('manageLists.position', { number: list.position })}</Badge>
                  </span>
                  <dl className="flex flex-col gap-1 text-base">
                    <div>
                      <dt className="text-sm font-semibold text-slate-700">{t('manageLists.fields.ticketTypes')}</dt>
                      <dd className="break-words text-slate-900">{ticketTypesWords(list.ticketTypes)}</dd>
                    </div>
                    <div>
                      <dt className="text-sm font-semibold text-slate-700">{t('manageLists.fields.days')}</dt>
                      <dd className="text-slate-900">{daysWords(list.days)}</dd>
                    </div>
                  </dl>
                  {doorSettingsWords(list).length > 0 && (
                    <span className="flex flex-wrap gap-2">
                      {doorSettingsWords(list).map((words) => (
                        <Badge key={words}>{words}</Badge>
                      ))}
                    </span>
                  )}
                  <div className="flex flex-col gap-2 sm:flex-row">
                    <Button
                      variant="secondary"
                      onClick={() => {
                        save.reset();
                        setEditing(list.id);
                      }}
                    >
                      <Pencil aria-hidden="true" className="size-5" />
                      {t('manageLists.editList', { name: list.name })}
                    </Button>
                    {lists.data.lists.length > 1 && (
                      <Button variant="secondary" disabled={remove.isPending} onClick={() => setDeleting(list)}>
                        <Trash2 aria-hidden="true" className="size-5" />
                        {t('manageLists.delete', { name: list.name })}
                      </Button>
                    )}
                  </div>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
        title={t('manageLists.deleteConfirmTitle', { name: deleting?.name ?? '' })}
        description={t('manageLists.deleteConfirmText')}
        cancelLabel={t('manageLists.keep')}
        confirmLabel={t('manageLists.delete', { name: deleting?.name ?? '' })}
        onConfirm={confirmDelete}
      />
    </PageShell>
  );
}
