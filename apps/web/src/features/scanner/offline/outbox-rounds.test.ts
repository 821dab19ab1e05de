import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createOutboxRounds, type RoundOutcome } from './outbox-rounds.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A round that answers the outcomes given, one per call (then "not failed"), and counts its calls. */
function scriptedRound(...outcomes: Array<RoundOutcome | Error>) {
  const calls: number[] = [];
  const round = async (): Promise<RoundOutcome> => {
    calls.push(Date.now());
    const next = outcomes.shift() ?? { failed: false };
    if (next instanceof Error) throw next;
    return next;
  };
  return { round, calls };
}

/** A round that waits until the test settles it (`finish`), counting its calls (`calls()`). */
function heldRound() {
  let settle: (outcome: RoundOutcome) => void = () => undefined;
  let calls = 0;
  const round = () => {
    calls += 1;
    return new Promise<RoundOutcome>((resolve) => (settle = resolve));
  };
  return { round, finish: (outcome: RoundOutcome) => settle(outcome), calls: () => calls };
}

test('after failed rounds the next waits 1 s, 2 s, 4 s (a throw counts as a failure), and a success resets the wait', async () => {
  const { round, calls } = scriptedRound({ failed: true }, new Error('IndexedDB'), { failed: true }, { failed: false }, { failed: true });
  const rounds = createOutboxRounds(round);
  const start = Date.now();
  await rounds.run();
  await vi.advanceTimersByTimeAsync(999);
  expect(calls).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toHaveLength(2);
  await vi.advanceTimersByTimeAsync(2_000);
  expect(calls).toHaveLength(3);
  await vi.advanceTimersByTimeAsync(4_000);
  expect(calls.map((at) => at - start)).toEqual([0, 1_000, 3_000, 7_000]);
  // The fourth succeeded: nothing more on its own (no idle interval) until asked.
  await vi.advanceTimersByTimeAsync(60_000);
  expect(calls).toHaveLength(4);
  await rounds.run();
  expect(calls).toHaveLength(5);
  // A failure after a success waits 1 s again.
  await vi.advanceTimersByTimeAsync(1_000);
  expect(calls).toHaveLength(6);
});

test('the wait is capped at 30 s', async () => {
  const { round, calls } = scriptedRound(...Array.from({ length: 8 }, () => ({ failed: true })));
  const rounds = createOutboxRounds(round);
  await rounds.run();
  await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 8_000 + 16_000 + 30_000 + 30_000);
  expect(calls.slice(1).map((at, index) => at - (calls[index] ?? 0))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  rounds.stop();
});

test('with whenIdleMs a round that did not fail is followed by another that much later', async () => {
  const { round, calls } = scriptedRound();
  const rounds = createOutboxRounds(round, { whenIdleMs: 30_000 });
  await rounds.run();
  await vi.advanceTimersByTimeAsync(29_999);
  expect(calls).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toHaveLength(2);
  rounds.stop();
});

test('one round at a time: runs asked for while one is under way make one more round after it; a run drops the waiting timer', async () => {
  const { round, finish, calls } = heldRound();
  const rounds = createOutboxRounds(round);
  const first = rounds.run();
  await rounds.run();
  await rounds.run();
  expect(calls()).toBe(1);
  // It succeeds: the runs asked for meanwhile make one round more, at once.
  finish({ failed: false });
  await first;
  await vi.waitFor(() => expect(calls()).toBe(2));
  // That one fails: asked again before the 1 s retry, it runs now, and the timer runs no other at 1 s.
  finish({ failed: true });
  await vi.advanceTimersByTimeAsync(0);
  const third = rounds.run();
  expect(calls()).toBe(3);
  finish({ failed: false });
  await third;
  await vi.advanceTimersByTimeAsync(5_000);
  expect(calls()).toBe(3);
});

test('after a failed round, runs asked for during it wait for the backoff rather than hammering the server', async () => {
  const { round, finish, calls } = heldRound();
  const rounds = createOutboxRounds(round);
  const first = rounds.run();
  await rounds.run();
  finish({ failed: true });
  await first;
  await vi.advanceTimersByTimeAsync(999);
  expect(calls()).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls()).toBe(2);
  rounds.stop();
});

test('after stop nothing runs: not on its timer, not when asked; a round under way finishes without scheduling', async () => {
  const { round, finish, calls } = heldRound();
  const rounds = createOutboxRounds(round, { whenIdleMs: 1_000 });
  const underWay = rounds.run();
  rounds.stop();
  finish({ failed: true });
  await underWay;
  await vi.advanceTimersByTimeAsync(60_000);
  await rounds.run();
  expect(calls()).toBe(1);
});

test("a probe's answer (nudge) cuts short the backoff of a round that got no answer, runs one when none is due, and keeps the backoff of a round the server refused", async () => {
  const { round, calls } = scriptedRound({ failed: true, unanswered: true }, { failed: true, unanswered: false });
  const rounds = createOutboxRounds(round);
  // Nothing ran yet: the nudge runs a round (no answer: 1 s backoff due).
  rounds.nudge();
  await vi.advanceTimersByTimeAsync(0);
  expect(calls).toHaveLength(1);
  // The server answers a probe: the next round goes now, not in 1 s. It gets a 5xx (answered).
  rounds.nudge();
  await vi.advanceTimersByTimeAsync(0);
  expect(calls).toHaveLength(2);
  // Probes keep answering: the 2 s backoff of a refused round stands.
  rounds.nudge();
  await vi.advanceTimersByTimeAsync(1_999);
  expect(calls).toHaveLength(2);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toHaveLength(3);
  rounds.stop();
});
