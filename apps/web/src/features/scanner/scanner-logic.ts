/**
 * The scanner's rules as plain functions (SPEC §3 scan result, §4 scanner states, §5 manual entry,
 * §8 result card texts, §9 cuts). No React, no I/O: the screen and its hooks call these.
 */
import type { CheckInAttention } from '@gatecheck/contract/check-in-notes';
import { normalizeTicketCode } from '@gatecheck/contract/door-list';
import { ticketCodeOfQrText } from '@gatecheck/contract/signed-ticket';
import { RESULT_CODE_MAX_CHARS, TOAST_CODE_MAX_CHARS } from '@/config/constants.ts';
import type { Denial } from '@/lib/denial-text.ts';
import { t } from '@/lib/i18n/index.ts';
import type { VerdictCue } from '@/lib/verdict-cue.ts';

/** Details of an approved ticket, each present only when the server sent it (SPEC §3, §8). */
interface TicketDetails {
  eventName?: string;
  holderName?: string;
  ticketType?: string;
}

export type { Denial } from '@/lib/denial-text.ts';

/**
 * A verdict as the client keeps it: approved with details, or denied with the reason; `attention`
 * when the ticket carries a check-in note or the attention flag (docs/decisions/102: on approvals
 * and on 'Already checked in').
 */
export type Verdict = ({ isValid: true; details: TicketDetails } & ApprovalKind | { isValid: false; denial: Denial }) & { attention?: CheckInAttention };

/**
 * What kind of approval (docs/decisions/111, 113): `isExit` an exit recorded ('Exit recorded');
 * `isCapacityUnchecked` an entry decided on the device at a list with a capacity, which the device
 * cannot count ('capacity not checked offline').
 */
export interface ApprovalKind {
  isExit?: boolean;
  isCapacityUnchecked?: boolean;
}

/**
 * How a new verdict sounds and feels (docs/decisions/102): an approval of a ticket that needs
 * attention has its own cue, so staff look up before waving the guest through; a denial is a
 * denial whatever the ticket carries (it has its own sound, and staff stop the guest anyway).
 */
export function verdictCue(verdict: Verdict): VerdictCue {
  if (!verdict.isValid) return 'denied';
  return verdict.attention?.requiresAttention === true ? 'attention' : 'approved';
}

/** A supervisor's undo of an approved check-in (issue 11): when (ISO 8601) and why. */
export interface UndoneCheckIn {
  at: string;
  reason: string;
}

/**
 * One ticket check (SPEC §3 "Scan result"): the scanned text, the verdict, when (ISO 8601); `undone`
 * when a supervisor has since undone this approval (issue 11); `isOffline` when the device decided it
 * without the server (issue 12 item 3), `isConflict` when the server later found the ticket already
 * checked in at another gate (item 5).
 */
export type ScanResult = {
  id: string;
  ticketId: string;
  timestamp: string;
  undone?: UndoneCheckIn;
  isOffline?: boolean;
  isConflict?: boolean;
  /** A later approval of the same ticket was listed: this check-in must have been undone elsewhere since. */
  isReplaced?: boolean;
  /**
   * An exit this device denied 'Not inside' offline that the server recorded when it was sent: the
   * guest was inside by a gate or a time the device did not know of (docs/decisions/150).
   */
  isExitRecordedOnUpload?: boolean;
} & Verdict;

/** Scanner screen state (SPEC §4): idle or scanning (panel shown); camera; processing. */
export interface ScannerState {
  isScanning: boolean;
  camera: 'inactive' | 'starting' | 'active' | 'failed';
  /** A ticket is being verified; Verify is disabled meanwhile (SPEC §5). */
  isProcessing: boolean;
  /** The code the camera decoded, shown while it is processed (SPEC §4); null for manual entry. */
  detectedCode: string | null;
  /** The result on display; cleared when scanning starts (SPEC §4). */
  latestResult: ScanResult | null;
  /** Every result of this visit, newest first (SPEC §3); kept in memory only. */
  history: ScanResult[];
}

export type ScannerEvent =
  | { type: 'scanStarted' }
  | { type: 'scanStopped' }
  | { type: 'cameraStarting' }
  | { type: 'cameraStarted' }
  | { type: 'cameraStopped' }
  | { type: 'cameraFailed' }
  /**
   * A code to verify came from a scan source. `keepsCamera`: the camera goes on running (continuous
   * mode, or a hardware scanner's code); absent or false, a camera decode has stopped it (SPEC §4).
   */
  | { type: 'codeDetected'; code: string; keepsCamera?: boolean }
  | { type: 'manualCodeSubmitted' }
  | { type: 'verified'; result: ScanResult }
  | { type: 'verificationFailed' }
  /** An info scan's answer is shown (docs/decisions/113): no verdict; the scanner is free again. */
  | { type: 'infoShown' }
  /** A supervisor undid ticket `code`'s check-in on this screen (issue 11): the card shown says so. */
  | { type: 'checkInUndone'; code: string; undone: UndoneCheckIn };

