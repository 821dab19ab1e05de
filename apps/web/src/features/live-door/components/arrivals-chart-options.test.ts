/**
 * The arrivals chart's axes speak the app's language (docs/decisions/127): the options the chart
 * hands uPlot label times, dates and counts in the locale `formattingLocale` gives for the active
 * language, so a German device reads 'Sa., 11. Juli' and '1.200', an English one 'Sat 11 Jul' and
 * '1,200'. (jsdom has no canvas to draw on: the labels are read from the options' functions.)
 */
import { afterEach, expect, test } from 'vitest';
import type uPlot from 'uplot';
import { formattingLocale, i18n } from '@/lib/i18n/index.ts';
import { arrivalsChartOptions } from './arrivals-chart-options.ts';

const grid = { slots: [new Date(2026, 6, 11, 18, 0).getTime(), new Date(2026, 6, 11, 18, 5).getTime()], lists: [{ id: 'north', name: 'North', counts: [1200, 3] }] };
const TICKS = [new Date(2026, 6, 11, 18, 0).getTime() / 1000, new Date(2026, 6, 11, 18, 5).getTime() / 1000];

/** What the x and y axes of the chart's options print for TICKS (300 s apart) and counts 0 and 1,200. */
function axisLabels(): { x: unknown[]; y: unknown[] } {
  const options = arrivalsChartOptions(grid, { width: 320, textColour: 'rgb(0, 0, 0)', slotLabel: 'Slot', locale: formattingLocale('en-GB') });
  const [x, y] = options.axes ?? [];
  if (typeof x?.values !== 'function' || typeof y?.values !== 'function') throw new Error('the axes format their own values');
  // The labels depend on the ticks only, not on the drawn chart (none in jsdom).
  const chart = {} as uPlot;
  return { x: x.values(chart, TICKS, 0, 50, 300), y: y.values(chart, [0, 1200], 1, 50, 100) };
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

test('on a German device the time axis shows German dates and 24-hour times, and German digit grouping', async () => {
  await i18n.changeLanguage('de');
  expect(axisLabels()).toEqual({ x: ['18:00\nSa., 11. Juli', '18:05'], y: ['0', '1.200'] });
});

test('in English the axis shows the same 24-hour times as the table, English dates and grouping', () => {
  expect(axisLabels()).toEqual({ x: ['18:00\nSat 11 Jul', '18:05'], y: ['0', '1,200'] });
});
