/**
 * `npm run bench:decode`: decode rate and time per decode of our QR decoder (zxing-wasm, through
 * the app's `QrDecoder` interface) and of jsQR as the reference, side by side in one run over the
 * ZXing blackbox set at 0/90/180/270° (716 decodes). Exits 1 when our decoder passes fewer than
 * 656 (issue #2). Set QR_BLACKBOX_DIR to use another copy of the set.
 */
import { performance } from 'node:perf_hooks';
import { createNodeQrDecoder } from '../src/lib/qr/node-qr-decoder.ts';
import type { QrDecoder } from '../src/lib/qr/qr-decoder.ts';
import { blackboxDir, loadBlackbox, ROTATIONS, rotateImage, type Rotation } from './blackbox.ts';
import { createJsqrDecoder } from './jsqr-decoder.ts';

/** Issue #2: the chosen decoder must pass at least this many of the 716 decodes. */
const REQUIRED_PASSES = 656;

interface Contender {
  name: string;
  decoder: QrDecoder;
  passedByRotation: Map<Rotation, number>;
  durationsMs: number[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function total(contender: Contender): number {
  return [...contender.passedByRotation.values()].reduce((sum, count) => sum + count, 0);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

const dir = blackboxDir();
const cases = loadBlackbox(dir);
const decodeCount = cases.length * ROTATIONS.length;
const contenders: Contender[] = [
  { name: 'zxing-wasm (ours)', decoder: await createNodeQrDecoder(), passedByRotation: new Map(), durationsMs: [] },
  { name: 'jsQR 1.4.0 (reference)', decoder: createJsqrDecoder(), passedByRotation: new Map(), durationsMs: [] },
];

console.log(`QR blackbox: ${cases.length} images × ${ROTATIONS.length} rotations = ${decodeCount} decodes (${dir})\n`);
for (const testCase of cases) {
  for (const rotation of ROTATIONS) {
    const image = rotateImage(testCase.image, rotation);
    for (const contender of contenders) {
      const startedAt = performance.now();
      const text = await contender.decoder.decode(image);
      contender.durationsMs.push(performance.now() - startedAt);
      const passed = text === testCase.expected ? 1 : 0;
      contender.passedByRotation.set(rotation, (contender.passedByRotation.get(rotation) ?? 0) + passed);
    }
  }
}

const [ours, reference] = contenders;
if (!ours || !reference) throw new Error('unreachable: two contenders');
printTable(
  ['decoder', 'passed', ...ROTATIONS.map((rotation) => `${rotation}°`), 'median ms/decode', 'pass ratio vs jsQR', 'speed vs jsQR (× faster)'],
  contenders.map((contender) => [
    contender.name,
    `${total(contender)}/${decodeCount}`,
    ...ROTATIONS.map((rotation) => String(contender.passedByRotation.get(rotation) ?? 0)),
    median(contender.durationsMs).toFixed(2),
    (total(contender) / total(reference)).toFixed(2) + '×',
    (median(reference.durationsMs) / median(contender.durationsMs)).toFixed(1) + '×',
  ]),
);

const oursPassed = total(ours);
if (oursPassed < REQUIRED_PASSES) {
  console.error(`\nFAIL: ${ours.name} passed ${oursPassed}/${decodeCount}, fewer than the required ${REQUIRED_PASSES}.`);
  process.exitCode = 1;
} else {
  console.log(`\nOK: ${ours.name} passed ${oursPassed}/${decodeCount} (required ≥ ${REQUIRED_PASSES}).`);
}
// The headline for `npm run bench` (scripts/bench.ts).
console.log(
  `BENCH_RESULT ${JSON.stringify({
    name: 'bench:decode',
    figure: `zxing-wasm ${oursPassed}/${decodeCount} decoded, median ${median(ours.durationsMs).toFixed(2)} ms/decode`,
    ratio: `${(oursPassed / total(reference)).toFixed(2)}× jsQR's passes, ${(median(reference.durationsMs) / median(ours.durationsMs)).toFixed(1)}× its speed`,
  })}`,
);
