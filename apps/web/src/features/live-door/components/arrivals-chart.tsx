/**
 * The arrivals chart (docs/decisions/117): one line per check-in list, arrivals per 5-minute slot
 * over the day, drawn by uPlot (about 20 kB gzip, in this lazy chunk only: never on the first load).
 * The canvas is hidden from screen readers; the table beside it (ArrivalsTable) says the same.
 * Colours and dash patterns tell the lists apart; axis text takes the page's text colour, so the
 * chart follows the light and dark themes, and the app's language (times, dates, numbers); its
 * width follows its box (320 px phones included).
 */
import { ARRIVALS_SLOT_MINUTES } from '@gatecheck/contract/live-door';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formattingLocale } from '@/lib/i18n/index.ts';
import type { ArrivalsGrid } from '../live-door-logic.ts';
import { arrivalsChartOptions, HEIGHT_PX } from './arrivals-chart-options.ts';

/** A slot, in ms (ARRIVALS_SLOT_MINUTES). */
const SLOT_MS = ARRIVALS_SLOT_MINUTES * 60_000;

/**
 * The grid as uPlot's columns (x in seconds), with an empty slot before the first and after the
 * last: the lines start and end at 0, and one slot alone still spans minutes on the axis, not years.
 */
function data(grid: ArrivalsGrid): uPlot.AlignedData {
  const first = grid.slots[0] ?? 0;
  const last = grid.slots.at(-1) ?? 0;
  const xs = [first - SLOT_MS, ...grid.slots, last + SLOT_MS].map((at) => at / 1000);
  return [xs, ...grid.lists.map((list) => [0, ...list.counts, 0])];
}

export default function ArrivalsChart({ grid, slotLabel }: { grid: ArrivalsGrid; slotLabel: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const shapeRef = useRef('');

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const locale = formattingLocale('en-GB');
    const shape = `${grid.lists.map((list) => list.id).join(',')}|${document.documentElement.className}|${locale ?? ''}`;
    const build = () => {
      chartRef.current?.destroy();
      shapeRef.current = shape;
      const look = { width: Math.max(200, box.clientWidth), textColour: getComputedStyle(box).color, slotLabel, locale };
      chartRef.current = new uPlot(arrivalsChartOptions(grid, look), data(grid), box);
    };
    // New data on the same lines: only the data changes (no flicker every 2 s); new lines, theme or language: rebuild.
    if (chartRef.current && shapeRef.current === shape) chartRef.current.setData(data(grid));
    else build();
  }, [grid, slotLabel]);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const resize = new ResizeObserver(() => chartRef.current?.setSize({ width: Math.max(200, box.clientWidth), height: HEIGHT_PX }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      chartRef.current?.destroy();
      chartRef.current = null;
    };
  }, []);

  return <div ref={boxRef} aria-hidden="true" className="w-full text-slate-800" data-testid="arrivals-chart" />;
}
