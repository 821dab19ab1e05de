import { expect, test } from 'vitest';
import { perDatabase } from './prepared.ts';

test('a statement is built once per database object and reused, a separate one for another object', () => {
  const built: object[] = [];
  const statementOf = perDatabase((db: object) => {
    built.push(db);
    return { db, number: built.length };
  });
  const first = {};
  const second = {};
  expect(statementOf(first)).toEqual({ db: first, number: 1 });
  expect(statementOf(first)).toBe(statementOf(first));
  expect(statementOf(second)).toEqual({ db: second, number: 2 });
  expect(built).toEqual([first, second]);
});
