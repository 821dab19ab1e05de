/**
 * What the supervisor screen shows, as pure functions (issue 11): who may see it, and an attendee's
 * status for the selected day in words. The server enforces the role; this only hides what a role
 * cannot do.
 */
import { ticketAdmitsDay } from '@gatecheck/contract/check-in-rules';
import { hasRoleAtLeast, MembershipRole } from '@gatecheck/contract/organizations';
import type { Attendee, ScanLogEntry } from '@gatecheck/contract/supervisor';
import { ApiError } from '@/lib/api-client.ts';
import { denialReasonWords } from '@/lib/denial-text.ts';
import { activeLanguage, formattingLocale, t } from '@/lib/i18n/index.ts';
import { serverMessageText } from '@/lib/server-messages.ts';

/** Whether a membership `role` (as the server sent it; unknown values count as staff) may use the supervisor tools. */
export function canUseSupervisorTools(role: string): boolean {
  const parsed = MembershipRole.safeParse(role);
  return parsed.success && hasRoleAtLeast(parsed.data, 'supervisor');
}

/** 'HH:MM' in the device's clock for an ISO 8601 time. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleTimeString(formattingLocale('en-GB'), { hour: '2-digit', minute: '2-digit' });
}

/**
 * 'All days', 'Days 1, 3', or 'No day' (its own days and its type's share none, docs/decisions/125)
 * for an attendee's admitted days.
 */
export function admittedDaysText(admittedDays: readonly number[] | null): string {
  if (admittedDays === null) return t('supervisor.allDays');
  if (admittedDays.length === 0) return t('supervisor.noDays');
  return t('supervisor.days', { count: admittedDays.length, days: admittedDays.join(', ') });
}

/** Whether the attendee's ticket admits the selected day (`attendee.day`): all days, or that day among its days. */
export function admitsSelectedDay(attendee: Attendee): boolean {
  return ticketAdmitsDay(attendee.admittedDays, attendee.day);
}

/**
 * The attendee's status on the selected day: 'Revoked', 'Checked in at 14:05 by Alex Morgan', 'Not
 * valid on Day 2' (a ticket for other days: a check-in would be denied, so none is offered) or 'Not
 * checked in'.
 */
export function attendeeStatusText(attendee: Attendee): string {
  if (attendee.revokedAt) return t('supervisor.revoked');
  if (attendee.checkIn) return t('supervisor.checkedInAtBy', { time: formatTime(attendee.checkIn.checkedInAt), name: attendee.checkIn.checkedInBy });
  if (!admitsSelectedDay(attendee)) return t('supervisor.notValidOnDay', { day: attendee.day });
  return t('supervisor.notCheckedIn');
}

/**
 * A scan log entry's verdict in words, in the active language: 'Approved', 'Approved (manual)',
 * 'Approved (offline)', 'Denied: Already checked in' (a denial reason in the result card's words; a
 * code this app does not know, with spaces for its underscores), 'Undone: <the supervisor's reason
 * as typed>'. An offline admission the server found wrong says why: 'Approved (offline): already
 * checked in at another gate' (a conflict), 'Approved (offline): the server would have denied it
 * (Ticket revoked)', 'Approved (offline): made by someone not in this organization'.
 */
export function scanLogVerdictText(entry: ScanLogEntry): string {
  const verdict =
    entry.verdict === 'approved'
      ? t('supervisor.filterApproved')
      : entry.verdict === 'denied'
        ? t('supervisor.filterDenied')
        : entry.verdict === 'exited'
          ? t('doors.exitedVerdict')
          : entry.verdict === 'info'
            ? t('doors.infoVerdict')
            : t('supervisor.filterUndone');
  const source = entry.source === 'manual' ? t('supervisor.manualSuffix') : entry.source === 'offline' ? t('supervisor.offlineSuffix') : '';
  const reason = entry.reason && entry.verdict !== 'undone' ? reasonWords(entry.reason, entry.verdict === 'approved' ? 'approved' : 'denied') : entry.reason;
  return `${verdict}${source}${reason ? `: ${reason}` : ''}`;
}

/** A logged reason code in words: a denial's, or what the server found wrong with an offline admission. */
function reasonWords(code: string, verdict: 'approved' | 'denied'): string {
  if (code === 'conflict') return t('supervisor.logConflict');
  if (code === 'unknown_staff') return t('supervisor.logUnknownStaff');
  if (code === 'scanned_before_session') return t('supervisor.logBeforeSession');
  const words = denialReasonWords(code) ?? code.replaceAll('_', ' ');
  return verdict === 'approved' ? t('supervisor.logWouldDeny', { reason: words }) : words;
}

/**
 * What a failed supervisor call says, in the active language: our own errors as thrown (worded when
 * thrown), no answer from the server as 'No connection to the server. …', a server refusal as the server wrote it in English and by its code otherwise (`conflict`:
 * the ticket is not checked in that day; `not_found`), else 'That did not work. Please try again.'
 * English keeps any other error's own text.
 */
export function supervisorErrorText(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  // No answer at all: say so in words, not the browser's 'Failed to fetch'.
  if (error.status === 0) return t('supervisor.noConnection');
  const words = serverMessageText(error, { conflict: 'serverMessages.notCheckedIn', check_in_changed: 'serverMessages.checkInChanged', not_found: 'serverMessages.notFound' });
  if (words !== undefined) return words;
  return activeLanguage() === 'en' && error.message ? error.message : t('supervisor.requestFailed');
}
