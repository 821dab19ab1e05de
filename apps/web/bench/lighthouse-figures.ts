/**
 * The figures `npm run bench:lighthouse` (lighthouse.bench.ts) reads from Lighthouse's reports, and
 * the goals of issue 24 it sets them against. Pure functions: no browser, no files.
 *
 * Units: performance is Lighthouse's score × 100 (0–100, as its report shows it); FCP, LCP and TBT
 * are milliseconds; CLS is Lighthouse's unitless layout-shift score.
 */

/** How a figure is shown and compared: a score, a time in ms, or a layout-shift score. */
export type Unit = 'score' | 'ms' | 'cls';

/** One run's figures for one page. */
export interface PageFigures {
  /** Performance category score, 0–100. */
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

/** The part of a Lighthouse result (LHR, `LH.Result`) read here. */
export interface LighthouseReportLike {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number } | undefined>;
  runtimeError?: { code: string; message: string };
}

/** A goal of issue 24: the median must be at least (score) or at most (times, CLS) `target`. */
export interface Goal {
  comparison: 'atLeast' | 'atMost';
  /** In the figure's unit (score 0–100, ms, CLS). */
  target: number;
}

/** One line of the bench's table: a figure of one page over the runs, and its goal if it has one. */
export interface Measure {
  page: string;
  metric: string;
  unit: Unit;
  /** One value per run, in the unit. */
  values: number[];
  goal?: Goal;
}

/** A Measure summed up: its median and how it stands against its goal. */
export interface MeasureSummary extends Measure {
  median: number;
  /** median / target; null without a goal or when the target is 0 (CLS 0). */
  ratio: number | null;
  /** null without a goal. */
  met: boolean | null;
}

/** Issue 24: /login cold, mobile, simulated throttling. FCP is printed with no goal. */
export const LOGIN_GOALS = {
  performance: { comparison: 'atLeast', target: 95 },
  lcpMs: { comparison: 'atMost', target: 1500 },
  tbtMs: { comparison: 'atMost', target: 150 },
  cls: { comparison: 'atMost', target: 0 },
} as const satisfies Partial<Record<keyof PageFigures, Goal>>;

/** Issue 24: /scanner with a stored session; CLS is the one across a verify (a timespan). */
export const SCANNER_GOALS = {
  performance: { comparison: 'atLeast', target: 90 },
  verifyCls: { comparison: 'atMost', target: 0.02 },
} as const satisfies Record<string, Goal>;

/**
 * The median of `values` (the mean of the two middle ones for an even count).
 * @throws Error when `values` is empty.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('No values to take the median of.');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A value as Lighthouse's report shows it, which is what the goals are read against: a score as a
 * whole number, CLS to 3 decimals (so 'CLS 0' means no shift Lighthouse would show), times as measured.
 */
export function asShown(value: number, unit: Unit): number {
  if (unit === 'score') return Math.round(value);
  if (unit === 'cls') return Math.round(value * 1000) / 1000;
  return value;
}

/** Whether `value` (in the goal's unit, rounded as shown) meets `goal`. */
export function meetsGoal(value: number, unit: Unit, goal: Goal): boolean {
  const shown = asShown(value, unit);
  return goal.comparison === 'atLeast' ? shown >= goal.target : shown <= goal.target;
}

/** `value` for the table: '85', '2.55 s', '40 ms', '0.013'. */
export function formatValue(value: number, unit: Unit): string {
  if (unit === 'score') return String(Math.round(value));
  if (unit === 'cls') return asShown(value, 'cls').toFixed(3);
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

/** `goal` for the table: '≥ 95', '≤ 1.50 s', '≤ 150 ms', '0'. */
export function formatGoal(goal: Goal, unit: Unit): string {
  if (unit === 'cls' && goal.target === 0) return '0';
  return `${goal.comparison === 'atLeast' ? '≥' : '≤'} ${unit === 'cls' ? String(goal.target) : formatValue(goal.target, unit)}`;
}

/** The median of a measure and how it stands against its goal. */
export function summarize(measure: Measure): MeasureSummary {
  const middle = median(measure.values);
  const { goal } = measure;
  if (!goal) return { ...measure, median: middle, ratio: null, met: null };
  return { ...measure, median: middle, ratio: goal.target === 0 ? null : middle / goal.target, met: meetsGoal(middle, measure.unit, goal) };
}

/**
 * Lighthouse could not measure: it reported a runtime error (e.g. NO_NAVSTART, 'Please run Lighthouse
 * again') instead of figures. Worth another try, unlike a missing figure.
 */
export class LighthouseRunError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`Lighthouse could not measure the page: ${code}: ${message}`);
    this.name = 'LighthouseRunError';
  }
}

/**
 * Performance, FCP, LCP, TBT and CLS of a navigation report.
 * @throws LighthouseRunError when Lighthouse reported a runtime error; Error when a figure is missing.
 */
export function figuresOf(report: LighthouseReportLike): PageFigures {
  if (report.runtimeError) throw new LighthouseRunError(report.runtimeError.code, report.runtimeError.message);
  const score = report.categories.performance?.score;
  if (score === null || score === undefined) throw new Error('The report has no performance score.');
  const numeric = (id: string): number => {
    const value = report.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`The report has no value for the audit '${id}'.`);
    return value;
  };
  return {
    performance: score * 100,
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
  };
}

/**
 * CLS of a timespan report (Lighthouse's `cumulative-layout-shift` over the timespan).
 * @throws Error as figuresOf.
 */
export function timespanClsOf(report: LighthouseReportLike): number {
  if (report.runtimeError) throw new LighthouseRunError(report.runtimeError.code, report.runtimeError.message);
  const value = report.audits['cumulative-layout-shift']?.numericValue;
  if (value === undefined) throw new Error("The timespan report has no value for 'cumulative-layout-shift'.");
  return value;
}

/** The five figures of a page's runs as Measures, each with its goal from `goals` if any. */
export function pageMeasures(page: string, runs: readonly PageFigures[], goals: Partial<Record<keyof PageFigures, Goal>>): Measure[] {
  const metrics: { key: keyof PageFigures; metric: string; unit: Unit }[] = [
    { key: 'performance', metric: 'performance', unit: 'score' },
    { key: 'fcpMs', metric: 'FCP', unit: 'ms' },
    { key: 'lcpMs', metric: 'LCP', unit: 'ms' },
    { key: 'tbtMs', metric: 'TBT', unit: 'ms' },
    { key: 'cls', metric: 'CLS', unit: 'cls' },
  ];
  return metrics.map(({ key, metric, unit }) => {
    const goal = goals[key];
    return { page, metric, unit, values: runs.map((run) => run[key]), ...(goal ? { goal } : {}) };
  });
}
