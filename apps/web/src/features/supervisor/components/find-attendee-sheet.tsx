/**
 * 'Find attendee' on the scanner screen (issue 11, supervisors and admins; the screen leaves it out
 * for staff): a button that opens the attendee search in a phone-sized sheet. A manual check-in
 * closes the sheet and hands the verdict to `onCheckedIn`, so the screen shows it as a scan's; an
 * undo from a result goes to `onUndone`. The search is refetched on each opening, so statuses
 * changed by scans since the last search are current.
 */
import type { Attendee, UndoCheckInResponse } from '@gatecheck/contract/supervisor';
import type { VerifyTicketResponse } from '@gatecheck/contract/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { UserSearch } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { Sheet } from '@/components/ui/sheet.tsx';
import { checkInKeys } from '@/lib/check-ins/check-in-queries.ts';
import { AttendeeSearch } from './attendee-search.tsx';
import { useTranslation } from 'react-i18next';

export interface FindAttendeeSheetProps {
  eventId: string;
  day: number;
  /** The check-in list (docs/decisions/109); absent: the event's first. */
  checkInListId?: string | undefined;
  /** A manual check-in answered; `scanId` is the id its check-in keeps. */
  onCheckedIn: (attendee: Attendee, verdict: VerifyTicketResponse, scanId: string) => void;
  onUndone: (attendee: Attendee, undo: UndoCheckInResponse) => void;
  /** This device's admissions not yet sent refuse a manual check-in (`AttendeeSearch`, decision 078). */
  isAdmittedHereUnsent?: (code: string) => Promise<boolean>;
}

export function FindAttendeeSheet({ eventId, day, checkInListId, onCheckedIn, onUndone, isAdmittedHereUnsent }: FindAttendeeSheetProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [isOpen, setOpen] = useState(false);
  const onOpenChange = (open: boolean) => {
    if (open) void queryClient.invalidateQueries({ queryKey: checkInKeys.searches(eventId, day) });
    setOpen(open);
  };
  return (
    <Sheet
      open={isOpen}
      onOpenChange={onOpenChange}
      title={t('supervisor.findAttendee')}
      closeLabel={t('common.close')}
      trigger={
        <Button variant="secondary" size="large" className="w-full">
          <UserSearch aria-hidden="true" className="size-6" />
          {t('supervisor.findAttendee')}
        </Button>
      }
    >
        <AttendeeSearch
          eventId={eventId}
          day={day}
          checkInListId={checkInListId}
          hasHeading={false}
          onCheckedIn={(attendee, verdict, scanId) => {
            setOpen(false);
            onCheckedIn(attendee, verdict, scanId);
          }}
          onUndone={onUndone}
          isAdmittedHereUnsent={isAdmittedHereUnsent}
        />
    </Sheet>
  );
}
