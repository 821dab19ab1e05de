import { ticketAdmitsDay } from '@gatecheck/contract/check-in-rules';
import type { InfoScanResponse } from '@gatecheck/contract/doors';
import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '@/components/ui/card.tsx';
import { format } from 'date-fns';

/**
 * A supervisor's info scan (docs/decisions/113): 'Info scan — nobody admitted', the ticket (holder,
 * type, revoked, 'Not valid on Day 1' when its days with its type's do not admit the day) and its
 * state on each check-in list of the day — checked in at what time by whom, inside or left, or not
 * checked in; 'Not valid here' for a list that does not admit it. Blue, not
 * green or red: it is no verdict. In the verdict's slot, so it never moves the field.
 */
/** 'HH:mm' on the device clock; '' for an unreadable time. */
function clockTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : format(date, 'HH:mm');
}

export function InfoScanCard({ info, code }: { info: InfoScanResponse; code: string }) {
  const { t } = useTranslation();
  const { ticket } = info;
  return (
    <Card role="group" aria-label={t('doors.infoTitle')} className="flex h-full min-h-0 min-w-0 flex-col border-4 border-blue-700 bg-blue-50 p-3" data-testid="info-scan-card">
      <h2 className="flex items-center gap-2 text-lg font-bold text-blue-950">
        <Info aria-hidden="true" className="size-5 shrink-0" strokeWidth={2.75} />
        {t('doors.infoTitle')}
      </h2>
      <div className="mt-1 min-h-0 flex-1 overflow-y-auto overscroll-contain text-base text-slate-900">
        {ticket === null ? (
          <p className="font-semibold text-red-900">{t('doors.infoUnknown')}</p>
        ) : (
          <>
            <p className="font-semibold break-words">
              {ticket.holderName} · {ticket.ticketType}
              {ticket.revokedAt !== null && <span className="ml-2 font-bold text-red-900">{t('doors.revoked')}</span>}
              {!ticketAdmitsDay(ticket.admittedDays, info.day) && <span className="ml-2 font-bold text-red-900">{t('supervisor.notValidOnDay', { day: info.day })}</span>}
            </p>
            {ticket.checkInNote && <p className="font-semibold text-amber-900 break-words">{ticket.checkInNote}</p>}
            <ul className="mt-1 divide-y divide-blue-200">
              {info.lists.map((list) => (
                <li key={list.id} className="py-0.5" data-testid="info-scan-list">
                  <span className="font-semibold">{list.name}: </span>
                  {!list.admitsTicket ? (
                    t('doors.notAdmitted')
                  ) : list.checkIn === null ? (
                    t('doors.notCheckedIn')
                  ) : (
                    <>
                      {t('doors.checkedInAt', { time: clockTime(list.checkIn.checkedInAt), name: list.checkIn.checkedInBy })}
                      {list.allowsReentry && (
                        <>
                          {' · '}
                          <span className="font-bold">{list.checkIn.isInside ? t('doors.inside') : t('doors.outside')}</span>
                          {list.checkIn.exitedAt !== null && !list.checkIn.isInside && ` (${t('doors.exitedAt', { time: clockTime(list.checkIn.exitedAt) })})`}
                        </>
                      )}
                    </>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <p className="mt-1 font-mono text-base break-all text-slate-900">{code}</p>
    </Card>
  );
}
