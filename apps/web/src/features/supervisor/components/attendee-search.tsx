/**
 * 'Find attendee' (issue 11): search the selected event by name or code (3+ characters; nothing is
 * listed before that), see each ticket's status for the selected day, check in, or undo a check-in
 * with a reason. While a search has no answer it says 'Searching...', or at once that there is no
 * connection when the server is not answering (the search needs it: the door list holds no names).
 *
 * On the scanner screen (issue 11) it sits in a sheet that has its own heading (`hasHeading` false),
 * and `onCheckedIn` / `onUndone` hand each outcome to the screen (verdict card, recent scans, counts).
 */
import type { Attendee, UndoCheckInResponse } from '@gatecheck/contract/supervisor';
import type { VerifyTicketResponse } from '@gatecheck/contract/tickets';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState, type FormEvent } from 'react';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { cn } from '@/lib/cn.ts';
import { attendeeQueries, isSearchable } from '@/lib/check-ins/attendee-queries.ts';
import { useManualCheckIn, useUndoCheckIn } from '../api.ts';
import { denialText } from '@/lib/denial-text.ts';
import { useIsServerUnreachable } from '@/lib/reachability.ts';
import { admitsSelectedDay, admittedDaysText, attendeeStatusText, supervisorErrorText } from '../supervisor-logic.ts';
import { useTranslation } from 'react-i18next';

export interface AttendeeSearchProps {
  eventId: string;
  day: number;
  /** The check-in list searched and checked in at (docs/decisions/109); absent: the event's first. */
  checkInListId?: string | undefined;
  /** Shows the 'Find attendee' heading (default true). */
  hasHeading?: boolean;
  /** After a manual check-in answered, approved or denied; `scanId` is the id its check-in keeps. */
  onCheckedIn?: (attendee: Attendee, verdict: VerifyTicketResponse, scanId: string) => void;
  /** After a check-in was undone. */
  onUndone?: (attendee: Attendee, undo: UndoCheckInResponse) => void;
  /**
   * Whether this device admitted ticket `code` in a scan not yet sent (the scanner's outbox,
   * decision 078): the server does not know it, so a manual check-in is refused here.
   */
  isAdmittedHereUnsent?: (code: string) => Promise<boolean>;
}

export function AttendeeSearch({ eventId, day, checkInListId, hasHeading = true, onCheckedIn, onUndone, isAdmittedHereUnsent }: AttendeeSearchProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [text, setText] = useState('');
  const deferred = useDeferredValue(text);
  const search = useQuery(attendeeQueries.search(eventId, day, deferred, checkInListId));
  const isServerUnreachable = useIsServerUnreachable();
  const checkIn = useManualCheckIn(eventId, day, checkInListId);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const onCheckIn = async (attendee: Attendee) => {
    if (await isAdmittedHereUnsent?.(attendee.code).catch(() => false)) {
      setNotice({ tone: 'error', text: t('supervisor.admittedHereUnsent') });
      return;
    }
    try {
      const scanId = crypto.randomUUID();
      const verdict = await checkIn.mutateAsync({ ticketId: attendee.ticketId, scanId });
      setNotice(verdict.isValid ? { tone: 'success', text: t('supervisor.checkedInNotice', { name: attendee.holderName }) } : { tone: 'error', text: denialText(verdict) ?? t('supervisor.denied') });
      onCheckedIn?.(attendee, verdict, scanId);
    } catch (error) {
      setNotice({ tone: 'error', text: error instanceof Error ? supervisorErrorText(error) : t('supervisor.checkInFailed') });
    }
  };

  return (
    <section aria-labelledby={hasHeading ? `${inputId}-heading` : undefined} aria-label={hasHeading ? undefined : t('supervisor.findAttendee')} className="flex flex-col gap-3">
      {hasHeading && (
        <h2 id={`${inputId}-heading`} className="text-xl font-bold text-slate-900">
          {t('supervisor.findAttendee')}
        </h2>
      )}
      <Label htmlFor={inputId}>{t('supervisor.searchLabel')}</Label>
      <Input id={inputId} value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" placeholder={t('supervisor.searchPlaceholder')} />
      {notice && <FormNotice variant={notice.tone} title={notice.text} />}
      {!isSearchable(text) ? (
        <p className="text-base text-slate-700">{t('supervisor.searchHint')}</p>
      ) : search.isError ? (
        <FormNotice variant="error" title={supervisorErrorText(search.error)} />
      ) : !search.data && isServerUnreachable ? (
        // No answer from the server: said at once, not after the retries (SPEC §9), which go on.
        <FormNotice variant="error" title={t('supervisor.noConnection')} />
      ) : !search.data ? (
        <p role="status" className="text-base text-slate-700">
          {t('supervisor.searching')}
        </p>
      ) : search.data && search.data.attendees.length === 0 ? (
        <p className="text-base text-slate-700">{t('supervisor.noAttendee')}</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t('supervisor.attendees')}>
          {search.data?.attendees.map((attendee) => (
            <AttendeeRow key={attendee.ticketId} attendee={attendee} eventId={eventId} day={day} checkInListId={checkInListId} onCheckIn={onCheckIn} onUndone={onUndone} isBusy={checkIn.isPending} />
          ))}
        </ul>
      )}
      {search.data?.hasMore && <p className="text-base text-slate-700">{t('supervisor.moreMatch')}</p>}
    </section>
  );
}

