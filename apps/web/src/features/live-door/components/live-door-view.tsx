/**
 * The live door of one event day (docs/decisions/117): the figures at a glance — checked in /
 * expected per check-in list and per ticket type, the scan rate now, arrivals per list over the day
 * (chart and table), denials by reason, the event's door devices — and the two CSV exports. The
 * figures are read again every 2 s (`liveDoorQuery`); while a read fails the last figures stay,
 * with a notice. Works at 320 px (one column, tables scroll sideways) and in the dark theme.
 */
import type { LiveDoor } from '@gatecheck/contract/live-door';
import { useQuery } from '@tanstack/react-query';
import { Component, lazy, type ReactNode, Suspense, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { ApiError } from '@/lib/api-client.ts';
import { liveDoorQuery } from '@/lib/check-ins/live-door-query.ts';
import { denialReasonWords } from '@/lib/denial-text.ts';
import { downloadLiveDoorCsv, type LiveDoorExport } from '../api.ts';
import { arrivalsGrid, clockTime, percentOf } from '../live-door-logic.ts';
import { ArrivalsTable } from './arrivals-table.tsx';

/** uPlot in a chunk of its own, loaded when a chart is first drawn (never on the first load). */
const ArrivalsChart = lazy(() => import('./arrivals-chart.tsx'));

/**
 * Keeps the page when the chart cannot draw (its chunk failed to load, a WebView without what uPlot
 * needs): the chart is left out and the table below says the same.
 */
class ChartBoundary extends Component<{ children: ReactNode }, { hasFailed: boolean }> {
  override state = { hasFailed: false };
  static getDerivedStateFromError(): { hasFailed: boolean } {
    return { hasFailed: true };
  }
  override render() {
    return this.state.hasFailed ? null : this.props.children;
  }
}

/** The words for a failed read: refused (a role below supervisor, another organization) or unreachable. */
function errorText(error: unknown, t: (key: 'live.forbidden' | 'live.notFound' | 'live.unreachable') => string): string {
  if (error instanceof ApiError && error.status === 403) return t('live.forbidden');
  if (error instanceof ApiError && error.status === 404) return t('live.notFound');
  return t('live.unreachable');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-xl font-bold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One line of checked in / expected; for a check-in list also its guests inside now and its capacity. */
function ProgressRow({ name, checkedIn, validTickets, inside }: { name: string; checkedIn: number; validTickets: number; inside?: { count: number; capacity: number | null } }) {
  const { t } = useTranslation();
  const percent = percentOf(checkedIn, validTickets);
  return (
    <li className="flex flex-col gap-1 rounded-xl border-2 border-slate-200 bg-white p-3">
      <span className="flex flex-wrap items-center justify-between gap-x-3">
        <span className="text-base font-semibold text-slate-900">{name}</span>
        <span className="text-base text-slate-800 tabular-nums">{t('live.checkedInOf', { checkedIn, validTickets, percent })}</span>
      </span>
      {inside ? (
        <span className="text-base text-slate-800 tabular-nums">
          {inside.capacity === null ? t('live.insideOnList', { count: inside.count }) : t('live.insideOfCapacity', { count: inside.count, capacity: inside.capacity })}
        </span>
      ) : null}
      {/* Sizes inline: no utility class of this lazy screen may grow the first load's stylesheet. */}
      <span aria-hidden="true" className="w-full overflow-hidden rounded-full bg-slate-200" style={{ height: 8 }}>
        <span className="block h-full rounded-full bg-blue-700" style={{ width: `${Math.min(100, percent)}%` }} />
      </span>
    </li>
  );
}

function Figures({ live }: { live: LiveDoor }) {
  const { t } = useTranslation();
  const grid = useMemo(() => arrivalsGrid(live), [live]);
  return (
    <>
      <dl className="grid grid-cols-2 gap-2">
        <div className="rounded-xl border-2 border-slate-200 bg-white p-3">
          <dt className="text-base text-slate-700">{t('live.checkedIn')}</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="live-checked-in">
            {live.checkedIn} / {live.validTickets}
          </dd>
        </div>
        <div className="rounded-xl border-2 border-slate-200 bg-white p-3">
          <dt className="text-base text-slate-700">{t('live.scanRate')}</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums">{t('live.perMinute', { count: live.scansLastMinute })}</dd>
        </div>
      </dl>
      <dl>
        <div className="rounded-xl border-2 border-slate-200 bg-white p-3">
          <dt className="text-base text-slate-700">{t('live.insideNow')}</dt>
          <dd className="text-2xl font-bold text-slate-900 tabular-nums" data-testid="live-inside-now">
            {live.occupancy.capacity === null ? live.occupancy.inside : `${live.occupancy.inside} / ${live.occupancy.capacity}`}
          </dd>
        </div>
      </dl>

      <Section title={t('live.lists')}>
        <ul className="flex flex-col gap-2" aria-label={t('live.lists')}>
          {live.lists.map((list) => (
            <ProgressRow
              key={list.id}
              name={list.name}
              checkedIn={list.checkedIn}
              validTickets={list.validTickets}
              inside={{ count: list.insideNow, capacity: list.capacity }}
            />
          ))}
        </ul>
      </Section>

      <Section title={t('live.arrivals')}>
        {grid.slots.length === 0 ? (
          <p className="text-base text-slate-700">{t('live.noArrivals')}</p>
        ) : (
          <>
            <ChartBoundary>
              <Suspense fallback={<div style={{ height: 240 }} />}>
                <ArrivalsChart grid={grid} slotLabel={t('live.slot')} />
              </Suspense>
            </ChartBoundary>
            <details className="rounded-xl border-2 border-slate-200 bg-white p-3">
              <summary className="min-h-12 cursor-pointer py-3 text-base font-semibold text-slate-900">{t('live.showTable')}</summary>
              <ArrivalsTable grid={grid} />
            </details>
          </>
        )}
      </Section>

      <Section title={t('live.ticketTypes')}>
        <ul className="flex flex-col gap-2" aria-label={t('live.ticketTypes')}>
          {live.ticketTypes.map((type) => (
            <ProgressRow key={type.name} name={type.name} checkedIn={type.checkedIn} validTickets={type.validTickets} />
          ))}
        </ul>
      </Section>

      <Section title={t('live.denials')}>
        {live.denials.length === 0 ? (
          <p className="text-base text-slate-700">{t('live.noDenials')}</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {live.denials.map((denial) => (
              <li key={denial.reason} className="flex justify-between gap-3 border-b border-slate-200 py-2 text-base text-slate-900">
                <span>{denialReasonWords(denial.reason) ?? denial.reason}</span>
                <span className="font-semibold tabular-nums">{denial.count}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={t('live.devices')}>
        {live.devices.length === 0 ? (
          <p className="text-base text-slate-700">{t('live.noDevices')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {live.devices.map((device) => {
              const { isOnline } = device;
              return (
                <li key={device.id} className="flex flex-col gap-1 rounded-xl border-2 border-slate-200 bg-white p-3">
                  <span className="flex flex-wrap items-center justify-between gap-2">
                    <span className="text-base font-semibold text-slate-900">{device.name}</span>
                    <span className={isOnline ? 'text-base font-semibold text-green-800' : 'text-base font-semibold text-slate-700'}>
                      {isOnline ? t('live.online') : t('live.offline')}
                    </span>
                  </span>
                  <span className="text-base text-slate-800">
                    {device.lastSeenAt ? t('live.lastSeen', { time: clockTime(Date.parse(device.lastSeenAt)) }) : t('live.neverSeen')}
                    {device.scansWaiting !== null && device.scansWaiting > 0 ? ` · ${t('live.scansWaiting', { count: device.scansWaiting })}` : null}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </>
  );
}

function Exports({ eventId, day }: { eventId: string; day: number }) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<LiveDoorExport | null>(null);
  const download = (kind: LiveDoorExport) => {
    setBusy(kind);
    setFailure(null);
    downloadLiveDoorCsv(eventId, day, kind)
      .catch((error: unknown) => setFailure(errorText(error, t)))
      .finally(() => setBusy(null));
  };
  return (
    <Section title={t('live.export')}>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => download('arrivals')} disabled={busy !== null}>
          {t('live.exportArrivals')}
        </Button>
        <Button variant="secondary" onClick={() => download('scanLog')} disabled={busy !== null}>
          {t('live.exportScanLog')}
        </Button>
      </div>
      {failure && <FormNotice variant="error" title={failure} />}
    </Section>
  );
}

export function LiveDoorView({ eventId, day }: { eventId: string; day: number }) {
  const { t } = useTranslation();
  const live = useQuery(liveDoorQuery(eventId, day));
  return (
    <div className="flex flex-col gap-6">
      <p className="text-base text-slate-700" aria-live="off">
        {live.data ? t('live.updatedAt', { time: clockTime(Date.parse(live.data.generatedAt)) }) : t('live.loading')}
      </p>
      {live.isError && <FormNotice variant="error" title={errorText(live.error, t)} />}
      {live.data && <Figures live={live.data} />}
      {live.data && <Exports eventId={eventId} day={day} />}
    </div>
  );
}