export const initialScannerState: ScannerState = {
  isScanning: false,
  camera: 'inactive',
  isProcessing: false,
  detectedCode: null,
  latestResult: null,
  history: [],
};

/** The SPEC §4 transitions. Pure: returns the next state. */
export function scannerReducer(state: ScannerState, event: ScannerEvent): ScannerState {
  switch (event.type) {
    case 'scanStarted':
      return { ...state, isScanning: true, latestResult: null };
    case 'scanStopped':
      return { ...state, isScanning: false, camera: 'inactive', detectedCode: null };
    case 'cameraStarting':
      return { ...state, camera: 'starting', detectedCode: null };
    case 'cameraStarted':
      return { ...state, camera: 'active' };
    case 'cameraStopped':
      return { ...state, camera: 'inactive' };
    case 'cameraFailed':
      return { ...state, camera: 'failed' };
    case 'codeDetected':
      // A decode stops the camera and shows the code while it is processed (SPEC §4); in continuous
      // mode, and for a hardware scanner's code, the camera stays as it is (issue 10).
      return { ...state, camera: event.keepsCamera === true ? state.camera : 'inactive', isProcessing: true, detectedCode: event.code };
    case 'manualCodeSubmitted':
      return { ...state, isProcessing: true, detectedCode: null };
    case 'verified':
      return {
        ...state,
        isProcessing: false,
        detectedCode: null,
        latestResult: event.result,
        history: [event.result, ...state.history],
      };
    case 'verificationFailed':
    case 'infoShown':
      return { ...state, isProcessing: false, detectedCode: null };
    case 'checkInUndone': {
      const shown = state.latestResult;
      const isShown = shown?.isValid === true && shown.undone === undefined && isSameTicket(shown.ticketId, event.code);
      return isShown ? { ...state, latestResult: { ...shown, undone: event.undone } } : state;
    }
  }
}

/**
 * Whether two scanned texts name the same ticket: codes compared as the door list compares them
 * (`normalizeTicketCode`: trimmed, any letter case, a signed ticket's text as the code it carries).
 */
export function isSameTicket(scanned: string, other: string): boolean {
  return normalizeTicketCode(scanned) === normalizeTicketCode(other);
}

/** The scanned text as shown in the 'QR Code Detected!' toast: its first 30 characters (SPEC §4, §9). */
export function toastCodeText(code: string): string {
  return Array.from(code).slice(0, TOAST_CODE_MAX_CHARS).join('');
}

/** The ticket text on the result card: its first 20 characters followed by an ellipsis (SPEC §8, §9). */
export function resultCodeText(ticketId: string): string {
  return `${Array.from(ticketId).slice(0, RESULT_CODE_MAX_CHARS).join('')}...`;
}

/**
 * The ticket text a verdict names (the result card, recent scans): the text as scanned, or for a
 * signed ticket (`GC1.…`, docs/decisions/043) the code it carries, which staff can read out and a
 * supervisor can search for — unless the verdict is 'not found' (a signature that does not verify,
 * or a code no ticket has), when it stays as scanned, so that no real ticket's code is shown beside
 * a forgery (docs/decisions/074). What the camera decoded before the verdict ('QR Code Detected!')
 * is shown as scanned.
 */
export function verdictTicketText(result: Pick<ScanResult, 'ticketId'> & Verdict): string {
  if (!result.isValid && result.denial.reason === 'not_found') return result.ticketId;
  return ticketCodeOfQrText(result.ticketId);
}

/** The manual entry's ticket code: the trimmed text, or null when nothing is left (SPEC §5). */
export function manualTicketCode(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** Verify is enabled only for a non-empty trimmed text and while nothing is processing (SPEC §5). */
export function canSubmitManualCode(text: string, isProcessing: boolean): boolean {
  return !isProcessing && manualTicketCode(text) !== null;
}

/** The clock time and the denial words live in lib (the supervisor tools word denials too). */
export { denialText, formatClockTime } from '@/lib/denial-text.ts';

/**
 * The id of the toast of a check's outcome (a verdict or 'Verification Error'): each outcome replaces
 * the last one's toast, so an earlier 'Access granted' never stays stacked behind a new 'Access
 * denied' where a glance at the door could catch the wrong colour.
 */
export const SCAN_OUTCOME_TOAST_ID = 'scan-outcome';

/**
 * The toast for a verdict (SPEC §8), in place of the last outcome's (`SCAN_OUTCOME_TOAST_ID`). Not
 * read out by screen readers: the verdict flash announces the verdict once, with its reason (issue
 * 10 item 2, decision 035).
 */
export function verdictNotice(verdict: Verdict): { id: string; title: string; description: string; variant: 'success' | 'error'; isAnnounced: false } {
  return verdict.isValid
    ? { id: SCAN_OUTCOME_TOAST_ID, title: t('scanner.validTicket'), description: t('scanner.accessGranted'), variant: 'success', isAnnounced: false }
    : { id: SCAN_OUTCOME_TOAST_ID, title: t('scanner.invalidTicket'), description: t('scanner.accessDenied'), variant: 'error', isAnnounced: false };
}
