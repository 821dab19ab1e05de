/** Plain rules of the event step (SPEC §3, §4). */
import { isEventActive } from '@gatecheck/contract/check-in-rules';
import { DEFAULT_DAY_CUTOFF, DEFAULT_EVENT_TIME_ZONE, type Event } from '@gatecheck/contract/organizations';
import type { DisplayEventStatus, EventItem } from '@/lib/entities.ts';
import { t } from '@/lib/i18n/index.ts';

/** SPEC §4: live and draft are shown as such; any other server status is shown as upcoming. */
export function toDisplayStatus(status: string): DisplayEventStatus {
  if (status === 'live' || status === 'draft') return status;
  return 'upcoming';
}

/**
 * Badge colours per status (SPEC §4: colours also exist for active, completed and draft, which are
 * not derived by `toDisplayStatus`). Every pair keeps a contrast ratio above 7:1 for sunlight.
 */
export const statusBadgeClasses: Record<DisplayEventStatus | 'active' | 'completed', string> = {
  live: 'border-green-800 bg-green-700 text-white',
  upcoming: 'border-blue-800 bg-blue-100 text-blue-900',
  active: 'border-emerald-800 bg-emerald-100 text-emerald-900',
  completed: 'border-slate-700 bg-slate-200 text-slate-900',
  draft: 'border-amber-800 bg-amber-100 text-amber-900',
};

/** The status badge's word in the active language: 'live', 'draft', 'upcoming' in English (SPEC §4). */
export function statusText(status: DisplayEventStatus): string {
  return t(`events.status.${status}`);
}

/**
 * Why an event with server status `status` cannot be scanned (draft, completed, cancelled; 'closed'
 * for another inactive status), or null when it can (issue 15: such events are listed but not
 * selectable; the server denies their tickets).
 */
export function closedStatus(status: string): EventItem['closedStatus'] {
  if (isEventActive(status)) return null;
  return status === 'draft' || status === 'completed' || status === 'cancelled' ? status : 'closed';
}

/** The words for a closed event in the active language, e.g. 'Draft — not open for scanning yet'. */
export function closedReasonText(closed: NonNullable<EventItem['closedStatus']>): string {
  return t(`events.closed.${closed}`);
}

/** Why an event with server status `status` cannot be scanned, in words, or null when it can. */
export function closedReason(status: string): string | null {
  const closed = closedStatus(status);
  return closed === null ? null : closedReasonText(closed);
}

/**
 * Maps a wire event to the local one (SPEC §3): title → name, ticketsSold → attendeeCount (default
 * 0), eventDays (default []), status shown per SPEC §4, missing description/location → ''; the
 * calendar with the server's defaults when absent (UTC, 06:00, no scanning outside the days).
 */
export function toEventItem(event: Event): EventItem {
  return {
    id: event._id,
    name: event.title,
    description: event.description ?? '',
    date: event.date,
    location: event.location ?? '',
    attendeeCount: event.ticketsSold ?? 0,
    status: toDisplayStatus(event.status),
    eventDays: event.eventDays ?? [],
    timeZone: event.timeZone ?? DEFAULT_EVENT_TIME_ZONE,
    dayCutoff: event.dayCutoff ?? DEFAULT_DAY_CUTOFF,
    allowsScanningOutsideDays: event.allowsScanningOutsideDays ?? false,
    closedStatus: closedStatus(event.status),
  };
}

/** '1 attendee', '250 attendees'. */
export function attendeesLabel(count: number): string {
  return t('events.attendees', { count });
}
