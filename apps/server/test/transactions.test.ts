import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle, Tx } from '../src/db/client.ts';
import { rateLimits } from '../src/db/schema.ts';
import { inTransaction, sqlStateOf } from '../src/db/transactions.ts';
import { createTestDatabase, TEST_DATABASE_KIND } from './helpers/test-app.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Makes the database itself fail the transaction with `sqlState` (a real error through the driver). */
async function raise(tx: Tx, sqlState: string): Promise<void> {
  await tx.execute(sql.raw(`DO $$ BEGIN RAISE EXCEPTION 'injected failure' USING ERRCODE = '${sqlState}'; END $$`));
}

async function rowsOf(key: string): Promise<Array<{ points: number }>> {
  return database.db.select({ points: rateLimits.points }).from(rateLimits).where(eq(rateLimits.key, key));
}

test(`a transaction failing with 40001 twice is run again from the start and commits once (${TEST_DATABASE_KIND})`, async () => {
  let runs = 0;
  const retries: Array<{ attempt: number; sqlState: string }> = [];
  const result = await inTransaction(
    database.db,
    async (tx) => {
      runs += 1;
      // Written before the failure: a retry that kept it would collide on the primary key.
      await tx.insert(rateLimits).values({ key: 'retry-40001', points: runs });
      if (runs <= 2) await raise(tx, '40001');
      return 'committed';
    },
    { baseDelayMs: 1, onRetry: ({ attempt, sqlState }) => retries.push({ attempt, sqlState }) },
  );
  expect(result).toBe('committed');
  expect(runs).toBe(3);
  expect(retries).toEqual([
    { attempt: 1, sqlState: '40001' },
    { attempt: 2, sqlState: '40001' },
  ]);
  expect(await rowsOf('retry-40001')).toEqual([{ points: 3 }]);
});

test('a deadlock (40P01) is retried too', async () => {
  let runs = 0;
  await inTransaction(
    database.db,
    async (tx) => {
      runs += 1;
      await tx.insert(rateLimits).values({ key: 'retry-40P01', points: runs });
      if (runs === 1) await raise(tx, '40P01');
    },
    { baseDelayMs: 1 },
  );
  expect(runs).toBe(2);
  expect(await rowsOf('retry-40P01')).toEqual([{ points: 2 }]);
});

test('other errors are not retried: one run, the error as thrown, nothing written', async () => {
  let runs = 0;
  const failure = inTransaction(database.db, async (tx) => {
    runs += 1;
    await tx.insert(rateLimits).values({ key: 'no-retry', points: 1 });
    await raise(tx, '23505');
  });
  await expect(failure).rejects.toSatisfy((error: unknown) => sqlStateOf(error) === '23505');
  expect(runs).toBe(1);
  expect(await rowsOf('no-retry')).toEqual([]);

  let plainRuns = 0;
  await expect(
    inTransaction(database.db, async () => {
      plainRuns += 1;
      throw new Error('not a database error');
    }),
  ).rejects.toThrow('not a database error');
  expect(plainRuns).toBe(1);
});

test('after maxAttempts runs the last serialization failure is thrown and nothing is committed', async () => {
  let runs = 0;
  const failure = inTransaction(
    database.db,
    async (tx) => {
      runs += 1;
      await tx.insert(rateLimits).values({ key: 'gives-up', points: runs });
      await raise(tx, '40001');
    },
    { maxAttempts: 3, baseDelayMs: 1 },
  );
  await expect(failure).rejects.toSatisfy((error: unknown) => sqlStateOf(error) === '40001');
  expect(runs).toBe(3);
  const [total] = await database.db.select({ value: count() }).from(rateLimits).where(eq(rateLimits.key, 'gives-up'));
  expect(total?.value).toBe(0);
});

test('sqlStateOf finds the code on the error or on a cause, and nothing else', () => {
  expect(sqlStateOf(Object.assign(new Error('x'), { code: '40001' }))).toBe('40001');
  expect(sqlStateOf(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '40P01' }) }))).toBe('40P01');
  expect(sqlStateOf(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
  expect(sqlStateOf('40001')).toBeUndefined();
});
