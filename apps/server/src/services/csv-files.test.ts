import { parse } from 'csv-parse/sync';
import { expect, test } from 'vitest';
import { csvText, csvWriter } from './csv-files.ts';

const FORMULAS = ['=1+1', '+1', '-1+1', '@SUM(A1)', '\t=1', '\r=1', '\uFF1D1', '\uFF0B1', '\uFF0D1', '\uFF201'];

test('csvText writes text that starts like a formula with a leading apostrophe, and leaves other text and numbers alone', () => {
  const text = csvText(['code', 'holder_name', 'count'], [...FORMULAS.map((formula) => [formula, 'Ann', 3]), ['A-1', 'Bo = Bo', -2]]);
  const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
  expect(rows.map((row) => row.code)).toEqual([...FORMULAS.map((formula) => `'${formula}`), 'A-1']);
  expect(rows.at(-1)).toEqual({ code: 'A-1', holder_name: 'Bo = Bo', count: '-2' });
});

test('csvWriter escapes formulas in every row it streams', async () => {
  const writer = csvWriter(['code']);
  const chunks: string[] = [];
  writer.on('data', (chunk: Buffer | string) => chunks.push(String(chunk)));
  const ended = new Promise((resolve) => writer.on('end', resolve));
  for (const formula of FORMULAS) writer.write([formula]);
  writer.end();
  await ended;
  expect((parse(chunks.join(''), { columns: true }) as Array<Record<string, string>>).map((row) => row.code)).toEqual(FORMULAS.map((formula) => `'${formula}`));
});
