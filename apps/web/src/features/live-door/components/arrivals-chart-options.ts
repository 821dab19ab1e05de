/**
 * The arrivals chart's uPlot options (docs/decisions/117, 127), apart from the chart so they can be
 * read without uPlot itself (which needs a real window at import): colours and dashes per check-in
 * list, axis text in the page's colour, and times, dates and counts in the app's language.
 */
import type uPlot from 'uplot';
import { type ArrivalsGrid, timeAxisLabels } from '../live-door-logic.ts';

/** Line colours that read on white and on the dark surface alike, then dashes when lists outnumber them. */
const LINE_COLOURS = ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2'];
const DASHES: number[][] = [[], [8, 4], [2, 3], [12, 4, 2, 4]];
/** The chart's height (px). */
export const HEIGHT_PX = 240;

/**
 * uPlot's options for `grid` at `width` px: axis text in `textColour`; times, dates and numbers in
 * `locale` (the app's language: `formattingLocale('en-GB')`, 'de-DE' in German), on the device's clock.
 */
export function arrivalsChartOptions(grid: ArrivalsGrid, look: { width: number; textColour: string; slotLabel: string; locale: string | undefined }): uPlot.Options {
  const { width, textColour, slotLabel, locale } = look;
  const grey = `color-mix(in srgb, ${textColour} 20%, transparent)`;
  const axis = { stroke: textColour, grid: { stroke: grey, width: 1 }, ticks: { stroke: grey, width: 1 } };
  const numbers = new Intl.NumberFormat(locale);
  return {
    width,
    height: HEIGHT_PX,
    scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
    axes: [
      { ...axis, values: (_chart, splits, _axis, _space, incr) => timeAxisLabels(splits, incr, locale) },
      { ...axis, size: 40, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], values: (_chart, splits) => splits.map((n) => numbers.format(n)) },
    ],
    legend: { show: true, live: false },
    cursor: { show: true, drag: { x: false, y: false } },
    series: [
      { label: slotLabel },
      ...grid.lists.map((list, index) => ({
        label: list.name,
        stroke: LINE_COLOURS[index % LINE_COLOURS.length],
        width: 2,
        dash: DASHES[Math.floor(index / LINE_COLOURS.length) % DASHES.length],
        points: { show: grid.slots.length < 40 },
      })),
    ],
  };
}
