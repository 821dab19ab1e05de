/**
 * What the live door shows, as pure functions (docs/decisions/117): the arrivals of every check-in
 * list on one time axis of 5-minute slots (for the chart and its table alike), a device's online
 * state and a share as a percentage. No React, no network.
 */
import type { LiveDoor } from '@gatecheck/contract/live-door';
import { formattingLocale } from '@/lib/i18n/index.ts';

/** Arrivals of every list per slot: `slots` the slots' starts (ms since epoch, every slot from the first arrival to the last), `counts[list][slot]`. */
export interface ArrivalsGrid {
  slots: number[];
  lists: Array<{ id: string; name: string; counts: number[] }>;
}

/**
 * The lists' arrivals on one axis: every slot from the day's first arrival (at any list) to its last,
 * empty slots 0, so the chart's lines and the table's rows show the quiet minutes too.
 */
export function arrivalsGrid(live: Pick<LiveDoor, 'lists' | 'slotMinutes'>): ArrivalsGrid {
  const slotMs = live.slotMinutes * 60_000;
  const times = live.lists.flatMap((list) => list.arrivals.map((slot) => Date.parse(slot.at)));
  const slots: number[] = [];
  if (times.length > 0) {
    const last = Math.max(...times);
    for (let at = Math.min(...times); at <= last; at += slotMs) slots.push(at);
  }
  return {
    slots,
    lists: live.lists.map((list) => {
      const byTime = new Map(list.arrivals.map((slot) => [Date.parse(slot.at), slot.count]));
      return { id: list.id, name: list.name, counts: slots.map((at) => byTime.get(at) ?? 0) };
    }),
  };
}

/** `part` of `whole` in whole percent (0 when `whole` is 0), for 'Checked in 40 / 100 (40 %)'. */
export function percentOf(part: number, whole: number): number {
  return whole <= 0 ? 0 : Math.round((part / whole) * 100);
}

/** 'HH:MM' on the device's clock for a time in ms since epoch (a slot's start, a device's last sight). */
export function clockTime(at: number): string {
  return new Date(at).toLocaleTimeString(formattingLocale('en-GB'), { hour: '2-digit', minute: '2-digit' });
}

/** Seconds in a day: time-axis ticks this far apart or more are labelled by date alone. */
const DAY_SECONDS = 86_400;

/**
 * The chart's time-axis labels in the app's language (not uPlot's built-in English '6:05pm' and
 * '7/11'): ticks at `splits` (seconds since epoch, uPlot's x values) `incrSeconds` apart, on the
 * device's clock as the table's times (`timeZone` only for tests). Under a day apart: 'HH:MM' in
 * `locale`, with the date ('Sat 11 Jul', 'Sa., 11. Juli') on a second line under the first tick and
 * wherever the date changes; a day or more apart: the date alone.
 * @param locale a BCP 47 locale, e.g. `formattingLocale('en-GB')`: 'de-DE' in German.
 */
export function timeAxisLabels(splits: readonly number[], incrSeconds: number, locale: string | undefined, timeZone?: string): string[] {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone });
  const date = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone });
  if (incrSeconds >= DAY_SECONDS) return splits.map((at) => date.format(at * 1000));
  let previousDate = '';
  return splits.map((at) => {
    const day = date.format(at * 1000);
    const label = day === previousDate ? time.format(at * 1000) : `${time.format(at * 1000)}\n${day}`;
    previousDate = day;
    return label;
  });
}
