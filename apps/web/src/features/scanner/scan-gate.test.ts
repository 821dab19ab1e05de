import { expect, test } from 'vitest';
import { CONTINUOUS_RESUME_DELAY_MS, REPEAT_CODE_WINDOW_MS } from '@/config/constants.ts';
import { emptyScanGate, passCode, resumeAt, type ScanGate } from './scan-gate.ts';

/** Feeds sightings `[code, atMs, canTake]` through the gate; returns the codes taken. */
function run(sightings: Array<[string, number, boolean?]>): string[] {
  let gate: ScanGate = emptyScanGate;
  const taken: string[] = [];
  for (const [code, at, canTake = true] of sightings) {
    const result = passCode(gate, code, at, canTake);
    gate = result.gate;
    if (result.isTaken) taken.push(code);
  }
  return taken;
}

test('the issue 10 constants: 3 s repeat window, 1.5 s resume delay', () => {
  expect(REPEAT_CODE_WINDOW_MS).toBe(3_000);
  expect(CONTINUOUS_RESUME_DELAY_MS).toBe(1_500);
  expect(resumeAt(10_000)).toBe(11_500);
});

test('a code is taken the first time it is seen', () => {
  expect(run([['GC-1', 0]])).toEqual(['GC-1']);
});

test('the same code seen again within 3 s is ignored; after 3 s unseen it is taken again', () => {
  expect(run([['GC-1', 0], ['GC-1', 2_999]])).toEqual(['GC-1']);
  expect(run([['GC-1', 0], ['GC-1', 3_000]])).toEqual(['GC-1', 'GC-1']);
});

test('a code held in view (seen every 500 ms) is taken once, however long it is held', () => {
  const frames = Array.from({ length: 40 }, (_, index): [string, number] => ['GC-1', index * 500]);
  expect(run(frames)).toEqual(['GC-1']);
});

test('ten different codes one after another are each taken once', () => {
  const codes = Array.from({ length: 10 }, (_, index) => `GC-${index}`);
  // Each held for two frames, 2.5 s apart.
  const sightings = codes.flatMap((code, index): Array<[string, number]> => [
    [code, index * 2_500],
    [code, index * 2_500 + 500],
  ]);
  expect(run(sightings)).toEqual(codes);
});

test('a code turned away while the scanner cannot take it is not remembered: it is taken once the scanner can', () => {
  expect(run([['GC-1', 0, false], ['GC-1', 500, false], ['GC-1', 1_000, true]])).toEqual(['GC-1']);
});

test('a repeat keeps its window open even while the scanner cannot take codes', () => {
  // Taken at 0, seen at 2 s while busy (refreshes), seen at 4.5 s: still within 3 s of the last sighting.
  expect(run([['GC-1', 0], ['GC-1', 2_000, false], ['GC-1', 4_500]])).toEqual(['GC-1']);
});

test('another code is not blocked by a repeat window', () => {
  expect(run([['GC-1', 0], ['GC-2', 100], ['GC-1', 200]])).toEqual(['GC-1', 'GC-2']);
});

test('the gate forgets codes not seen for 3 s', () => {
  const first = passCode(emptyScanGate, 'GC-1', 0, true);
  const later = passCode(first.gate, 'GC-2', 5_000, true);
  expect([...later.gate.lastSeenAt.keys()]).toEqual(['GC-2']);
});
