import { CircleCheck, CircleX } from 'lucide-react';
import { Badge } from '@/components/ui/badge.tsx';
import { Card } from '@/components/ui/card.tsx';
import { cn } from '@/lib/cn.ts';
import { denialText, resultCodeText, type ScanResult } from '../scanner-logic.ts';

/**
 * The verdict of one check (SPEC §8): 'Valid Ticket' + APPROVED (green) or 'Invalid Ticket' +
 * DENIED (red), the ticket text cut to 20 characters with an ellipsis, the time, and the ticket's
 * details when approved or the reason when denied. Words and an icon carry the verdict, not colour.
 */
export function ResultCard({ result }: { result: ScanResult }) {
  const Icon = result.isValid ? CircleCheck : CircleX;
  const reason = result.isValid ? null : denialText(result.denial);
  const time = new Date(result.timestamp).toLocaleTimeString();
  return (
    <Card
      aria-labelledby={`verdict-${result.id}`}
      role="group"
      className={cn('border-4', result.isValid ? 'border-green-700 bg-green-50' : 'border-red-700 bg-red-50')}
    >
      <div className="flex items-center gap-3">
        <Icon aria-hidden="true" className={cn('size-12 shrink-0', result.isValid ? 'text-green-800' : 'text-red-800')} strokeWidth={2.5} />
        <h2 id={`verdict-${result.id}`} className="flex-1 text-2xl font-bold text-slate-950">
          {result.isValid ? 'Valid Ticket' : 'Invalid Ticket'}
        </h2>
        <Badge className={cn('text-base tracking-wide text-white', result.isValid ? 'border-green-800 bg-green-700' : 'border-red-800 bg-red-700')}>
          {result.isValid ? 'APPROVED' : 'DENIED'}
        </Badge>
      </div>
      {reason !== null && <p className="mt-3 text-lg font-semibold text-red-900">{reason}</p>}
      <p className="mt-3 font-mono text-lg break-all text-slate-900">{resultCodeText(result.ticketId)}</p>
      <p className="mt-1 text-base text-slate-800">
        <time dateTime={result.timestamp}>{time}</time>
      </p>
      {result.isValid && (
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-lg text-slate-900">
          {result.details.holderName && (
            <>
              <dt className="font-semibold">Holder</dt>
              <dd>{result.details.holderName}</dd>
            </>
          )}
          {result.details.ticketType && (
            <>
              <dt className="font-semibold">Ticket type</dt>
              <dd>{result.details.ticketType}</dd>
            </>
          )}
          {result.details.eventName && (
            <>
              <dt className="font-semibold">Event</dt>
              <dd>{result.details.eventName}</dd>
            </>
          )}
        </dl>
      )}
    </Card>
  );
}
