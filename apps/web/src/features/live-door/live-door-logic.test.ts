import { describe, expect, test } from 'vitest';
import { arrivalsGrid, percentOf, timeAxisLabels } from './live-door-logic.ts';

const list = (id: string, arrivals: Array<[string, number]>) => ({ id, name: id.toUpperCase(), checkedIn: 0, validTickets: 0, insideNow: 0, capacity: null, arrivals: arrivals.map(([at, count]) => ({ at, count })) });

describe('arrivalsGrid', () => {
  test('puts every list on one axis of 5-minute slots from the first arrival to the last, gaps as 0', () => {
    const grid = arrivalsGrid({
      slotMinutes: 5,
      lists: [list('north', [['2026-06-01T18:00:00Z', 4], ['2026-06-01T18:15:00Z', 1]]), list('vip', [['2026-06-01T18:05:00Z', 2]]), list('empty', [])],
    });
    expect(grid.slots.map((at) => new Date(at).toISOString())).toEqual([
      '2026-06-01T18:00:00.000Z',
      '2026-06-01T18:05:00.000Z',
      '2026-06-01T18:10:00.000Z',
      '2026-06-01T18:15:00.000Z',
    ]);
    expect(grid.lists).toEqual([
      { id: 'north', name: 'NORTH', counts: [4, 0, 0, 1] },
      { id: 'vip', name: 'VIP', counts: [0, 2, 0, 0] },
      { id: 'empty', name: 'EMPTY', counts: [0, 0, 0, 0] },
    ]);
  });

  test('a day without arrivals has no slots', () => {
    expect(arrivalsGrid({ slotMinutes: 5, lists: [list('north', [])] })).toEqual({ slots: [], lists: [{ id: 'north', name: 'NORTH', counts: [] }] });
  });
});

test('percentOf rounds to whole percent and answers 0 of nothing', () => {
  expect(percentOf(1, 3)).toBe(33);
  expect(percentOf(2, 3)).toBe(67);
  expect(percentOf(5, 0)).toBe(0);
});

describe('timeAxisLabels', () => {
  // Ticks on the device's clock: 11 July 2026, 23:50 to 00:05 local time, 5 minutes apart (in s).
  const ticks = [[23, 50], [23, 55], [24, 0], [24, 5]].map(([hour, minute]) => new Date(2026, 6, 11, hour, minute).getTime() / 1000);

  test('in German: 24-hour times, the date in German under the first tick and where the day changes', () => {
    expect(timeAxisLabels(ticks, 300, 'de-DE')).toEqual(['23:50\nSa., 11. Juli', '23:55', '00:00\nSo., 12. Juli', '00:05']);
  });

  test("in English as the table's times (en-GB): 24-hour, 'Sat 11 Jul', never uPlot's '11:50pm' and '7/11'", () => {
    expect(timeAxisLabels(ticks, 300, 'en-GB')).toEqual(['23:50\nSat 11 Jul', '23:55', '00:00\nSun 12 Jul', '00:05']);
  });

  test('ticks a day or more apart are dates alone', () => {
    expect(timeAxisLabels([ticks[0] ?? 0, (ticks[0] ?? 0) + 86_400], 86_400, 'de-DE')).toEqual(['Sa., 11. Juli', 'So., 12. Juli']);
  });
});
