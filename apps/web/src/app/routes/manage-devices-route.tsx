/**
 * /manage/devices (docs/decisions/107, 108, 116): the selected organization's door devices for its
 * admins. 'Set up a phone': an event, optionally one check-in list and a name, gives a one-time QR
 * code and its link (valid 24 h, shown once). Then every device with its event and list, app,
 * last seen, online or offline and the scans waiting on it, each renamed, moved to another event or
 * list, or removed (revoked: its next request is refused). Others are sent to /event-select; the
 * server refuses them anyway.
 */
import type { CreateEnrollmentResponse, DeviceSummary } from '@gatecheck/contract/devices';
import { useQuery } from '@tanstack/react-query';
import { Copy, QrCode, Smartphone } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { PageShell } from '@/components/page-shell.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { DayWarning } from '@/components/day-warning.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { paths } from '@/config/paths.ts';
import { deviceQueries, useCreateEnrollment, useRevokeDevice, useUpdateDevice } from '@/features/devices/api.ts';
import { appWords, deviceState, seenWords, svgImageSource } from '@/features/devices/devices-logic.ts';
import { manageQueries } from '@/features/manage/api.ts';
import { canManage } from '@/features/manage/manage-access.ts';
import { refusalOf } from '@/features/manage/manage-logic.ts';
import { checkInListQueries } from '@/lib/check-ins/check-in-lists.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { useSelection } from '@/lib/selection.ts';
import { notify } from '@/lib/toast.ts';
import { useBack } from '@/lib/use-back.ts';

/** An event a device can be set up for or moved to. */
interface EventChoice {
  id: string;
  title: string;
}

export function ManageDevicesRoute() {
  const { organization } = useSelection();
  if (!organization) return <Navigate to={paths.organizationSelect} replace />;
  if (!canManage(organization.role)) return <Navigate to={paths.eventSelect} replace />;
  return <DoorDevices organization={organization} />;
}

function DoorDevices({ organization }: { organization: OrganizationItem }) {
  const { t } = useTranslation();
  const goBack = useBack(paths.manage);
  const devices = useQuery(deviceQueries.list(organization.id));
  const events = useQuery(manageQueries.events(organization.id));
  const openEvents = (events.data ?? []).filter((event) => event.archivedAt === null);
  return (
    <PageShell title={t('devices.title')} subtitle={organization.name} onBack={goBack}>
      <SetUpPhone events={openEvents} />
      <section aria-labelledby="devices-heading" className="flex flex-col gap-3">
        <h2 id="devices-heading" className="text-lg font-bold text-slate-900">
          {t('devices.listHeading')}
        </h2>
        {/* What the state means: the app reports it only while it is open (docs/decisions/127). */}
        <p className="text-base text-slate-800">{t('devices.lastSeenExplained')}</p>
        {devices.isPending && <p role="status" className="text-lg text-slate-700">{t('devices.loading')}</p>}
        {devices.isError && <FormNotice variant="error" title={refusalOf(devices.error).text} />}
        {devices.data?.length === 0 && <p className="text-base text-slate-800">{t('devices.none')}</p>}
        <ul className="flex flex-col gap-3">
          {devices.data?.map((device) => <DeviceCard key={device.id} device={device} organizationId={organization.id} events={openEvents} />)}
        </ul>
      </section>
    </PageShell>
  );
}

/**
 * The event and check-in list a device scans, labelled selects with ids `${idPrefix}-event` and
 * `${idPrefix}-list`: the event's lists with 'Every list' first (value ''); choosing another event
 * goes back to every list.
 */