function AttendeeRow({
  attendee,
  eventId,
  day,
  checkInListId,
  onCheckIn,
  onUndone,
  isBusy,
}: {
  attendee: Attendee;
  eventId: string;
  day: number;
  /** The check-in list searched and checked in at (docs/decisions/109); absent: the event's first. */
  checkInListId?: string | undefined;
  onCheckIn: (attendee: Attendee) => void;
  onUndone?: (attendee: Attendee, undo: UndoCheckInResponse) => void;
  isBusy: boolean;
}) {
  const { t } = useTranslation();
  const reasonId = useId();
  const [isUndoing, setIsUndoing] = useState(false);
  const [reason, setReason] = useState('');
  const undo = useUndoCheckIn(eventId, day, checkInListId);

  const submitUndo = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return;
    const undone = await undo.mutateAsync({ ticketId: attendee.ticketId, reason: reason.trim() }).catch(() => undefined);
    if (undone) onUndone?.(attendee, undone);
    setIsUndoing(false);
    setReason('');
  };

  return (
    <li className="rounded-xl border-2 border-slate-200 bg-white p-4" aria-label={attendee.holderName}>
      <p className="text-lg font-bold text-slate-900">{attendee.holderName}</p>
      <p className="text-base text-slate-800">
        {attendee.ticketType} · {admittedDaysText(attendee.admittedDays)} · <span className="font-mono">{attendee.code}</span>
      </p>
      <p className="text-base font-semibold text-slate-900">{attendeeStatusText(attendee)}</p>
      {(attendee.checkInNote !== undefined || attendee.requiresAttention === true) && (
        // The ticket's check-in note (docs/decisions/102): a supervisor checking a guest in by hand sees what the door would.
        <p className={cn('mt-1 text-base font-bold break-words whitespace-pre-line', attendee.requiresAttention ? 'text-amber-900' : 'text-slate-900')}>
          {attendee.requiresAttention ? t('scanner.attention') : t('scanner.checkInNote')}: {attendee.checkInNote ?? t('scanner.attentionWithoutNote')}
        </p>
      )}
      {undo.isError && <FormNotice variant="error" title={supervisorErrorText(undo.error)} />}
      <div className="mt-2 flex flex-wrap gap-2">
        {!attendee.checkIn && !attendee.revokedAt && admitsSelectedDay(attendee) && (
          <Button onClick={() => onCheckIn(attendee)} disabled={isBusy}>
            {t('supervisor.checkIn')}
          </Button>
        )}
        {attendee.checkIn && !isUndoing && (
          <Button variant="secondary" onClick={() => setIsUndoing(true)}>
            {t('supervisor.undoCheckIn')}
          </Button>
        )}
      </div>
      {isUndoing && (
        <form className="mt-2 flex flex-col gap-2" onSubmit={(event) => void submitUndo(event)}>
          <Label htmlFor={reasonId}>{t('supervisor.reason')}</Label>
          <Input id={reasonId} value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={500} aria-describedby={`${reasonId}-hint`} />
          <p id={`${reasonId}-hint`} className="text-base text-slate-700">
            {t('supervisor.reasonHint')}
          </p>
          <div className="flex gap-2">
            <Button type="submit" variant="danger" disabled={!reason.trim() || undo.isPending}>
              {t('supervisor.confirmUndo')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setIsUndoing(false)}>
              {t('supervisor.cancel')}
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}
