/**
 * The arrivals chart (docs/decisions/117): one line per check-in list, arrivals per 5-minute slot
 * over the day, drawn by uPlot (about 20 kB gzip, in this lazy chunk only: never on the first load).
 * The canvas is hidden from screen readers; the table beside it (ArrivalsTable) says the same.
 * Colours and dash patterns tell the lists apart; axis text takes the page's text colour, so the
 * chart follows the light and dark themes; its width follows its box (320 px phones included).
 */
import { ARRIVALS_SLOT_MINUTES } from '@gatecheck/contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ArrivalsGrid } from '../live-door-logic.ts';

/** Line colours that read on white and on the dark surface alike, then dashes when lists outnumber them. */
const LINE_COLOURS = ['#2563eb', '#db2777', '#059669', '#d97706', '#7c3aed', '#0891b2'];
const DASHES: number[][] = [[], [8, 4], [2, 3], [12, 4, 2, 4]];
const HEIGHT_PX = 240;
/** A slot, in ms (ARRIVALS_SLOT_MINUTES). */
const SLOT_MS = ARRIVALS_SLOT_MINUTES * 60_000;

function options(grid: ArrivalsGrid, width: number, textColour: string, slotLabel: string): uPlot.Options {
  const grey = `color-mix(in srgb, ${textColour} 20%, transparent)`;
  const axis = { stroke: textColour, grid: { stroke: grey, width: 1 }, ticks: { stroke: grey, width: 1 } };
  return {
    width,
    height: HEIGHT_PX,
    scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] } },
    axes: [axis, { ...axis, size: 40, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
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
    const shape = `${grid.lists.map((list) => list.id).join(',')}|${document.documentElement.className}`;
    const build = () => {
      chartRef.current?.destroy();
      shapeRef.current = shape;
      chartRef.current = new uPlot(options(grid, Math.max(200, box.clientWidth), getComputedStyle(box).color, slotLabel), data(grid), box);
    };
    // New data on the same lines: only the data changes (no flicker every 2 s); new lines or theme: rebuild.
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
