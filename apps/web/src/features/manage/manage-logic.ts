/**
 * The management area's rules as pure functions (docs/decisions/105, 106; who sees it is
 * manage-access.ts): the event form's values and their check with the contract's `EventRequest`
 * (the schema the server checks with), every problem in words next to its field, a server refusal
 * placed on its field, and an activity entry's changes in words.
 */
import { type AuditEntry, EventRequest, type EventSnapshot, isCheckInListAuditEntry, isTicketAuditEntry, type ManagedEvent, type OrganizationAuditEntry, type TicketAuditEntry } from '@gatecheck/contract/event-management';
import { CHECK_IN_LIST_MAX_CAPACITY } from '@gatecheck/contract/check-in-lists';
import { DEFAULT_DAY_CUTOFF, DEFAULT_EVENT_DAY_NAME, DEFAULT_EVENT_DAY_NUMBER, EventStatus, MembershipRole } from '@gatecheck/contract/organizations';
import { ApiError } from '@/lib/api-client.ts';
import { listChangeLines } from './check-in-list-logic.ts';
import { activeLanguage, t } from '@/lib/i18n/index.ts';

/** One day row of the form; `key` keeps React's rows stable while numbers are typed. */
export interface DayFormValues {
  key: string;
  /** As typed: a whole number from 1. */
  day: string;
  name: string;
  /** YYYY-MM-DD (a date input's value). */
  date: string;
  /** Check-ins the day holds on the server (0 for a new row): such a day cannot be removed. */
  checkIns: number;
}

/** The event form's values, as the inputs hold them. */
export interface EventFormValues {
  title: string;
  description: string;
  date: string;
  location: string;
  status: EventStatus;
  timeZone: string;
  dayCutoff: string;
  allowsScanningOutsideDays: boolean;
  /** As typed: a whole number of guests from 1, or empty for none (docs/decisions/147). */
  capacity: string;
  days: DayFormValues[];
}

let rowCounter = 0;
function rowKey(): string {
  rowCounter += 1;
  return `day-row-${rowCounter}`;
}

/** The device's IANA time zone, or UTC when the platform does not say. */
export function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Today on the device's calendar, YYYY-MM-DD. */
export function todayOnDevice(now = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** A new event's form: a draft on `today` (YYYY-MM-DD) in the device's time zone, no days (a single-day event). */
export function newEventForm(today: string, timeZone = deviceTimeZone()): EventFormValues {
  return { title: '', description: '', date: today, location: '', status: 'draft', timeZone, dayCutoff: DEFAULT_DAY_CUTOFF, allowsScanningOutsideDays: false, capacity: '', days: [] };
}

/** The form of an existing event. */
export function eventToForm(event: ManagedEvent): EventFormValues {
  return {
    title: event.title,
    description: event.description,
    date: event.date,
    location: event.location,
    status: event.status,
    timeZone: event.timeZone,
    dayCutoff: event.dayCutoff,
    allowsScanningOutsideDays: event.allowsScanningOutsideDays,
    capacity: event.capacity === null || event.capacity === undefined ? '' : String(event.capacity),
    days: event.days.map((day) => ({ key: rowKey(), day: String(day.day), name: day.name, date: day.date, checkIns: day.checkIns })),
  };
}

/** `date` (YYYY-MM-DD) plus `days` calendar days, or `date` itself when it is not a date. */
function addDays(date: string, days: number): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  parsed.setUTCDate(parsed.getUTCDate() + days);
  return parsed.toISOString().slice(0, 10);
}

/**
 * The row 'Add day' appends: the next number after the highest, the day after the last row's date
 * (the event date for the first row), no name yet.
 */
export function nextDayRow(values: EventFormValues): DayFormValues {
  const numbers = values.days.map((day) => Number(day.day)).filter((number) => Number.isInteger(number));
  const last = values.days.at(-1);
  return {
    key: rowKey(),
    day: String(numbers.length === 0 ? 1 : Math.max(...numbers) + 1),
    name: '',
    date: last ? addDays(last.date, 1) : values.date,
    checkIns: 0,
  };
}

/** Problems by field path (`title`, `days.1.date`, `days` for the list as a whole), in words. */
export type FieldProblems = Partial<Record<string, string>>;

