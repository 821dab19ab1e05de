/**
 * The soak's rule for "flat" (issue 27 item 4, docs/decisions/152): every measured window against the
 * first, judged for upward drift beyond FLAT_WITHIN only. A window that reads lower (less memory, a
 * faster answer) is no regression: it is reported as such, not as a miss.
 *
 * - A level (resident set, V8 heap after a full collection, external memory, handles, descriptors,
 *   connections): its ratio to the first window's; `up` above 1 + within, `down` below 1 − within.
 * - A latency quantile (p50, p99 in ms): a window of n requests resolves its p-quantile only to an
 *   interval of order statistics (`quantileWithInterval`), and so does the first window. The ratio's
 *   interval is [later.low ÷ first.high, later.high ÷ first.low]; `up` only when that interval lies
 *   wholly above 1 + within (the later window is slower by more than 10 % even read at its fastest
 *   against the first read at its slowest), `down` only when it lies wholly below 1 − within. Each
 *   quantile's interval holds the true quantile with probability ≥ QUANTILE_CONFIDENCE, so the
 *   ratio's interval holds the true ratio with probability ≥ 2 × QUANTILE_CONFIDENCE − 1 (90 %),
 *   assuming requests independent (they are not quite: one pause slows several at once, so the true
 *   uncertainty is wider than this and the rule errs towards "flat" less than it seems).
 */
import jStat from 'jstat';

/** Flat: no upward drift beyond this fraction of the first window. */
export const FLAT_WITHIN = 0.1;
/** Each quantile's interval holds the true quantile with at least this probability. */
export const QUANTILE_CONFIDENCE = 0.95;

/** A sample quantile with its distribution-free confidence interval, in the values' unit (ms). */
export interface QuantileEstimate {
  /** The sample quantile: the value at 0-based index min(n − 1, ⌊p·n⌋) of the values sorted ascending; NaN when there are none. */
  value: number;
  /** The interval's lower end (an order statistic); −Infinity when n is too small to bound it from below. */
  low: number;
  /** The interval's upper end (an order statistic); +Infinity when n is too small to bound it from above (a p99 of fewer than about 370 values). */
  high: number;
  /** How many values it was read from. */
  count: number;
}

/** The smallest k in 0…n with P(Binomial(n, p) ≤ k) ≥ r, for r in (0, 1): a binary search on jstat's CDF. */
export function binomialQuantile(r: number, n: number, p: number): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (jStat.binomial.cdf(middle, n, p) >= r) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The `p`-quantile (0 < p < 1) of `values` with its distribution-free (order-statistic) confidence
 * interval at `confidence`: with X₍₁₎ ≤ … ≤ X₍ₙ₎ the sorted values and B ~ Binomial(n, p) the count
 * of values at or below the true quantile ξ, X₍ₗ₎ ≤ ξ ≤ X₍ᵤ₎ whenever l ≤ B ≤ u − 1. Taking
 * l = the smallest k with P(B ≤ k) ≥ α/2 and u − 1 = the smallest k with P(B ≤ k) ≥ 1 − α/2
 * (α = 1 − confidence) makes that at least `confidence` likely for any continuous distribution,
 * given independent values. In a 5-minute window of the soak verify's p99 (about 5,400 values) is
 * the 54th largest, its interval the 70th to the 40th; the other calls' p99 (about 860 values) is
 * the 9th largest, its interval the 16th to the 3rd. l = 0 or u = n + 1 (too few values: a p99 of
 * fewer than about 370) leave that end unbounded (∓Infinity). The point value is the soak's
 * estimator as before.
 * @throws Error when p or confidence is not strictly between 0 and 1.
 */
export function quantileWithInterval(values: readonly number[], p: number, confidence = QUANTILE_CONFIDENCE): QuantileEstimate {
  if (!(p > 0 && p < 1)) throw new Error(`the quantile must be strictly between 0 and 1; got ${p}`);
  if (!(confidence > 0 && confidence < 1)) throw new Error(`the confidence must be strictly between 0 and 1; got ${confidence}`);
  const count = values.length;
  if (count === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN, count };
  const sorted = [...values].sort((a, b) => a - b);
  const alpha = 1 - confidence;
  const lowRank = binomialQuantile(alpha / 2, count, p);
  const highRank = binomialQuantile(1 - alpha / 2, count, p) + 1;
  return {
    value: sorted[Math.min(count - 1, Math.floor(p * count))] as number,
    low: lowRank >= 1 ? (sorted[lowRank - 1] as number) : Number.NEGATIVE_INFINITY,
    high: highRank <= count ? (sorted[highRank - 1] as number) : Number.POSITIVE_INFINITY,
    count,
  };
}

/** `up`: drift beyond the margin; `down`: lower or faster beyond it (not a regression); `flat`: neither shown. */
export type Reading = 'up' | 'down' | 'flat';

/** A later window against the first: its ratio, the ratio's interval (equal to the ratio for a level) and the reading. */
export interface Judged {
  ratio: number;
  low: number;
  high: number;
  reading: Reading;
}

const ratioOf = (later: number, first: number) => (first === 0 ? (later === 0 ? 1 : Number.POSITIVE_INFINITY) : later / first);

/**
 * A level (MB, a count) against the first window's: `up` when the ratio is above 1 + within, `down`
 * when below 1 − within. NaN in, NaN ratio and `flat` out (the caller prints '-').
 */
export function judgeLevel(first: number, later: number, within = FLAT_WITHIN): Judged {
  const ratio = ratioOf(later, first);
  return { ratio, low: ratio, high: ratio, reading: ratio > 1 + within ? 'up' : ratio < 1 - within ? 'down' : 'flat' };
}

/**
 * A latency quantile against the first window's (see the module comment): the ratio of the point
 * values, and its interval [later.low ÷ first.high, later.high ÷ first.low] (an unbounded or
 * non-positive end reads as 0 below, +Infinity above: what a window cannot resolve is never
 * flagged); `up` only when the interval's low is above 1 + within, `down` only when its high is
 * below 1 − within.
 */
export function judgeQuantile(first: QuantileEstimate, later: QuantileEstimate, within = FLAT_WITHIN): Judged {
  const ratio = ratioOf(later.value, first.value);
  const low = later.low > 0 && Number.isFinite(later.low) && first.high > 0 ? later.low / first.high : 0;
  const high = later.high > 0 && Number.isFinite(later.high) && first.low > 0 && Number.isFinite(first.low) ? later.high / first.low : Number.POSITIVE_INFINITY;
  if (Number.isNaN(ratio)) return { ratio, low: Number.NaN, high: Number.NaN, reading: 'flat' };
  return { ratio, low, high, reading: low > 1 + within ? 'up' : high < 1 - within ? 'down' : 'flat' };
}
