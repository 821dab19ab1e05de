import { CircleCheck, CircleX, WifiOff } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import { formattingLocale } from '@/lib/i18n/index.ts';
import { recentScanTime } from '../recent-scans.ts';
import { denialText, resultCodeText, verdictTicketText, type ScanResult } from '../scanner-logic.ts';
import { approvalText } from '../verdict-flash-logic.ts';
import { CheckInNote } from './check-in-note.tsx';
import { useTranslation } from 'react-i18next';

/**
 * The verdict of one check (SPEC §8): 'Valid Ticket' + APPROVED (green) or 'Invalid Ticket' +
 * DENIED (red), the ticket text cut to 20 characters with an ellipsis, the time, and the ticket's
 * details when approved or the reason when denied. Words and an icon carry the verdict, not colour.
 * A verdict the device decided without the server says 'Offline' beside the badge (issue 12 item 3).
 * An approval a supervisor has since undone on this screen says 'Undone at 14:05' in place of its time.
 * A ticket's check-in note shows large under the verdict, marked 'ATTENTION' when the ticket needs
 * it (docs/decisions/102).
 *
 * Compact, so the verdict and the manual field fit on a 320x568 phone together: the verdict icon sits
 * in the badge, and the heading row wraps the badge under the heading rather than pushing it out of
 * the card; the holder's name may take two lines (staff compare it with an ID), the rest one. Fills the height of
 * `VerdictSlot`, which keeps the same space for every verdict (no layout shift, issue 15 item 14).
 */
export function ResultCard({ result }: { result: ScanResult }) {
  const { t } = useTranslation();
  const Icon = result.isValid ? CircleCheck : CircleX;
  const reason = result.isValid ? null : denialText(result.denial);
  // 'Exit recorded', 'capacity not checked offline' (docs/decisions/113).
  const approval = approvalText(result);
  const time = new Date(result.timestamp).toLocaleTimeString(formattingLocale(undefined));
  return (
    <Card
      aria-labelledby={`verdict-${result.id}`}
      role="group"
      className={cn('flex h-full min-h-0 min-w-0 flex-col border-4 p-3', result.isValid ? 'border-green-700 bg-green-50' : 'border-red-700 bg-red-50')}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
        <h2 id={`verdict-${result.id}`} className="text-lg font-bold text-slate-950 min-[360px]:text-xl">
          {result.isValid ? t('scanner.validTicket') : t('scanner.invalidTicket')}
        </h2>
        <span className="flex flex-wrap items-center gap-1">
          <Badge className={cn('gap-1 px-2.5 py-0.5 text-base tracking-wide text-white max-[359px]:text-sm max-[359px]:tracking-normal', result.isValid ? 'border-green-800 bg-green-700' : 'border-red-800 bg-red-700')}>
            <Icon aria-hidden="true" className="size-5 shrink-0" strokeWidth={2.75} />
            {result.isValid ? t('scanner.approved') : t('scanner.denied')}
          </Badge>
          {result.isOffline && <OfflineBadge />}
        </span>
      </div>
      {/* The card keeps the slot's height (docs/decisions/113): a note's card scrolls its details here. */}
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain" data-testid="result-card-body">
        {reason !== null && <p className="mt-2 text-lg leading-snug font-semibold text-red-900">{reason}</p>}
        {approval !== null && (
          <p className="mt-2 text-lg leading-snug font-semibold text-green-900" data-testid="result-card-approval">
            {approval}
          </p>
        )}
        {/* The holder first when there is a note: the name and the note are in view in the slot's height, the rest scrolls. */}
        {result.isValid && result.attention && result.details.holderName && (
          <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-base text-slate-900">
            <dt className="font-semibold">{t('scanner.holder')}</dt>
            <dd className="line-clamp-2 break-words">{result.details.holderName}</dd>
          </dl>
        )}
        {result.attention && <CheckInNote attention={result.attention} size="card" />}
        {result.isValid && (
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-base text-slate-900">
            {result.details.holderName && !result.attention && (
              <>
                <dt className="font-semibold">{t('scanner.holder')}</dt>
                <dd className="line-clamp-2 break-words">{result.details.holderName}</dd>
              </>
            )}
            {result.details.ticketType && (
              <>
                <dt className="font-semibold">{t('scanner.ticketType')}</dt>
                <dd className="truncate">{result.details.ticketType}</dd>
              </>
            )}
            {result.details.eventName && (
              <>
                <dt className="font-semibold">{t('scanner.event')}</dt>
                <dd className="truncate">{result.details.eventName}</dd>
              </>
            )}
          </dl>
        )}
      </div>
      <p className="mt-2 flex flex-wrap justify-between gap-x-3 text-base text-slate-800">
        <span className="font-mono break-all text-slate-900">{resultCodeText(verdictTicketText(result))}</span>
        {result.undone ? (
          // Undone since by a supervisor on this screen: in the time's place, so the card keeps its size.
          <span className="font-semibold text-amber-900">{t('scanner.undoneAt', { time: recentScanTime(result.undone.at) })}</span>
        ) : (
          <time dateTime={result.timestamp}>{time}</time>
        )}
      </p>
    </Card>
  );
}

/** 'Offline' beside APPROVED/DENIED (issue 12 item 3): the device decided this one from its door list. */
export function OfflineBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <Badge className={cn('gap-1 border-slate-700 bg-slate-800 px-2 py-0.5 text-sm text-white', className)}>
      <WifiOff aria-hidden="true" className="size-4 shrink-0" />
      {t('scanner.offline')}
    </Badge>
  );
}
