/**
 * The rate-limit counters' store (docs/decisions/040): rows in `rate_limits`, counted atomically by
 * RateLimiterDrizzle, and long-expired rows deleted by `deleteExpiredLimits`.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import { rateLimits } from '../src/db/schema.ts';
import { RateLimitedError } from '../src/services/errors.ts';
import { databaseLimiters, deleteExpiredLimits, EXPIRED_LIMIT_GRACE_MS, RequestLimit } from '../src/services/rate-limits.ts';
import { createTestDatabase, TEST_DATABASE_KIND } from './helpers/test-app.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

test(`20 requests at once against a limit of 5 through two limiters on one database: exactly 5 pass (${TEST_DATABASE_KIND})`, async () => {
  // Two limiters, as two server instances would have, on one table.
  const options = { keyPrefix: 'store-test', points: 5, durationSeconds: 60 };
  const limits = [new RequestLimit(options, databaseLimiters(database.db)), new RequestLimit(options, databaseLimiters(database.db))];
  const results = await Promise.allSettled(Array.from({ length: 20 }, (_, n) => limits[n % 2]?.consume('10.1.1.1')));
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
  const refused = results.filter((result) => result.status === 'rejected');
  expect(refused).toHaveLength(15);
  for (const result of refused) expect(result.reason).toBeInstanceOf(RateLimitedError);
  const [row] = await database.db.select().from(rateLimits).where(eq(rateLimits.key, 'store-test:10.1.1.1'));
  expect(row?.points).toBe(20);
});

test('deleteExpiredLimits removes rows an hour past their window, and keeps the rest', async () => {
  const now = new Date('2026-11-23T12:00:00Z');
  await database.db.insert(rateLimits).values([
    { key: 'old', points: 3, expire: new Date(now.getTime() - EXPIRED_LIMIT_GRACE_MS - 1000) },
    { key: 'recent', points: 3, expire: new Date(now.getTime() - 1000) },
    { key: 'live', points: 1, expire: new Date(now.getTime() + 60_000) },
    { key: 'forever', points: 1, expire: null },
  ]);
  expect(await deleteExpiredLimits(database.db, now)).toBe(1);
  const keys = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key);
  expect(keys).not.toContain('old');
  expect(keys).toEqual(expect.arrayContaining(['recent', 'live', 'forever']));
});
