import type { CheckInAttention } from '@gatecheck/contract/check-in-notes';
import { useQuery } from '@tanstack/react-query';
import { ChevronRight, CircleCheck, CircleX } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/cn.ts';
import { recentScansQuery } from '../recent-scans-query.ts';
import { recentScanTime } from '../recent-scans.ts';
import { denialText, resultCodeText, verdictTicketText, type ScanResult } from '../scanner-logic.ts';
import { approvalText, checkInNoteContent } from '../verdict-flash-logic.ts';
import { OfflineBadge } from './result-card.tsx';
import { useTranslation } from 'react-i18next';

/**
 * 'Recent scans' (issue 10 item 5): the selected day's last 50 verdicts on this device, newest first,
 * each with its time (HH:mm), APPROVED or DENIED with an icon, the code cut to 20 characters + '...'
 * (SPEC §9), the holder and, for a denial, the reason in plain words. Collapsed by default behind a
 * native disclosure (<details>), so the result card of SPEC §3 stays the one verdict on display and
 * the verdict and the manual field stay in view on a small phone. The rows are rendered only while it
 * is open (none in the page otherwise).
 *
 * Issue 12: a scan decided on the device says 'Offline'; one the server later found already checked
 * in at another gate says 'Conflict'; an exit it denied 'Not inside' that the server recorded when
 * it was sent says so under its denial (docs/decisions/150).
 *
 * Issue 11: an approval a supervisor has undone says so, with the reason; one undone elsewhere
 * (a later approval of the ticket is listed: `withRecentScan`) says that instead; `undoAction`, when
 * given (supervisors and admins), is shown under each approval still standing (the screen passes
 * the supervisor feature's 'Undo check-in').
 */
export function RecentScansList({
  eventId,
  day,
  checkInListId,
  undoAction,
}: {
  eventId: string | null;
  day: number;
  /** The check-in list scanned at (docs/decisions/113): only its scans are listed; absent: the event's first. */
  checkInListId?: string | undefined;
  undoAction?: (scan: ScanResult) => ReactNode;
}) {
  const { t } = useTranslation();
  const { data: scans = [] } = useQuery(recentScansQuery({ eventId, day, checkInListId }));
  const [isOpen, setOpen] = useState(false);
  return (
    <details className="group rounded-2xl border border-slate-300 bg-white" open={isOpen} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="flex min-h-12 cursor-pointer list-none items-center gap-2 px-3 py-2 text-lg font-semibold text-slate-950 [&::-webkit-details-marker]:hidden">
        <ChevronRight aria-hidden="true" className="size-5 shrink-0 transition-transform group-open:rotate-90" />
        {t('scanner.recentScans')}
        <span className="ml-auto text-base font-normal text-slate-700 tabular-nums">({scans.length})</span>
      </summary>
      {!isOpen ? null : scans.length === 0 ? (
        <p className="border-t border-slate-200 px-3 py-2 text-base text-slate-700">{t('scanner.noScansYet')}</p>
      ) : (
        <ol aria-label={t('scanner.recentScans')} className="divide-y divide-slate-200 border-t border-slate-200">
          {scans.map((scan) => (
            <RecentScanRow key={scan.id} scan={scan} undoAction={undoAction} />
          ))}
        </ol>
      )}
    </details>
  );
}

/** A recent scan's check-in note (docs/decisions/102), one line per line of the note, after its label. */
function RecentScanNote({ attention }: { attention: CheckInAttention }) {
  const { label, text } = checkInNoteContent(attention);
  return (
    <p className={cn('font-semibold break-words whitespace-pre-line', attention.requiresAttention ? 'text-amber-900' : 'text-slate-800')}>
      {label}: {text}
    </p>
  );
}

function RecentScanRow({ scan, undoAction }: { scan: ScanResult; undoAction?: (scan: ScanResult) => ReactNode }) {
  const { t } = useTranslation();
  const Icon = scan.isValid ? CircleCheck : CircleX;
  const detail = scan.isValid ? scan.details.holderName : denialText(scan.denial);
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 px-3 py-2 text-base text-slate-900">
      <time dateTime={scan.timestamp} className="font-mono tabular-nums">
        {recentScanTime(scan.timestamp)}
      </time>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2">
          <span className={cn('inline-flex items-center gap-1 font-bold', scan.isValid ? 'text-green-800' : 'text-red-800')}>
            <Icon aria-hidden="true" className="size-4 shrink-0" strokeWidth={2.75} />
            {scan.isValid ? t('scanner.approved') : t('scanner.denied')}
          </span>
          {scan.isOffline && <OfflineBadge />}
          {scan.isConflict && <Badge className="border-amber-800 bg-amber-100 px-2 py-0.5 text-sm text-amber-950">{t('scanner.conflict')}</Badge>}
          <span className="font-mono break-all">{resultCodeText(verdictTicketText(scan))}</span>
        </p>
        {detail && <p className={cn('break-words', scan.isValid ? 'text-slate-800' : 'text-red-900')}>{detail}</p>}
        {approvalText(scan) !== null && <p className="font-semibold text-green-900">{approvalText(scan)}</p>}
        {scan.isExitRecordedOnUpload && <p className="font-semibold break-words text-green-900">{t('offline.exitRecordedOnUpload')}</p>}
        {scan.attention && <RecentScanNote attention={scan.attention} />}
        {scan.undone ? (
          <p className="font-semibold break-words text-amber-900">
            {t('scanner.checkInUndone', { time: recentScanTime(scan.undone.at), reason: scan.undone.reason })}
          </p>
        ) : scan.isReplaced ? (
          <p className="font-semibold break-words text-amber-900">{t('scanner.checkInReplaced')}</p>
        ) : (
          // An exit is no check-in to undo (the check-in it ended is its entry's).
          scan.isValid && !scan.isExit && undoAction?.(scan)
        )}
      </div>
    </li>
  );
}
