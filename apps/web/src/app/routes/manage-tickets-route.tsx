/**
 * /manage/events/:eventId/tickets (docs/decisions/114): an event's ticket types and tickets for the
 * organization's admins — types with their check-in note, attention flag and days (add, change,
 * rename, delete; docs/decisions/125);
 * a CSV upload with a preview naming each rejected row, then import (with its progress) or cancel;
 * tickets found by name or code, each with its holder and type to change, revoke or reinstate, and
 * its QR code; every ticket's QR PDF. Forms are checked with the contract's schemas before sending;
 * a refusal from the server is shown next to its field.
 */
import type { TicketType } from '@gatecheck/contract/check-in-notes';
import { type ManagedTicket, manageTicketPaths, type TicketImportSummary } from '@gatecheck/contract/ticket-management';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, FileUp, QrCode, Search } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { managedEventPath, paths } from '@/config/paths.ts';
import { manageQueries } from '@/features/manage/api.ts';
import { DaysChoice, type DaysChoiceValue } from '@/features/manage/components/check-group.tsx';
import { Field, FieldProblem, fieldControlProps } from '@/features/manage/components/field.tsx';
import { canManage } from '@/features/manage/manage-access.ts';
import { eventDaysOf, refusalOf } from '@/features/manage/manage-logic.ts';
import {
  importTicketCsv,
  previewTicketCsv,
  ticketQueries,
  useCreateTicketType,
  useDeleteTicketType,
  useEditTicket,
  useEditTicketType,
  useRevokeTicket,
} from '@/features/manage/tickets-api.ts';
import { checkTicketForm, checkTicketTypeEdit, checkTicketTypeForm, importPercent, ticketDaysWords, type TicketFieldProblems } from '@/features/manage/tickets-logic.ts';
import { downloadApiFile } from '@/lib/download-file.ts';
import { useSelection } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';

export function ManageTicketsRoute() {
  const { organization } = useSelection();
  const { eventId = '' } = useParams();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return <Tickets eventId={eventId} />;
}

