/**
 * The check-in list form of the management area as pure functions (docs/decisions/100, 111, 115):
 * its values, their check with the contract's `CreateCheckInListRequest` / `EditCheckInListRequest`
 * (the schemas the server checks with), each problem in words next to its field, and a list's
 * activity entry in words.
 */
import { type CheckInList, CHECK_IN_LIST_MAX_CAPACITY, CHECK_IN_LIST_NAME_MAX_LENGTH, CreateCheckInListRequest, EditCheckInListRequest } from '@gatecheck/contract/check-in-lists';
import type { CheckInListAuditEntry, CheckInListSnapshot } from '@gatecheck/contract/event-management';
import { t } from '@/lib/i18n/index.ts';
import type { FieldProblems } from './manage-logic.ts';

/** The list form's values, as its inputs hold them. */
export interface CheckInListFormValues {
  name: string;
  /** Every ticket type of the event (now and imported later), or only `ticketTypes`. */
  isEveryType: boolean;
  ticketTypes: string[];
  /** Every day of the event, or only `days`. */
  isEveryDay: boolean;
  days: number[];
  allowsReentry: boolean;
  /** As typed: empty = no limit, else a whole number of guests. */
  capacity: string;
  /** 'HH:MM' (a time input's value), or empty = no daily checkout. */
  dailyCheckoutTime: string;
}

/** A new list's form: every type, every day, no re-entry, no capacity, no checkout. */
export function newCheckInListForm(): CheckInListFormValues {
  return { name: '', isEveryType: true, ticketTypes: [], isEveryDay: true, days: [], allowsReentry: false, capacity: '', dailyCheckoutTime: '' };
}

/** The form of an existing list (settings an older server does not send read as their defaults). */
export function checkInListToForm(list: CheckInList): CheckInListFormValues {
  return {
    name: list.name,
    isEveryType: list.ticketTypes === null,
    ticketTypes: list.ticketTypes ?? [],
    isEveryDay: list.days === null,
    days: list.days ?? [],
    allowsReentry: list.allowsReentry ?? false,
    capacity: list.capacity === null || list.capacity === undefined ? '' : String(list.capacity),
    dailyCheckoutTime: list.dailyCheckoutTime ?? '',
  };
}

/** The request body for the form (not yet checked): every field, so an edit sends the whole list. */
function toRequestDraft(values: CheckInListFormValues) {
  const capacity = values.capacity.trim();
  return {
    name: values.name,
    ticketTypes: values.isEveryType ? null : values.ticketTypes,
    days: values.isEveryDay ? null : [...values.days].sort((a, b) => a - b),
    allowsReentry: values.allowsReentry,
    capacity: capacity === '' ? null : /^\d+$/.test(capacity) ? Number(capacity) : Number.NaN,
    dailyCheckoutTime: values.dailyCheckoutTime === '' ? null : values.dailyCheckoutTime,
  };
}

/** The checked request of a new list, or every field's first problem in words. */
export function checkNewCheckInList(values: CheckInListFormValues): { request: CreateCheckInListRequest; problems?: undefined } | { request?: undefined; problems: FieldProblems } {
  const parsed = CreateCheckInListRequest.safeParse(toRequestDraft(values));
  return parsed.success ? { request: parsed.data } : { problems: problemsOf(parsed.error.issues) };
}

/** The checked request of a change of a list (the whole list), or every field's first problem in words. */
export function checkCheckInListChange(values: CheckInListFormValues): { request: EditCheckInListRequest; problems?: undefined } | { request?: undefined; problems: FieldProblems } {
  const parsed = EditCheckInListRequest.safeParse(toRequestDraft(values));
  return parsed.success ? { request: parsed.data } : { problems: problemsOf(parsed.error.issues) };
}

function problemsOf(issues: ReadonlyArray<{ path: PropertyKey[]; code: string }>): FieldProblems {
  const problems: FieldProblems = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    problems[field] ??= problemText(field, issue.code);
  }
  return problems;
}

/** A field's problem in the active language. */
function problemText(field: string, code: string): string {
  switch (field) {
    case 'name':
      return code === 'too_big' ? t('manage.problems.tooLong', { max: CHECK_IN_LIST_NAME_MAX_LENGTH }) : t('manageLists.problems.name');
    case 'ticketTypes':
      return t('manageLists.problems.ticketTypes');
    case 'days':
      return t('manageLists.problems.days');
    case 'capacity':
      return t('manageLists.problems.capacity', { max: CHECK_IN_LIST_MAX_CAPACITY });
    case 'dailyCheckoutTime':
      return t('manage.problems.dayCutoff');
    default:
      return t('manage.problems.failed');
  }
}

/** What a list admits in words: 'Every ticket type' or 'VIP, Press'. */
export function ticketTypesWords(ticketTypes: readonly string[] | null): string {
  return ticketTypes === null ? t('manageLists.everyType') : ticketTypes.join(', ');
}

/** Which days a list admits in words: 'Every day' or 'Day 1, Day 3'. */
export function daysWords(days: readonly number[] | null): string {
  return days === null ? t('manageLists.everyDay') : days.map((day) => t('manage.dayRow', { number: day })).join(', ');
}

/** A list's door settings in words: re-entry, capacity, daily checkout (only those set). */
export function doorSettingsWords(list: Pick<CheckInList, 'allowsReentry' | 'capacity' | 'dailyCheckoutTime'>): string[] {
  return [
    ...(list.allowsReentry ? [t('manageLists.reentryOn')] : []),
    ...(list.capacity ? [t('manageLists.capacityOf', { count: list.capacity })] : []),
    ...(list.dailyCheckoutTime ? [t('manageLists.checkoutAt', { time: list.dailyCheckoutTime })] : []),
  ];
}

const LIST_FIELDS = ['name', 'position', 'ticketTypes', 'days', 'allowsReentry', 'capacity', 'dailyCheckoutTime'] as const;

/** A list snapshot's value of `field` in words ('—' for none). */
function listValueWords(snapshot: CheckInListSnapshot | null, field: (typeof LIST_FIELDS)[number]): string {
  if (!snapshot) return '—';
  switch (field) {
    case 'ticketTypes':
      return ticketTypesWords(snapshot.ticketTypes);
    case 'days':
      return daysWords(snapshot.days);
    case 'allowsReentry':
      return snapshot.allowsReentry ? t('common.on') : t('common.off');
    case 'capacity':
      return snapshot.capacity ? String(snapshot.capacity) : '—';
    case 'dailyCheckoutTime':
      return snapshot.dailyCheckoutTime ?? '—';
    case 'position':
      return String(snapshot.position);
    default:
      return snapshot.name;
  }
}

/** What a list's activity entry changed: its label, before and after, for every setting that differs. */
export function listChangeLines(entry: CheckInListAuditEntry): Array<{ field: string; label: string; before: string; after: string }> {
  return LIST_FIELDS.flatMap((field) => {
    const before = listValueWords(entry.before, field);
    const after = listValueWords(entry.after, field);
    if (before === after) return [];
    return [{ field, label: t(`manageLists.fields.${field}`), before, after }];
  });
}
