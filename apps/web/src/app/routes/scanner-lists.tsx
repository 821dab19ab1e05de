/**
 * The lower part of the scanner screen (scanner-route.tsx), below its scanning controls: 'Find
 * attendee' for supervisors and admins (issue 11), the day's 'Recent scans' with 'Undo check-in'
 * (issues 10, 11), 'Conflicts' (issue 12), 'Manage events' for admins (docs/decisions/105), and the
 * theme and language choices.
 *
 * A module of its own, loaded once the screen's first render is on screen (docs/decisions/119): none
 * of it is needed to see the event and press 'Start Scanning', and its code (Radix Dialog and the
 * attendee search among it) was a third of the scanner's. It is the screen's last part, so when it
 * appears nothing above it moves.
 */
import type { Attendee, UndoCheckInResponse } from '@gatecheck/contract/supervisor';
import type { VerifyTicketResponse } from '@gatecheck/contract/tickets';
import { Settings } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '@/components/language-toggle.tsx';
import { ThemeToggle } from '@/components/theme-toggle.tsx';
import { buttonClassName } from '@/components/ui/button.tsx';
import { paths } from '@/config/paths.ts';
import { ConflictsList } from '@/features/scanner/components/conflicts-list.tsx';
import { RecentScansList } from '@/features/scanner/components/recent-scans-list.tsx';
import { FindAttendeeSheet } from '@/features/supervisor/components/find-attendee-sheet.tsx';
import { UndoCheckInAction } from '@/features/supervisor/components/undo-check-in-action.tsx';

export interface ScannerListsProps {
  eventId: string;
  day: number;
  /** The check-in list scanned at (docs/decisions/109); absent: the event's first. */
  checkInListId: string | undefined;
  /** Supervisors and admins: 'Find attendee' and 'Undo check-in' (issue 11). */
  canSupervise: boolean;
  /** Admins: 'Manage events' (docs/decisions/105). */
  canManageEvents: boolean;
  /** A check-in by hand answered: shown as a scan's verdict; `scanId` is the id its check-in keeps. */
  onCheckedIn(code: string, verdict: VerifyTicketResponse, scanId: string): void;
  /** A check-in was undone (from a recent scan or a search result). */
  onUndone(code: string, undo: UndoCheckInResponse): void;
  /** The scan was decided on this device and waits to be sent (offline outbox, issue 12). */
  isWaitingToSend(scanId: string): boolean;
  /** This device's admissions not yet sent refuse a check-in by hand (decision 078). */
  isAdmittedHereUnsent(code: string): Promise<boolean>;
}

export default function ScannerLists({ eventId, day, checkInListId, canSupervise, canManageEvents, onCheckedIn, onUndone, isWaitingToSend, isAdmittedHereUnsent }: ScannerListsProps) {
  const { t } = useTranslation();
  return (
    <>
      {canSupervise && (
        <FindAttendeeSheet
          eventId={eventId}
          day={day}
          checkInListId={checkInListId}
          onCheckedIn={(attendee: Attendee, verdict, scanId) => onCheckedIn(attendee.code, verdict, scanId)}
          onUndone={(attendee, undo) => onUndone(attendee.code, undo)}
          isAdmittedHereUnsent={isAdmittedHereUnsent}
        />
      )}
      <RecentScansList
        eventId={eventId}
        day={day}
        checkInListId={checkInListId}
        undoAction={
          canSupervise
            ? (scan) =>
                // An approval decided on this device and not sent yet is unknown to the server: undo it once it is sent.
                isWaitingToSend(scan.id) ? (
                  <p className="mt-1 text-slate-700">{t('supervisor.undoAfterSending')}</p>
                ) : scan.isConflict ? (
                  // The check-in that stands is another gate's: undoing it would let the ticket in once more.
                  <p className="mt-1 text-slate-700">{t('supervisor.conflictNoUndo')}</p>
                ) : (
                  // Only the check-in this scan made (its id): never another gate's or a later one.
                  <UndoCheckInAction eventId={eventId} day={day} checkInListId={checkInListId} code={scan.ticketId} scanId={scan.id} onUndone={(undo) => onUndone(scan.ticketId, undo)} />
                )
            : undefined
        }
      />
      <ConflictsList eventId={eventId} day={day} checkInListId={checkInListId} />
      {/* Admins only (docs/decisions/105): below the door's own controls, out of a steward's way. */}
      {canManageEvents && (
        <Link to={paths.manage} className={buttonClassName({ variant: 'secondary' })}>
          <Settings aria-hidden="true" className="size-5" />
          {t('manage.entry')}
        </Link>
      )}
      <ThemeToggle className="mt-auto pt-4" />
      <LanguageToggle />
    </>
  );
}
