/**
 * 'Undo check-in' under an approval in the scanner's recent scans (issue 11, supervisors and
 * admins): opens a required 'Reason' field; 'Confirm undo' removes the ticket's check-in for the
 * selected day (found by the scanned code, `useUndoCheckInByCode`), only if it is the one `scanId`
 * made, and hands the recorded undo to `onUndone`. A refusal (409 not checked in or another scan's
 * check-in, 403, not found) is shown under the row in the server's words.
 */
import { UNDO_REASON_MAX_LENGTH, type UndoCheckInResponse } from '@gatecheck/contract/supervisor';
import { useId, useState, type FormEvent } from 'react';
import { FormNotice } from '@/components/form-notice.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { useUndoCheckInByCode } from '../api.ts';
import { supervisorErrorText } from '../supervisor-logic.ts';
import { useTranslation } from 'react-i18next';

export interface UndoCheckInActionProps {
  eventId: string;
  day: number;
  /** The check-in list (docs/decisions/109); absent: the event's first. */
  checkInListId?: string | undefined;
  /** The code as it was scanned or typed. */
  code: string;
  /** The scan whose check-in this undoes: another scan's check-in of the ticket is left alone. */
  scanId?: string;
  onUndone: (undo: UndoCheckInResponse) => void;
}

export function UndoCheckInAction({ eventId, day, checkInListId, code, scanId, onUndone }: UndoCheckInActionProps) {
  const { t } = useTranslation();
  const reasonId = useId();
  const [isOpen, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const undo = useUndoCheckInByCode(eventId, day, checkInListId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) return;
    undo.mutate({ code, reason: trimmed, scanId }, { onSuccess: onUndone });
  };

  if (!isOpen) {
    return (
      <Button variant="secondary" className="mt-2" onClick={() => setOpen(true)}>
        {t('supervisor.undoCheckIn')}
      </Button>
    );
  }
  return (
    <form className="mt-2 flex flex-col gap-2" onSubmit={submit}>
      <Label htmlFor={reasonId}>{t('supervisor.reason')}</Label>
      <Input id={reasonId} value={reason} onChange={(event) => setReason(event.target.value)} required maxLength={UNDO_REASON_MAX_LENGTH} autoComplete="off" />
      {undo.isError && <FormNotice variant="error" title={supervisorErrorText(undo.error)} />}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={!reason.trim() || undo.isPending}>
          {t('supervisor.confirmUndo')}
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setOpen(false);
            undo.reset();
          }}
        >
          {t('supervisor.cancel')}
        </Button>
      </div>
    </form>
  );
}
