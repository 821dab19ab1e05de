import { Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { formatTable, startProgress } from '../../src/cli/output.ts';

function collectingStream(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    }),
    { isTTY, columns: 100 },
  );
  return { stream, text: () => chunks.join('') };
}

test('the progress bar is drawn on a terminal with the count of items done', () => {
  const terminal = collectingStream(true);
  const progress = startProgress(terminal.stream, 'Importing tickets');
  progress.update(0, 40);
  progress.update(40, 40);
  progress.stop();
  expect(terminal.text()).toMatch(/Importing tickets \[#+\] 100% \| 40\/40/);
});

test('the progress bar stays silent when the output is not a terminal (a pipe or a log file)', () => {
  const pipe = collectingStream(false);
  const progress = startProgress(pipe.stream, 'Importing tickets');
  progress.update(0, 40);
  progress.update(40, 40);
  progress.stop();
  expect(pipe.text()).toBe('');
});

test('tables align their columns', () => {
  expect(formatTable([
    ['ID', 'NAME'],
    ['1', 'Northwind Live'],
    ['22', 'X'],
  ])).toBe('ID  NAME\n1   Northwind Live\n22  X');
});