/** The request body for the form, as the server takes it (`EventRequest`, not yet checked). */
function toRequestDraft(values: EventFormValues) {
  const capacity = values.capacity.trim();
  return {
    ...values,
    // Empty: no capacity; anything but digits is not a whole number, and says so.
    capacity: capacity === '' ? null : /^\d+$/.test(capacity) ? Number(capacity) : Number.NaN,
    days: values.days.map((day) => ({ day: day.day.trim() === '' ? Number.NaN : Number(day.day), name: day.name, date: day.date })),
  };
}

/**
 * Checks the form with the contract's `EventRequest`.
 * @returns the request to send, or every field's first problem in words.
 */
export function checkEventForm(values: EventFormValues): { request: EventRequest; problems?: undefined } | { request?: undefined; problems: FieldProblems } {
  const parsed = EventRequest.safeParse(toRequestDraft(values));
  if (parsed.success) return { request: parsed.data };
  const problems: FieldProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.');
    problems[field] ??= problemText(field, issue);
  }
  return { problems };
}

/** The zod issue facts `problemText` reads. */
interface IssueFacts {
  code: string;
  message: string;
  maximum?: unknown;
}

/** A field's problem in the active language, by the field and the kind of issue. */
function problemText(field: string, issue: IssueFacts): string {
  const last = field.split('.').at(-1) ?? field;
  const isDay = field.startsWith('days.');
  const tooLong = () => t('manage.problems.tooLong', { max: typeof issue.maximum === 'number' ? issue.maximum : '' });
  if (field === 'title') return issue.code === 'too_big' ? tooLong() : t('manage.problems.titleRequired');
  if (field === 'description' || field === 'location') return tooLong();
  if (last === 'date') return t('manage.problems.date');
  if (field === 'timeZone') return t('manage.problems.timeZone');
  if (field === 'dayCutoff') return t('manage.problems.dayCutoff');
  if (field === 'status') return t('manage.problems.status');
  if (isDay && last === 'name') return issue.code === 'too_big' ? tooLong() : t('manage.problems.dayName');
  if (isDay && last === 'day') return issue.code === 'custom' ? t('manage.problems.dayTwice') : t('manage.problems.dayNumber');
  if (field === 'days') return t('manage.problems.tooManyDays');
  if (field === 'capacity') return t('manage.problems.capacity', { max: CHECK_IN_LIST_MAX_CAPACITY });
  return issue.message;
}

/**
 * Where and how to show a refused save: the field the server named (without its `body.` prefix;
 * null for the form as a whole) and the words — in English the server's own message, in other
 * languages ours by its code.
 */
export function refusalOf(error: Error): { field: string | null; text: string } {
  if (!(error instanceof ApiError)) return { field: null, text: error.message };
  if (error.status === 0) return { field: null, text: t('manage.problems.noConnection') };
  const field = error.field?.replace(/^body\./, '') ?? null;
  if (activeLanguage() === 'en' && error.message) return { field, text: error.message };
  const byCode: Partial<Record<string, string>> = {
    conflict: field === 'days' ? t('manage.problems.dayHasCheckIns') : field === 'status' ? t('manage.problems.archiveWhileOpen') : t('manage.problems.conflict'),
    confirmation_required: t('manage.problems.moveDayWithCheckIns'),
    validation_failed: t('serverMessages.invalidInput'),
    forbidden: t('serverMessages.forbidden'),
    not_found: t('serverMessages.notFound'),
  };
  return { field, text: byCode[error.code] ?? t('manage.problems.failed') };
}

/** The days a check-in list or ticket type can name: the event's configured days, or its implicit day 1. */
export function eventDaysOf(event: ManagedEvent | undefined): Array<{ day: number; name: string }> {
  if (!event) return [];
  return event.days.length > 0 ? event.days : [{ day: DEFAULT_EVENT_DAY_NUMBER, name: DEFAULT_EVENT_DAY_NAME }];
}

/** An event status in words ('Live', 'Draft', …). */
export function statusWords(status: string): string {
  const parsed = EventStatus.safeParse(status);
  return parsed.success ? t(`manage.status.${parsed.data}`) : status;
}