function Tickets({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const event = useQuery(manageQueries.event(eventId));
  return (
    <PageShell title={t('tickets.title')} subtitle={event.data?.title} onBack={() => void navigate(managedEventPath(eventId), { replace: true })}>
      <TicketTypes eventId={eventId} />
      <CsvUpload eventId={eventId} />
      <TicketFinder eventId={eventId} eventTitle={event.data?.title ?? 'tickets'} />
    </PageShell>
  );
}

const sectionClass = 'flex flex-col gap-4 rounded-2xl border-2 border-slate-200 p-4';

/** What a days choice starts as for a type admitting `days` (null: every day). */
function daysChoiceOf(days: number[] | null): DaysChoiceValue {
  return { isEveryDay: days === null, days: days ?? [] };
}

function TicketTypes({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const types = useQuery(ticketQueries.types(eventId));
  const event = useQuery(manageQueries.event(eventId));
  const days = eventDaysOf(event.data);
  const create = useCreateTicketType(eventId);
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [isAttention, setAttention] = useState(false);
  const [daysChoice, setDaysChoice] = useState<DaysChoiceValue>(daysChoiceOf(null));
  const [problems, setProblems] = useState<TicketFieldProblems>({});
  const refusal = create.error ? refusalOf(create.error) : null;
  const shown = { ...(refusal?.field ? { [refusal.field]: refusal.text } : {}), ...problems };
  const submit = (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    const checked = checkTicketTypeForm({ name, checkInNote: note, requiresAttention: isAttention, ...daysChoice });
    setProblems(checked.problems ?? {});
    if (!checked.request) return;
    create.mutate(checked.request, {
      onSuccess: (type) => {
        notify({ title: t('tickets.typeAdded'), description: type.name, variant: 'success', isBrief: true });
        setName('');
        setNote('');
        setAttention(false);
        setDaysChoice(daysChoiceOf(null));
      },
    });
  };
  return (
    <section aria-labelledby="types-heading" className={sectionClass}>
      <h2 id="types-heading" className="text-lg font-bold text-slate-900">
        {t('tickets.typesHeading')}
      </h2>
      {types.isError && <FormNotice variant="error" title={refusalOf(types.error).text} />}
      {types.data?.length === 0 && <p className="text-base text-slate-800">{t('tickets.noTypes')}</p>}
      {types.data && types.data.length > 0 && (
        <ul className="flex flex-col gap-3">
          {types.data.map((type) => (
            <TicketTypeRow key={`${type.name}:${type.checkInNote}:${String(type.requiresAttention)}:${type.days?.join(',') ?? 'all'}`} eventId={eventId} type={type} days={days} />
          ))}
        </ul>
      )}
      <form noValidate onSubmit={submit} className="flex flex-col gap-3">
        <h3 className="text-base font-bold text-slate-900">{t('tickets.addType')}</h3>
        <Field id="type-name" label={t('tickets.typeName')} problem={shown.name}>
          {(control) => <Input {...control} value={name} onChange={(change) => setName(change.target.value)} />}
        </Field>
        <Field id="type-note" label={t('tickets.note')} problem={shown.checkInNote}>
          {(control) => <Input {...control} value={note} onChange={(change) => setNote(change.target.value)} />}
        </Field>
        <Switch checked={isAttention} onCheckedChange={setAttention} hint={t('tickets.attentionHint')}>
          {t('tickets.attention')}
        </Switch>
        <DaysChoice legend={t('tickets.typeDays')} hint={t('tickets.typeDaysHint')} days={days} value={daysChoice} id="type-days" problem={shown.days} onChange={setDaysChoice} />
        {refusal && !refusal.field && <FormNotice variant="error" title={refusal.text} />}
        <Button type="submit" disabled={create.isPending}>
          {t('tickets.addType')}
        </Button>
      </form>
    </section>
  );
}

function TicketTypeRow({ eventId, type, days }: { eventId: string; type: TicketType; days: ReadonlyArray<{ day: number; name: string }> }) {
  const { t } = useTranslation();
  const edit = useEditTicketType(eventId);
  const remove = useDeleteTicketType(eventId);
  const [name, setName] = useState(type.name);
  const [note, setNote] = useState(type.checkInNote);
  const [isAttention, setAttention] = useState(type.requiresAttention);
  const [daysChoice, setDaysChoice] = useState<DaysChoiceValue>(daysChoiceOf(type.days));
  const [isConfirming, setConfirming] = useState(false);
  const [problems, setProblems] = useState<TicketFieldProblems>({});
  const id = useId();
  const refusal = edit.error ? refusalOf(edit.error) : remove.error ? refusalOf(remove.error) : null;
  const shown = { ...(refusal?.field && edit.error ? { [refusal.field]: refusal.text } : {}), ...problems };
  const save = () => {
    const checked = checkTicketTypeEdit(type.name, { name, checkInNote: note, requiresAttention: isAttention, ...daysChoice });
    setProblems(checked.problems ?? {});
    if (checked.request) {
      edit.mutate(
        { name: type.name, change: checked.request },
        { onSuccess: (saved) => notify({ title: t('tickets.typeSaved'), description: saved.name, variant: 'success', isBrief: true }) },
      );
    }
  };
  return (
    <li className="flex flex-col gap-2 rounded-xl border-2 border-slate-200 p-3">
      <p className="flex flex-wrap items-center gap-2 text-base font-bold text-slate-900">
        <span className="break-words">{type.name}</span>
        <Badge>{t('manage.ticketCount', { count: type.tickets })}</Badge>
        <Badge>{ticketDaysWords(type.days)}</Badge>
      </p>
      <Field id={`${id}-name`} label={t('tickets.typeName')} hint={t('tickets.renameHint')} problem={shown.name}>
        {(control) => <Input {...control} value={name} onChange={(change) => setName(change.target.value)} />}
      </Field>
      <Field id={`${id}-note`} label={t('tickets.note')} problem={shown.checkInNote}>
        {(control) => <Input {...control} value={note} onChange={(change) => setNote(change.target.value)} />}
      </Field>
      <Switch checked={isAttention} onCheckedChange={setAttention}>
        {t('tickets.attention')}
      </Switch>
      <DaysChoice legend={t('tickets.typeDays')} days={days} value={daysChoice} id={`${id}-days`} problem={shown.days} onChange={setDaysChoice} />
      {refusal && !(refusal.field && edit.error) && <FormNotice variant="error" title={refusal.text} />}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={edit.isPending} onClick={save}>
          {t('tickets.saveType', { name: type.name })}
        </Button>
        <Button variant="danger" disabled={remove.isPending} onClick={() => setConfirming(true)}>
          {t('tickets.deleteType', { name: type.name })}
        </Button>
      </div>
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setConfirming}
        title={t('tickets.deleteTypeTitle', { name: type.name })}
        description={t('tickets.deleteTypeText')}
        cancelLabel={t('manage.keep')}
        confirmLabel={t('tickets.delete')}
        onConfirm={() => {
          setConfirming(false);
          remove.mutate(type.name);
        }}
      />
    </li>
  );
}

type UploadState =
  | { step: 'choose' }
  | { step: 'previewing'; file: File }
  | { step: 'preview'; file: File; preview: TicketImportSummary }
  | { step: 'importing'; file: File; percent: number; rows: number }
  | { step: 'done'; summary: TicketImportSummary };

function CsvUpload({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadState>({ step: 'choose' });
  const [problem, setProblem] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const reset = () => {
    setState({ step: 'choose' });
    setInputKey((key) => key + 1);
  };
  const choose = (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    setState({ step: 'previewing', file });
    previewTicketCsv(eventId, file).then(
      (preview) => setState({ step: 'preview', file, preview }),
      (error: unknown) => {
        setProblem(error instanceof Error ? refusalOf(error).text : String(error));
        reset();
      },
    );
  };
  const runImport = (file: File) => {
    setState({ step: 'importing', file, percent: 0, rows: 0 });
    importTicketCsv(eventId, file, ({ rows, bytes }) => setState({ step: 'importing', file, percent: importPercent(bytes, file.size), rows })).then(
      (summary) => {
        setState({ step: 'done', summary });
        notify({ title: t('tickets.imported', { count: summary.imported }), variant: 'success', isBrief: true });
      },
      (error: unknown) => {
        setProblem(error instanceof Error ? refusalOf(error).text : String(error));
        reset();
      },
    ).finally(() => void queryClient.invalidateQueries({ queryKey: [...manageQueries.all(), 'event', eventId] }));
  };
  return (
    <section aria-labelledby="upload-heading" className={sectionClass}>
      <h2 id="upload-heading" className="text-lg font-bold text-slate-900">
        {t('tickets.uploadHeading')}
      </h2>
      <p className="text-base text-slate-800">{t('tickets.uploadHint')}</p>
      {(state.step === 'choose' || state.step === 'previewing') && (
        <>
          <Label htmlFor="csv-file">{t('tickets.csvFile')}</Label>
          <input
            key={inputKey}
            type="file"
            accept=".csv,text/csv"
            disabled={state.step === 'previewing'}
            {...fieldControlProps('csv-file', { problem })}
            className="text-base text-slate-900"
            onChange={(change) => choose(change.target.files?.[0])}
          />
          <FieldProblem id="csv-file" text={problem} />
          {state.step === 'previewing' && <p role="status" className="text-base text-slate-800">{t('tickets.checking')}</p>}
        </>
      )}
      {state.step === 'preview' && (
        <>
          <ImportSummary summary={state.preview} isPreview />
          <div className="flex flex-wrap gap-2">
            <Button disabled={state.preview.imported === 0} onClick={() => runImport(state.file)}>
              <FileUp aria-hidden="true" className="size-5" />
              {t('tickets.importCount', { count: state.preview.imported })}
            </Button>
            <Button variant="secondary" onClick={reset}>
              {t('tickets.cancel')}
            </Button>
          </div>
        </>
      )}
      {state.step === 'importing' && (
        <div className="flex flex-col gap-2">
          <label htmlFor="import-progress" className="text-base font-semibold text-slate-900">
            {t('tickets.importing', { rows: state.rows })}
          </label>
          <progress id="import-progress" max={100} value={state.percent} className="w-full">
            {state.percent}%
          </progress>
        </div>
      )}
      {state.step === 'done' && (
        <>
          <ImportSummary summary={state.summary} isPreview={false} />
          <Button variant="secondary" onClick={reset}>
            {t('tickets.uploadAnother')}
          </Button>
        </>
      )}
    </section>
  );
}

function ImportSummary({ summary, isPreview }: { summary: TicketImportSummary; isPreview: boolean }) {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex flex-col gap-2">
      <p className="text-base font-semibold text-slate-900">
        {isPreview ? t('tickets.previewLine', { count: summary.imported, rows: summary.rows }) : t('tickets.doneLine', { count: summary.imported, rows: summary.rows })}
      </p>
      {summary.rejectedCount > 0 && (
        <>
          <p className="text-base text-slate-800">{t('tickets.rejectedCount', { count: summary.rejectedCount })}</p>
          <ul className="flex flex-col gap-1 text-base text-slate-900">
            {summary.rejected.map((row) => (
              <li key={`${row.line}:${row.reason}`} className="break-words">
                {t('tickets.rejectedRow', { line: row.line, reason: row.reason })}
                {row.code ? ` (${row.code})` : ''}
              </li>
            ))}
          </ul>
          {summary.rejectedCount > summary.rejected.length && <p className="text-base text-slate-800">{t('tickets.moreRejected', { count: summary.rejectedCount - summary.rejected.length })}</p>}
        </>
      )}
      {summary.offlineOnlyCount > 0 && <p className="text-base text-slate-800">{t('tickets.offlineOnly', { count: summary.offlineOnlyCount })}</p>}
    </div>
  );
}

function TicketFinder({ eventId, eventTitle }: { eventId: string; eventTitle: string }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [downloadProblem, setDownloadProblem] = useState<string | null>(null);
  // Plain codes unless the organizer asks for signed ones (docs/decisions/135), as the CLI's --signed.
  const [isSigned, setSigned] = useState(false);
  const found = useQuery(ticketQueries.search(eventId, query));
  // One file at a time, as the live door's exports: a second tap while a large PDF is fetched and
  // written would write the same file twice at once on a phone (docs/decisions/144).
  const [isDownloading, setDownloading] = useState(false);
  const download = (path: string, fileName: string) => {
    if (isDownloading) return;
    setDownloadProblem(null);
    setDownloading(true);
    downloadApiFile(path, fileName)
      .catch((error: unknown) => setDownloadProblem(error instanceof Error ? refusalOf(error).text : String(error)))
      .finally(() => setDownloading(false));
  };
  return (
    <section aria-labelledby="find-heading" className={sectionClass}>
      <h2 id="find-heading" className="text-lg font-bold text-slate-900">
        {t('tickets.findHeading')}
      </h2>
      <Switch checked={isSigned} onCheckedChange={setSigned} hint={t('tickets.signedQrHint')}>
        {t('tickets.signedQr')}
      </Switch>
      <Button
        variant="secondary"
        disabled={isDownloading}
        aria-busy={isDownloading || undefined}
        onClick={() => download(manageTicketPaths.ticketsPdf(eventId, { signed: isSigned }), `${eventTitle.replace(/[^A-Za-z0-9._-]+/g, '-')}-tickets${isSigned ? '-signed' : ''}.pdf`)}
      >
        <Download aria-hidden="true" className="size-5" />
        {t('tickets.downloadPdf')}
      </Button>
      {downloadProblem && <FormNotice variant="error" title={downloadProblem} />}
      <form
        role="search"
        noValidate
        className="flex flex-col gap-2"
        onSubmit={(formEvent) => {
          formEvent.preventDefault();
          setQuery(typed.trim());
        }}
      >
        <Label htmlFor="ticket-query">{t('tickets.findLabel')}</Label>
        <div className="flex gap-2">
          <Input id="ticket-query" type="search" value={typed} onChange={(change) => setTyped(change.target.value)} />
          <Button type="submit" size="icon" aria-label={t('tickets.find')}>
            <Search aria-hidden="true" className="size-5" />
          </Button>
        </div>
      </form>
      {found.isError && <FormNotice variant="error" title={refusalOf(found.error).text} />}
      {found.data?.tickets.length === 0 && <p className="text-base text-slate-800">{t('tickets.noneFound')}</p>}
      {found.data && found.data.tickets.length > 0 && (
        <ul className="flex flex-col gap-3">
          {found.data.tickets.map((ticket) => (
            <TicketRow
              key={`${ticket.id}:${ticket.holderName}:${ticket.ticketType}:${ticket.revokedAt ?? ''}`}
              eventId={eventId}
              ticket={ticket}
              isSigned={isSigned}
              isDownloading={isDownloading}
              onDownload={download}
            />
          ))}
        </ul>
      )}
      {found.data?.hasMore && <p className="text-base text-slate-800">{t('tickets.hasMore')}</p>}
    </section>
  );
}

function TicketRow({
  eventId,
  ticket,
  isSigned,
  isDownloading,
  onDownload,
}: {
  eventId: string;
  ticket: ManagedTicket;
  isSigned: boolean;
  /** A file is being saved: its buttons wait. */
  isDownloading: boolean;
  onDownload: (path: string, fileName: string) => void;
}) {
  const { t } = useTranslation();
  const edit = useEditTicket(eventId);
  const revoke = useRevokeTicket(eventId);
  const [holderName, setHolderName] = useState(ticket.holderName);
  const [ticketType, setTicketType] = useState(ticket.ticketType);
  const [problems, setProblems] = useState<TicketFieldProblems>({});
  const id = useId();
  const refusal = edit.error ? refusalOf(edit.error) : revoke.error ? refusalOf(revoke.error) : null;
  const shown = { ...(refusal?.field ? { [refusal.field]: refusal.text } : {}), ...problems };
  const isRevoked = ticket.revokedAt !== null;
  const save = (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    const checked = checkTicketForm({ holderName, ticketType });
    setProblems(checked.problems ?? {});
    if (checked.request) edit.mutate({ ticketId: ticket.id, change: checked.request }, { onSuccess: () => notify({ title: t('tickets.ticketSaved'), variant: 'success', isBrief: true }) });
  };
  return (
    <li className="rounded-xl border-2 border-slate-200 p-3">
      <form noValidate onSubmit={save} className="flex flex-col gap-2">
        <p className="flex flex-wrap items-center gap-2 font-mono text-sm break-all text-slate-900">
          {ticket.code}
          {isRevoked && <Badge>{t('tickets.revoked')}</Badge>}
        </p>
        <p className="text-sm text-slate-800">
          {ticketDaysWords(ticket.days)} · {t('tickets.checkIns', { count: ticket.checkIns })}
        </p>
        <Field id={`${id}-holder`} label={t('tickets.holder')} problem={shown.holderName}>
          {(control) => <Input {...control} value={holderName} onChange={(change) => setHolderName(change.target.value)} />}
        </Field>
        <Field id={`${id}-type`} label={t('tickets.type')} problem={shown.ticketType}>
          {(control) => <Input {...control} value={ticketType} onChange={(change) => setTicketType(change.target.value)} />}
        </Field>
        {refusal && !refusal.field && <FormNotice variant="error" title={refusal.text} />}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" disabled={edit.isPending}>
            {t('tickets.saveTicket')}
          </Button>
          <Button variant={isRevoked ? 'secondary' : 'danger'} disabled={revoke.isPending} onClick={() => revoke.mutate({ ticketId: ticket.id, isRevoked: !isRevoked })}>
            {isRevoked ? t('tickets.reinstate') : t('tickets.revoke')}
          </Button>
          <Button variant="ghost" disabled={isDownloading} onClick={() => onDownload(manageTicketPaths.ticketQr(eventId, ticket.id, { signed: isSigned }), `${ticket.code}${isSigned ? '-signed' : ''}.png`)}>
            <QrCode aria-hidden="true" className="size-5" />
            {t('tickets.downloadQr')}
          </Button>
        </div>
      </form>
    </li>
  );
}
