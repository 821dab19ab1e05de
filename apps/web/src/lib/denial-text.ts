/**
 * A denial in plain words, in the active language (issue 10 items 2 and 9, docs/decisions/050): the
 * scanner's result card, flash and recent scans, and the supervisor's manual check-in.
 *
 * The words of a calendar denial (`not_valid_today`, `not_event_day`): the contract gives the facts (`DayDenial`: on a verdict from
 * the server, or `notEventDayFacts` for the day warning before anyone scans); this module words them
 * through i18n. In English the words are exactly the contract's `dayDenialMessage` (same sentences,
 * dates as 'Sat 24 Nov'); in German dates read 'Sa., 24. November'.
 */
import type { ListDenial } from '@gatecheck/contract/check-in-lists';
import { formatEventDate } from '@gatecheck/contract/check-in-rules';
import { type DayDenial, DenialReason } from '@gatecheck/contract/tickets';
import { activeLanguage, formattingLocale, t } from './i18n/index.ts';

/** German event-day date: weekday short, day, month in full; read on the UTC calendar ('YYYY-MM-DD' names a day). */
const GERMAN_EVENT_DATE = new Intl.DateTimeFormat('de-DE', { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' });

/** 'Sat 24 Nov' (English, as the contract words it) or 'Sa., 24. November' for a 'YYYY-MM-DD' date. */
export function eventDayDate(date: string): string {
  if (activeLanguage() !== 'de') return formatEventDate(date);
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : GERMAN_EVENT_DATE.format(parsed);
}

/** 'Day 2, Sat 24 Nov'. */
function dayWithDate(day: { day: number; date: string }): string {
  return t('dayDenial.dayWithDate', { day: day.day, date: eventDayDate(day.date) });
}

/** 'a', 'a and b', 'a, b and c' (German 'und'). */
function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')}${t('dayDenial.and')}${words[words.length - 1]}`;
}

/**
 * The sentence(s) for a calendar denial, e.g. 'This ticket is for Day 2, Sat 24 Nov.' / 'Dieses
 * Ticket gilt für Tag 2, Sa., 24. November.' or 'Day 1 (Opening Night) was Sun 22 Nov. Today is Day
 * 2, Mon 23 Nov.' Pure apart from the active language.
 */
export function dayDenialText(facts: DayDenial): string {
  switch (facts.kind) {
    case 'no_such_day':
      return t('dayDenial.noSuchDay', { day: facts.day });
    case 'ticket_days':
      return facts.admitted.length > 0
        ? t('dayDenial.ticketDays', { days: joinWords(facts.admitted.map(dayWithDate)) })
        : t('dayDenial.ticketNotForDay', { day: facts.day });
    case 'not_event_day': {
      const { selected } = facts;
      const values = { day: selected.day, name: selected.name, date: eventDayDate(selected.date) };
      const opening = facts.isPast ? t('dayDenial.wasDay', values) : t('dayDenial.isDayNotToday', values);
      if (facts.today) return `${opening} ${t('dayDenial.todayIs', { day: dayWithDate(facts.today) })}`;
      const runs = facts.firstDate.slice(0, 10) === facts.lastDate.slice(0, 10)
        ? t('dayDenial.eventOn', { date: eventDayDate(facts.firstDate) })
        : t('dayDenial.eventRuns', { first: eventDayDate(facts.firstDate), last: eventDayDate(facts.lastDate) });
      return `${opening} ${runs}`;
    }
  }
}

/** Why a ticket was denied, as far as the server said (our addition; SPEC §8 has no denial texts). */
export interface Denial {
  reason?: DenialReason;
  /** ISO 8601 time of the earlier check-in, for `already_checked_in`. */
  checkedInAt?: string;
  /** Name of the staff member who made the earlier check-in. */
  checkedInBy?: string;
  /**
   * The facts behind a calendar reason (`not_valid_today`, `not_event_day`), worded in the active
   * language where they name the right day: 'This ticket is for Day 2, Sat 24 Nov.' (dayDenialText above).
   */
  dayDenial?: DayDenial;
  /** The facts behind `not_on_list`: the lists that admit the ticket today (docs/decisions/100). */
  listDenial?: ListDenial;
  /** The numbers behind `at_capacity` (docs/decisions/111). */
  capacityDenial?: { insideNow: number; capacity: number };
}

/** A clock time such as "10:42" in the device's locale. */
export function formatClockTime(iso: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleTimeString(formattingLocale(undefined), { hour: '2-digit', minute: '2-digit' });
}

/**
 * A short plain-words line saying why a ticket was denied, e.g. "Already checked in at 10:42 by
 * Demo Staff"; null when the server gave no reason. Our own texts: SPEC §8 only says DENIED.
 */
export function denialText(denial: Denial): string | null {
  switch (denial.reason) {
    case 'already_checked_in': {
      const time = denial.checkedInAt === undefined ? null : formatClockTime(denial.checkedInAt);
      const name = denial.checkedInBy;
      if (time !== null && name) return t('scanner.alreadyCheckedInAtBy', { time, name });
      if (time !== null) return t('scanner.alreadyCheckedInAt', { time });
      if (name) return t('scanner.alreadyCheckedInBy', { name });
      return t('scanner.alreadyCheckedIn');
    }
    case 'not_valid_today':
      return denial.dayDenial ? dayDenialText(denial.dayDenial) : t('scanner.notValidToday');
    case 'not_event_day':
      return denial.dayDenial ? dayDenialText(denial.dayDenial) : t('scanner.notEventDay');
    case 'revoked':
      return t('scanner.revoked');
    case 'not_found':
      return t('scanner.notFound');
    case 'wrong_event':
      return t('scanner.wrongEvent');
    case 'event_not_active':
      return t('scanner.eventNotActive');
    case 'not_on_list': {
      const validAt = denial.listDenial?.validAt.map((list) => list.name) ?? [];
      if (!denial.listDenial) return t('scanner.notOnList');
      return validAt.length > 0 ? t('scanner.notOnListValidAt', { lists: joinWords(validAt) }) : t('scanner.notOnListNowhere');
    }
    case 'not_inside':
      return t('scanner.notInside');
    case 'at_capacity':
      return t('scanner.atCapacity', { count: denial.capacityDenial?.insideNow ?? '' });
    case undefined:
      return null;
  }
}

/**
 * A denial reason code as the result card words it without details ('Ticket not found'), for lines
 * that carry only the code (the scan log, scans the server would not take); null for a code that is
 * not a denial reason.
 */
export function denialReasonWords(code: string): string | null {
  const reason = DenialReason.safeParse(code);
  return reason.success ? denialText({ reason: reason.data }) : null;
}
