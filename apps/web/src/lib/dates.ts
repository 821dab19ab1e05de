/**
 * Date display helpers. Dates from the server are ISO 8601 calendar dates ('2026-11-21') or
 * date-times. A calendar date names a day, not an instant, so it is read in local time: parsing it
 * as UTC midnight would show the previous day west of Greenwich. Formatted for the active language
 * (lib/i18n): 'Saturday, November 21, 2026' in English, 'Samstag, 21. November 2026' in German.
 */
import { formattingLocale } from './i18n/index.ts';

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** English formats as before ('en-US', SPEC §2's long-form date); German as 'de-DE' (issue 10 item 9). */
const ENGLISH_LOCALE = 'en-US';

/** The Date for an ISO date or date-time, or null when unparsable. */
export function parseIsoDate(value: string): Date | null {
  const calendar = CALENDAR_DATE.exec(value);
  const date = calendar ? new Date(Number(calendar[1]), Number(calendar[2]) - 1, Number(calendar[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'Saturday, November 21, 2026' (the long-form date of SPEC §2); the raw text when unparsable. */
export function formatLongDate(value: string): string {
  const date = parseIsoDate(value);
  return date ? new Intl.DateTimeFormat(formattingLocale(ENGLISH_LOCALE), { dateStyle: 'full' }).format(date) : value;
}

/** 'Nov 21, 2026'; the raw text when unparsable. */
export function formatShortDate(value: string): string {
  const date = parseIsoDate(value);
  return date ? new Intl.DateTimeFormat(formattingLocale(ENGLISH_LOCALE), { dateStyle: 'medium' }).format(date) : value;
}
