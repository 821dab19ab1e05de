/**
 * The words of a calendar denial (`not_valid_today`, `not_event_day`) in the active language
 * (issue 10 item 9, docs/decisions/050). The contract gives the facts (`DayDenial`: on a verdict from
 * the server, or `notEventDayFacts` for the day warning before anyone scans); this module words them
 * through i18n. In English the words are exactly the contract's `dayDenialMessage` (same sentences,
 * dates as 'Sat 24 Nov'); in German dates read 'Sa., 24. November'.
 */
import { type DayDenial, formatEventDate } from '@gatecheck/contract';
import { activeLanguage, t } from './i18n/index.ts';

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
