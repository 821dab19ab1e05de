/**
 * Terminal output helpers: aligned tables and a progress bar (cli-progress) that is drawn only on a
 * terminal, so piped output and logs stay clean.
 */
import { SingleBar } from 'cli-progress';
import type { OutputStream } from './context.ts';

/** Rows as left-aligned columns separated by two spaces; the first row is the header. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  ')).join('\n');
}

/** A progress display; `update(done, total)` counts items, `stop()` ends the line. */
export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A progress bar labelled `label` on `stream` when it is a terminal; otherwise it does nothing. */
export function startProgress(stream: OutputStream, label: string): Progress {
  if (!stream.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream,
    format: `${label} [{bar}] {percentage}% | {value}/{total}`,
    barCompleteChar: '#',
    barIncompleteChar: '-',
    hideCursor: true,
  });
  let isStarted = false;
  return {
    update: (done, total) => {
      if (!isStarted) {
        bar.start(total, done);
        isStarted = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop: () => {
      if (isStarted) bar.stop();
    },
  };
}
