/**
 * The arithmetic of `npm run bench:lighthouse` (apps/web/bench/lighthouse-figures.ts): medians,
 * figures read from a Lighthouse result, and the goals of issue 24 read as Lighthouse's report shows
 * its values (a whole score, CLS to 3 decimals).
 */
import { describe, expect, test } from 'vitest';
import {
  LOGIN_GOALS,
  LighthouseRunError,
  SCANNER_GOALS,
  figuresOf,
  formatGoal,
  formatValue,
  median,
  meetsGoal,
  pageMeasures,
  summarize,
  timespanClsOf,
} from '../apps/web/bench/lighthouse-figures.ts';

/** A Lighthouse result with just the parts the bench reads. */
function report(score: number | null, values: Partial<Record<string, number>> = {}) {
  const audit = (id: string, fallback: number) => ({ numericValue: values[id] ?? fallback });
  return {
    categories: { performance: { score } },
    audits: {
      'first-contentful-paint': audit('first-contentful-paint', 2546),
      'largest-contentful-paint': audit('largest-contentful-paint', 3071),
      'total-blocking-time': audit('total-blocking-time', 40),
      'cumulative-layout-shift': audit('cumulative-layout-shift', 0),
    },
  };
}

describe('median', () => {
  test('is the middle value of an odd count, whatever the order', () => {
    expect(median([90, 85, 88])).toBe(88);
    expect(median([3071])).toBe(3071);
  });

  test('is the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  test('refuses an empty list', () => {
    expect(() => median([])).toThrow('No values');
  });
});

describe('goals read as Lighthouse shows the figures', () => {
  test('a score is read as the whole number the report shows', () => {
    expect(meetsGoal(94.6, 'score', LOGIN_GOALS.performance)).toBe(true);
    expect(meetsGoal(94.4, 'score', LOGIN_GOALS.performance)).toBe(false);
    expect(meetsGoal(89.5, 'score', SCANNER_GOALS.performance)).toBe(true);
  });

  test("'CLS 0' admits what the report shows as 0.000 and nothing more", () => {
    expect(meetsGoal(0, 'cls', LOGIN_GOALS.cls)).toBe(true);
    expect(meetsGoal(0.0004, 'cls', LOGIN_GOALS.cls)).toBe(true);
    expect(meetsGoal(0.0006, 'cls', LOGIN_GOALS.cls)).toBe(false);
    expect(meetsGoal(0.02, 'cls', SCANNER_GOALS.verifyCls)).toBe(true);
    expect(meetsGoal(0.021, 'cls', SCANNER_GOALS.verifyCls)).toBe(false);
  });

  test('times are upper bounds in ms, the bound itself included', () => {
    expect(meetsGoal(1500, 'ms', LOGIN_GOALS.lcpMs)).toBe(true);
    expect(meetsGoal(1500.5, 'ms', LOGIN_GOALS.lcpMs)).toBe(false);
    expect(meetsGoal(151, 'ms', LOGIN_GOALS.tbtMs)).toBe(false);
  });
});

describe('summarize', () => {
  test('gives the median, median / goal and whether the goal is met', () => {
    const summary = summarize({ page: '/login', metric: 'LCP', unit: 'ms', values: [3071, 2880, 3300], goal: LOGIN_GOALS.lcpMs });
    expect(summary.median).toBe(3071);
    expect(summary.ratio).toBeCloseTo(2.047, 3);
    expect(summary.met).toBe(false);
  });

  test('has no ratio for a goal of 0 and no verdict without a goal', () => {
    expect(summarize({ page: '/login', metric: 'CLS', unit: 'cls', values: [0, 0, 0], goal: LOGIN_GOALS.cls })).toMatchObject({ ratio: null, met: true });
    expect(summarize({ page: '/login', metric: 'FCP', unit: 'ms', values: [2546] })).toMatchObject({ median: 2546, ratio: null, met: null });
  });
});

describe('figures from a Lighthouse result', () => {
  test('reads the performance score as 0–100 and the metrics in ms', () => {
    expect(figuresOf(report(0.85, { 'cumulative-layout-shift': 0.013 }))).toEqual({ performance: 85, fcpMs: 2546, lcpMs: 3071, tbtMs: 40, cls: 0.013 });
  });

  test('refuses a result Lighthouse could not measure, or one missing a figure', () => {
    expect(() => figuresOf({ ...report(null), runtimeError: { code: 'NO_FCP', message: 'The page did not paint any content.' } })).toThrow(LighthouseRunError);
    expect(() => figuresOf(report(null))).toThrow('no performance score');
    expect(() => figuresOf({ categories: { performance: { score: 0.9 } }, audits: {} })).toThrow("'first-contentful-paint'");
  });

  test("reads a timespan's CLS", () => {
    expect(timespanClsOf(report(null, { 'cumulative-layout-shift': 0.004 }))).toBe(0.004);
    expect(() => timespanClsOf({ categories: {}, audits: {} })).toThrow('cumulative-layout-shift');
  });

  test('gives the five figures of a page over its runs, each with its goal if it has one', () => {
    const runs = [figuresOf(report(0.84)), figuresOf(report(0.86, { 'largest-contentful-paint': 2900 }))];
    const measures = pageMeasures('/login', runs, LOGIN_GOALS);
    expect(measures.map((measure) => measure.metric)).toEqual(['performance', 'FCP', 'LCP', 'TBT', 'CLS']);
    expect(measures.find((measure) => measure.metric === 'LCP')).toEqual({ page: '/login', metric: 'LCP', unit: 'ms', values: [3071, 2900], goal: LOGIN_GOALS.lcpMs });
    expect(measures.find((measure) => measure.metric === 'FCP')?.goal).toBeUndefined();
  });
});

test('values and goals are written as the report writes them', () => {
  expect(formatValue(85.4, 'score')).toBe('85');
  expect(formatValue(2546, 'ms')).toBe('2.55 s');
  expect(formatValue(143.2, 'ms')).toBe('143 ms');
  expect(formatValue(0.0184, 'cls')).toBe('0.018');
  expect(formatGoal(LOGIN_GOALS.performance, 'score')).toBe('≥ 95');
  expect(formatGoal(LOGIN_GOALS.lcpMs, 'ms')).toBe('≤ 1.50 s');
  expect(formatGoal(LOGIN_GOALS.tbtMs, 'ms')).toBe('≤ 150 ms');
  expect(formatGoal(LOGIN_GOALS.cls, 'cls')).toBe('0');
  expect(formatGoal(SCANNER_GOALS.verifyCls, 'cls')).toBe('≤ 0.02');
});