function EventAndListFields({
  idPrefix,
  events,
  eventId,
  listId,
  onEventChange,
  onListChange,
}: {
  idPrefix: string;
  events: EventChoice[];
  eventId: string;
  listId: string;
  onEventChange(value: string): void;
  onListChange(value: string): void;
}) {
  const { t } = useTranslation();
  const lists = useQuery({ ...checkInListQueries.list(eventId), enabled: eventId !== '' });
  return (
    <>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}-event`}>{t('devices.event')}</Label>
        <select
          id={`${idPrefix}-event`}
          className="ui-input"
          value={eventId}
          onChange={(change) => {
            onEventChange(change.target.value);
            onListChange('');
          }}
        >
          {events.map((event) => (
            <option key={event.id} value={event.id}>
              {event.title}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}-list`}>{t('devices.list')}</Label>
        <select id={`${idPrefix}-list`} className="ui-input" value={listId} onChange={(change) => onListChange(change.target.value)}>
          <option value="">{t('devices.everyList')}</option>
          {lists.data?.lists.map((list) => (
            <option key={list.id} value={list.id}>
              {list.name}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

function SetUpPhone({ events }: { events: EventChoice[] }) {
  const { t } = useTranslation();
  const ids = useId();
  const create = useCreateEnrollment();
  const [chosenEventId, setEventId] = useState('');
  const [listId, setListId] = useState('');
  const [name, setName] = useState('');
  const [enrollment, setEnrollment] = useState<CreateEnrollmentResponse | null>(null);
  const eventId = chosenEventId || events[0]?.id || '';

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!eventId) return;
    const trimmed = name.trim();
    create.mutate(
      { eventId, request: { ...(trimmed ? { name: trimmed } : {}), ...(listId ? { checkInListId: listId } : {}) } },
      { onSuccess: (created) => setEnrollment(created) },
    );
  };
  const refusal = create.error ? refusalOf(create.error) : null;

  return (
    <section aria-labelledby={`${ids}-heading`} className="flex flex-col gap-4 rounded-2xl border-2 border-slate-200 p-4">
      <h2 id={`${ids}-heading`} className="text-lg font-bold text-slate-900">
        {t('devices.setUpHeading')}
      </h2>
      <p className="text-base text-slate-800">{t('devices.setUpExplained')}</p>
      {events.length === 0 ? (
        <p className="text-base text-slate-800">{t('devices.noEvents')}</p>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <EventAndListFields idPrefix={ids} events={events} eventId={eventId} listId={listId} onEventChange={setEventId} onListChange={setListId} />
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${ids}-name`}>{t('devices.name')}</Label>
            <Input id={`${ids}-name`} autoComplete="off" placeholder={t('devices.namePlaceholder')} maxLength={60} value={name} onChange={(change) => setName(change.target.value)} />
          </div>
          {refusal && <FormNotice variant="error" title={refusal.text} />}
          <Button type="submit" disabled={create.isPending}>
            <QrCode aria-hidden="true" className="size-5" />
            {create.isPending ? t('devices.making') : t('devices.make')}
          </Button>
        </form>
      )}
      {enrollment && <EnrollmentCode enrollment={enrollment} />}
    </section>
  );
}

/** The one-time QR code and its link, with how long it is valid. */
function EnrollmentCode({ enrollment }: { enrollment: CreateEnrollmentResponse }) {
  const { t } = useTranslation();
  const copy = () => {
    void navigator.clipboard
      ?.writeText(enrollment.link)
      .then(() => notify({ title: t('devices.copied'), variant: 'success', isBrief: true }))
      .catch(() => undefined);
  };
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border-2 border-slate-300 bg-white p-4" data-testid="enrollment-code">
      <p className="text-center text-base font-bold text-slate-900">{t('devices.scanThis', { name: enrollment.deviceName })}</p>
      {/* White around the code in the dark theme too: a camera needs the quiet zone. */}
      <img
        src={svgImageSource(enrollment.qrCodeSvg)}
        alt={t('devices.qrAlt', { name: enrollment.deviceName })}
        className="aspect-square w-full max-w-64 rounded-lg bg-white"
      />
      <p className="text-center text-base text-slate-800">
        {t('devices.validUntil', { time: new Date(enrollment.expiresAt).toLocaleString() })}
        {enrollment.checkInListName ? ` · ${enrollment.checkInListName}` : ''}
      </p>
      <Label htmlFor="enrollment-link">{t('devices.link')}</Label>
      <Input id="enrollment-link" readOnly value={enrollment.link} onFocus={(focus) => focus.target.select()} />
      <Button variant="secondary" onClick={copy}>
        <Copy aria-hidden="true" className="size-5" />
        {t('devices.copy')}
      </Button>
    </div>
  );
}

function DeviceCard({ device, organizationId, events }: { device: DeviceSummary; organizationId: string; events: EventChoice[] }) {
  const { t } = useTranslation();
  const state = deviceState(device);
  const [isEditing, setEditing] = useState(false);
  const [isConfirming, setConfirming] = useState(false);
  const revoke = useRevokeDevice(organizationId);
  const badgeClass = { online: 'border-green-700 bg-green-100', offline: 'border-amber-700 bg-amber-100', removed: 'border-slate-500 bg-slate-200' }[state];
  return (
    <li className="flex flex-col gap-2 rounded-2xl border-2 border-slate-200 bg-white p-4" aria-label={device.name}>
      <span className="flex flex-wrap items-center gap-2">
        <Smartphone aria-hidden="true" className="size-5 shrink-0" />
        <span className="text-base font-bold break-words text-slate-900">{device.name}</span>
        <Badge className={badgeClass}>{t(`devices.state.${state}`)}</Badge>
      </span>
      <span className="text-base break-words text-slate-800">
        {device.eventTitle} · {device.checkInListName ?? t('devices.everyList')}
      </span>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-base text-slate-800">
        <dt className="font-semibold">{t('devices.app')}</dt>
        <dd>{appWords(device)}</dd>
        <dt className="font-semibold">{t('devices.lastSeen')}</dt>
        <dd>{seenWords(device.lastSeenAt)}</dd>
        <dt className="font-semibold">{t('devices.waiting')}</dt>
        <dd>{device.scansWaiting === null ? '—' : device.scansWaiting}</dd>
      </dl>
      {device.revokedAt === null && !isEditing && (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="secondary" onClick={() => setEditing(true)}>
            {t('devices.edit', { name: device.name })}
          </Button>
          <Button variant="danger" disabled={revoke.isPending} onClick={() => setConfirming(true)}>
            {t('devices.remove', { name: device.name })}
          </Button>
        </div>
      )}
      {revoke.error && <FormNotice variant="error" title={refusalOf(revoke.error).text} />}
      {isEditing && <EditDevice device={device} organizationId={organizationId} events={events} onDone={() => setEditing(false)} />}
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setConfirming}
        title={t('devices.confirmTitle', { name: device.name })}
        description={t('devices.confirmDescription')}
        cancelLabel={t('devices.keep')}
        confirmLabel={t('devices.confirmRemove')}
        onConfirm={() => {
          setConfirming(false);
          revoke.mutate(device.id);
        }}
      />
    </li>
  );
}

function EditDevice({ device, organizationId, events, onDone }: { device: DeviceSummary; organizationId: string; events: EventChoice[]; onDone(): void }) {
  const { t } = useTranslation();
  const ids = useId();
  const update = useUpdateDevice(organizationId);
  const [name, setName] = useState(device.name);
  const [eventId, setEventId] = useState(device.eventId);
  const [listId, setListId] = useState(device.checkInListId ?? '');
  // Its event may be archived since: it is still offered, as where the device is now.
  const choices = events.some((event) => event.id === device.eventId) ? events : [{ id: device.eventId, title: device.eventTitle }, ...events];
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    update.mutate(
      {
        deviceId: device.id,
        request: {
          ...(trimmed && trimmed !== device.name ? { name: trimmed } : {}),
          ...(eventId !== device.eventId ? { eventId } : {}),
          checkInListId: listId === '' ? null : listId,
        },
      },
      { onSuccess: onDone },
    );
  };
  const refusal = update.error ? refusalOf(update.error) : null;
  // Its waiting scans were made at its old place, and the server records them there: at the list
  // they were made at (docs/decisions/129), at the event they were made at for 7 days after the phone
  // learns of a move of event (docs/decisions/139). The admin reads it before moving the phone.
  const isEventMove = eventId !== device.eventId;
  const isMove = isEventMove || (listId === '' ? null : listId) !== device.checkInListId;
  const waiting = device.scansWaiting ?? 0;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3 rounded-xl border-2 border-slate-200 p-3">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${ids}-name`}>{t('devices.name')}</Label>
        <Input id={`${ids}-name`} autoComplete="off" maxLength={60} value={name} onChange={(change) => setName(change.target.value)} />
      </div>
      <EventAndListFields idPrefix={ids} events={choices} eventId={eventId} listId={listId} onEventChange={setEventId} onListChange={setListId} />
      {isMove && waiting > 0 && <DayWarning text={t(isEventMove ? 'devices.moveWithScansWaiting' : 'devices.moveListWithScansWaiting', { count: waiting })} />}
      {refusal && <FormNotice variant="error" title={refusal.text} />}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('devices.saving') : t('devices.save')}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t('devices.cancel')}
        </Button>
      </div>
    </form>
  );
}
