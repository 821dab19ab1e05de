/**
 * Parsers for command-line values (commander `argParser`s). A bad value throws commander's
 * InvalidArgumentError, which commander reports as one line naming the option.
 */
import { DayCutoff, isCalendarDate, parseAttentionFlag, TimeZone } from '@gatecheck/contract';
import { InvalidArgumentError } from 'commander';
import type { EventDayInfo } from '../services/events.ts';

/** A day as given on the command line: numbered by its place in the list. */
type EventDayInput = Omit<EventDayInfo, 'day'>;

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30): the contract's rule. */
export function parseDate(value: string): string {
  if (isCalendarDate(value.trim())) return value.trim();
  throw new InvalidArgumentError('Expected a calendar date as YYYY-MM-DD.');
}

/** An IANA time zone the platform knows ('Europe/London', 'UTC'). */
export function parseTimeZone(value: string): string {
  const parsed = TimeZone.safeParse(value.trim());
  if (!parsed.success) throw new InvalidArgumentError('Expected an IANA time zone such as Europe/London or America/New_York.');
  return parsed.data;
}

/** A wall-clock time 'HH:MM' (24-hour). */
export function parseDayCutoff(value: string): string {
  const parsed = DayCutoff.safeParse(value.trim());
  if (!parsed.success) throw new InvalidArgumentError('Expected a time as HH:MM (24-hour), e.g. 06:00.');
  return parsed.data;
}

/** 'yes' or 'no' (also true/false). */
export function parseYesNo(value: string): boolean {
  const text = value.trim().toLowerCase();
  if (text === 'yes' || text === 'true') return true;
  if (text === 'no' || text === 'false') return false;
  throw new InvalidArgumentError('Expected yes or no.');
}

/** A whole number ≥ 1. */
export function parsePositiveInteger(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('Expected a whole number of at least 1.');
  }
  return Number(value);
}

/** `--days 1,3`: day numbers, comma-separated. */
export function parseDays(value: string): number[] {
  return value.split(',').map((day) => {
    try {
      return parsePositiveInteger(day);
    } catch {
      throw new InvalidArgumentError('Expected day numbers separated by commas, e.g. "1,3".');
    }
  });
}

/**
 * One event day, `Name:YYYY-MM-DD` or just `YYYY-MM-DD` (named "Day N" later), appended to the days
 * given so far (for a repeatable `--day`).
 */
export function collectDay(value: string, previous: EventDayInput[] = []): EventDayInput[] {
  return [...previous, parseDay(value, previous.length + 1)];
}

/**
 * A new date for one configured event day, `N:YYYY-MM-DD` (`--day-date 2:2026-12-06`), appended
 * to the ones given so far (repeatable).
 */
export function collectDayDate(value: string, previous: Array<{ day: number; date: string }> = []): Array<{ day: number; date: string }> {
  const match = /^\s*(\d+)\s*:\s*(\S+)\s*$/.exec(value);
  try {
    if (!match?.[1] || !match[2]) throw new InvalidArgumentError('');
    return [...previous, { day: parsePositiveInteger(match[1]), date: parseDate(match[2]) }];
  } catch {
    throw new InvalidArgumentError(`Day date "${value}": expected NUMBER:YYYY-MM-DD (e.g. "2:2026-12-06").`);
  }
}

/** A comma-separated list of days (`--days "Opening:2026-12-01,Main Day:2026-12-02"`). */
export function parseDayList(value: string): EventDayInput[] {
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) throw new InvalidArgumentError('Expected days as "Name:YYYY-MM-DD,Name:YYYY-MM-DD".');
  return entries.map((entry, index) => parseDay(entry, index + 1));
}

function parseDay(value: string, dayNumber: number): EventDayInput {
  const separator = value.lastIndexOf(':');
  const name = separator === -1 ? '' : value.slice(0, separator).trim();
  const date = separator === -1 ? value : value.slice(separator + 1);
  try {
    return { name: name || `Day ${dayNumber}`, date: parseDate(date) };
  } catch {
    throw new InvalidArgumentError(`Day "${value}": expected Name:YYYY-MM-DD (e.g. "Opening Night:2026-12-01").`);
  }
}

/** The attention flag: yes/no, true/false, 1/0 (`parseAttentionFlag`, docs/decisions/102). */
export function parseAttention(value: string): boolean {
  const flag = parseAttentionFlag(value);
  if (flag === null || value.trim() === '') throw new InvalidArgumentError('Expected yes or no (also true/false, 1/0).');
  return flag;
}