/** The settings an activity entry can show changed, in the order shown. */
const SNAPSHOT_FIELDS = ['title', 'description', 'date', 'location', 'status', 'timeZone', 'dayCutoff', 'allowsScanningOutsideDays', 'capacity', 'days', 'archivedAt'] as const;
type SnapshotField = (typeof SNAPSHOT_FIELDS)[number];

/** One changed setting: its label and its value before and after, in words ('—' for none). */
export interface ChangeLine {
  field: string;
  label: string;
  before: string;
  after: string;
}

/** A snapshot's value of `field` in words. */
function valueWords(snapshot: EventSnapshot | null, field: SnapshotField): string {
  if (!snapshot) return '—';
  switch (field) {
    case 'days':
      return snapshot.days.length === 0 ? t('manage.singleDay') : snapshot.days.map((day) => `${day.day}. ${day.name} (${day.date})`).join(', ');
    case 'allowsScanningOutsideDays':
      return snapshot.allowsScanningOutsideDays ? t('common.on') : t('common.off');
    case 'status':
      return statusWords(snapshot.status);
    case 'archivedAt':
      return snapshot.archivedAt ? t('manage.archived') : t('manage.notArchived');
    case 'capacity':
      return snapshot.capacity ? String(snapshot.capacity) : '—';
    default:
      return snapshot[field] === '' ? '—' : snapshot[field];
  }
}

/** The fields a ticket type's, a ticket's or an import batch's entry can show changed (docs/decisions/114), in the order shown. */
const RESOURCE_FIELDS = [
  'name',
  'code',
  'holderName',
  'ticketType',
  'checkInNote',
  'requiresAttention',
  'days',
  'revokedAt',
  'lines',
  'imported',
  'rows',
  'added',
  'skipped',
  'rejected',
  'isFinished',
] as const;
type ResourceField = (typeof RESOURCE_FIELDS)[number];

/** A ticket type's, ticket's or import batch's value of `field` in words ('—' for none). */
function resourceValueWords(snapshot: TicketAuditEntry['before'], field: ResourceField): string {
  if (!snapshot) return '—';
  if (field === 'lines') return 'firstLine' in snapshot ? `${snapshot.firstLine}–${snapshot.lastLine}` : '—';
  if (!(field in snapshot)) return '—';
  const value: unknown = (snapshot as Record<string, unknown>)[field];
  if (field === 'requiresAttention') return value === true ? t('common.on') : t('common.off');
  if (field === 'revokedAt') return value ? t('tickets.revoked') : '—';
  if (field === 'isFinished') return value === true ? t('tickets.importFinished') : t('tickets.importStopped');
  if (field === 'days') return value === null ? t('tickets.allDays') : Array.isArray(value) ? t('tickets.days', { days: value.join(', ') }) : '—';
  return typeof value === 'string' || typeof value === 'number' ? (value === '' ? '—' : String(value)) : '—';
}

/** The lines of a ticket type's, ticket's or import batch's entry (docs/decisions/114). */
function ticketChangeLines(entry: TicketAuditEntry): ChangeLine[] {
  return RESOURCE_FIELDS.flatMap((field) => {
    const before = resourceValueWords(entry.before, field);
    const after = resourceValueWords(entry.after, field);
    const isIdentity = field === 'name' || field === 'code';
    if (before === after && !(isIdentity && after !== '—')) return [];
    if (entry.before === null && after === '—') return [];
    return [{ field, label: t(`tickets.fields.${field}`), before, after }];
  });
}

/**
 * What an activity entry changed: every setting whose words differ between before and after (all
 * set ones for a creation) — of the event, of a check-in list (`listChangeLines`) or of a ticket
 * type, ticket or import batch (`ticketChangeLines`).
 */
export function changeLines(entry: AuditEntry): ChangeLine[] {
  if (isCheckInListAuditEntry(entry)) return listChangeLines(entry);
  if (isTicketAuditEntry(entry)) return ticketChangeLines(entry);
  const { before: beforeSnapshot, after: afterSnapshot } = entry;
  return SNAPSHOT_FIELDS.flatMap((field) => {
    const before = valueWords(beforeSnapshot, field);
    const after = valueWords(afterSnapshot, field);
    if (before === after) return [];
    if (beforeSnapshot === null && (after === '—' || field === 'archivedAt')) return [];
    return [{ field, label: t(`manage.fields.${field}`), before, after }];
  });
}

