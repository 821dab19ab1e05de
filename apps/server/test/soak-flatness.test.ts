/**
 * The soak's flatness rule (bench/soak-flatness.ts, docs/decisions/152): a quantile's order-statistic
 * interval holds the true quantile as often as it says, and a window is flagged only for an upward
 * drift its interval shows, never for a lower or faster reading.
 */
import { expect, test } from 'vitest';
import { judgeLevel, judgeQuantile, quantileWithInterval } from '../bench/soak-flatness.ts';

/** A seeded uniform generator in [0, 1) (mulberry32), so that every run draws the same windows. */
function uniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `count` latencies (ms) drawn from an exponential distribution of mean `meanMs`: a long tail, as a door's are. */
function exponentialWindow(count: number, meanMs: number, next: () => number): number[] {
  return Array.from({ length: count }, () => -meanMs * Math.log(1 - next()));
}

/** About a 5-minute soak window's requests (verify's alone are about 5,400). */
const WINDOW = 6_260;
/** 1 … WINDOW: each value is its own rank, so the interval's ends read as ranks. */
const RANKS = Array.from({ length: WINDOW }, (_, index) => index + 1);

test('a p99 interval spans the order statistics the binomial distribution gives, about ±1.96 standard deviations around 0.99·n', () => {
  const estimate = quantileWithInterval(RANKS, 0.99);
  // The normal approximation to Binomial(6260, 0.99): 6197.4 ± 1.96 × 7.87 = 6182.0 … 6212.8.
  const center = 0.99 * WINDOW;
  const spread = 1.96 * Math.sqrt(WINDOW * 0.99 * 0.01);
  expect(estimate.value).toBe(6198);
  expect(Math.abs(estimate.low - (center - spread))).toBeLessThanOrEqual(1.5);
  expect(Math.abs(estimate.high - (center + spread + 1))).toBeLessThanOrEqual(1.5);
  expect(estimate.count).toBe(WINDOW);
});

test('a 95 % interval holds the true p99 in about 95 % of windows', () => {
  const next = uniform(27);
  const meanMs = 10;
  const trueP99 = -meanMs * Math.log(0.01);
  const windows = 400;
  let held = 0;
  for (let index = 0; index < windows; index++) {
    const estimate = quantileWithInterval(exponentialWindow(2_000, meanMs, next), 0.99);
    if (estimate.low <= trueP99 && trueP99 <= estimate.high) held += 1;
  }
  // Binomial(400, 0.95) lies in 364…393 with probability above 99.9 %; the seed makes it one fixed draw.
  expect(held / windows).toBeGreaterThanOrEqual(0.91);
  expect(held / windows).toBeLessThanOrEqual(0.985);
});

test('a window too small to bound its p99 from above leaves that end open', () => {
  const estimate = quantileWithInterval(RANKS.slice(0, 100), 0.99);
  expect(estimate.high).toBe(Number.POSITIVE_INFINITY);
  expect(Number.isFinite(estimate.low)).toBe(true);
  expect(quantileWithInterval([], 0.99).value).toBeNaN();
});

test('a p99 whose whole interval is more than 10 % above the first window is flagged as drift', () => {
  const first = quantileWithInterval(RANKS, 0.99);
  const slower = quantileWithInterval(
    RANKS.map((value) => value * 1.3),
    0.99,
  );
  const judged = judgeQuantile(first, slower);
  expect(judged.ratio).toBeCloseTo(1.3, 5);
  expect(judged.low).toBeGreaterThan(1.1);
  expect(judged.reading).toBe('up');
});

test('a p99 read 15 % higher in one window is not flagged while its interval reaches back within 10 %', () => {
  const first = quantileWithInterval(RANKS, 0.99);
  // Only the window's largest 70 values are slower: the point p99 (the 63rd largest) moves, the interval's low end (the 79th) does not.
  const tailOnly = quantileWithInterval(
    RANKS.map((value, index) => (index >= WINDOW - 70 ? value * 1.15 : value)),
    0.99,
  );
  const judged = judgeQuantile(first, tailOnly);
  expect(judged.ratio).toBeGreaterThan(1.1);
  expect(judged.low).toBeLessThanOrEqual(1.1);
  expect(judged.reading).toBe('flat');
});

test('windows drawn from the same distribution are almost never flagged, a 30 % slower one almost always', () => {
  const next = uniform(124);
  const pairs = 60;
  let falseDrifts = 0;
  let caught = 0;
  for (let index = 0; index < pairs; index++) {
    const first = quantileWithInterval(exponentialWindow(WINDOW, 10, next), 0.99);
    if (judgeQuantile(first, quantileWithInterval(exponentialWindow(WINDOW, 10, next), 0.99)).reading === 'up') falseDrifts += 1;
    if (judgeQuantile(first, quantileWithInterval(exponentialWindow(WINDOW, 13, next), 0.99)).reading === 'up') caught += 1;
  }
  expect(falseDrifts).toBeLessThanOrEqual(1);
  expect(caught).toBeGreaterThanOrEqual(pairs * 0.8);
});

test('a faster p99 is read as faster, never as drift', () => {
  const first = quantileWithInterval(RANKS, 0.99);
  const faster = judgeQuantile(
    first,
    quantileWithInterval(
      RANKS.map((value) => value * 0.7),
      0.99,
    ),
  );
  expect(faster.reading).toBe('down');
  expect(faster.high).toBeLessThan(0.9);
});

test('a level more than 10 % above the first window is drift, more than 10 % below is lower, within is flat', () => {
  expect(judgeLevel(139.5, 160.4).reading).toBe('up');
  expect(judgeLevel(139.5, 150).reading).toBe('flat');
  expect(judgeLevel(20, 14).reading).toBe('down');
  expect(judgeLevel(0, 0)).toMatchObject({ ratio: 1, reading: 'flat' });
  expect(judgeLevel(0, 3).reading).toBe('up');
});