/** The name of the check-in list an activity entry is about (as it is after the change; before, for a deletion). */
function listName(entry: AuditEntry): string {
  const snapshot = entry.after ?? entry.before;
  return snapshot && 'checkInListId' in snapshot ? snapshot.name : '';
}

/** An activity entry's action in words ('Created the event', 'Added the check-in list VIP Gate', …). */
export function actionWords(entry: AuditEntry): string {
  const words = {
    'event.created': () => t('manage.actions.created'),
    'event.updated': () => t('manage.actions.updated'),
    'event.archived': () => t('manage.actions.archived'),
    'event.restored': () => t('manage.actions.restored'),
    'ticket-type.created': () => t('tickets.actions.typeCreated'),
    'ticket-type.updated': () => t('tickets.actions.typeUpdated'),
    'ticket-type.deleted': () => t('tickets.actions.typeDeleted'),
    'ticket.updated': () => t('tickets.actions.ticketUpdated'),
    'ticket.revoked': () => t('tickets.actions.ticketRevoked'),
    'ticket.reinstated': () => t('tickets.actions.ticketReinstated'),
    'tickets.imported': () => t('tickets.actions.ticketsImported'),
    'check_in_list.created': () => t('manageLists.actions.created', { name: listName(entry) }),
    'check_in_list.updated': () => t('manageLists.actions.updated', { name: listName(entry) }),
    'check_in_list.deleted': () => t('manageLists.actions.deleted', { name: listName(entry) }),
  } satisfies Record<AuditEntry['action'], () => string>;
  return words[entry.action]();
}

/** The fields an organization entry can show (docs/decisions/126), in the order shown. */
const ORGANIZATION_FIELDS = ['name', 'deviceName', 'email', 'role', 'description', 'revokedAt'] as const;
type OrganizationField = (typeof ORGANIZATION_FIELDS)[number];

/** An organization entry's value of `field` in words ('—' for none); roles as the team page says them. */
function organizationValueWords(snapshot: OrganizationAuditEntry['before'], field: OrganizationField): string {
  const value = snapshot?.[field];
  if (value === undefined || value === null || value === '') return '—';
  if (field === 'revokedAt') return t('manage.organizationFields.revokedAt');
  if (field === 'role') {
    const role = MembershipRole.safeParse(value);
    return role.success ? t(`team.roles.${role.data}`) : String(value);
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '—';
}

/** What an organization entry changed: every field whose words differ (all set ones for a creation), the name or e-mail always. */
export function organizationChangeLines(entry: OrganizationAuditEntry): ChangeLine[] {
  return ORGANIZATION_FIELDS.flatMap((field) => {
    const before = organizationValueWords(entry.before, field);
    const isIdentity = field === 'name' || field === 'deviceName' || field === 'email';
    // Who an entry is about stays who it was when the after snapshot does not repeat it (an
    // invitation used names the account it made, not the address again).
    const named = organizationValueWords(entry.after, field);
    const after = isIdentity && named === '—' && entry.after !== null ? before : named;
    if (before === after && !(isIdentity && after !== '—')) return [];
    if (entry.before === null && after === '—') return [];
    return [{ field, label: t(`manage.organizationFields.${field}`), before, after }];
  });
}

/**
 * How an activity entry's line reads: 'before → after' when a change (`isChange`) changed the value;
 * the value alone when it did not (a name or e-mail shown to say who the entry is about), and for an
 * entry that set things (a creation: the value) or ended them (a removal: the value it had).
 */
export function changeLineWords(line: ChangeLine, isChange: boolean): string {
  if (!isChange) return line.after === '—' ? line.before : line.after;
  if (line.before === line.after) return line.after;
  return t('manage.fromTo', { before: line.before, after: line.after });
}

/** An organization entry's action in words ('Changed a role'). */
export function organizationActionWords(entry: OrganizationAuditEntry): string {
  return t(`manage.organizationActions.${entry.action}`);
}
