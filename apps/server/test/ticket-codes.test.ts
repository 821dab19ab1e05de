import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import type { DatabaseHandle } from '../src/db/client.ts';
import { tickets } from '../src/db/schema.ts';
import { ticketCodeMatches } from '../src/services/ticket-codes.ts';
import { createTestDatabase } from './helpers/test-app.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

test('the case-insensitive code look-up can use the unique index on upper(code)', async () => {
  const plan = await database.db.transaction(async (tx) => {
    // With sequential scans ruled out, the planner shows whether the index serves this condition.
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = await tx.execute(sql`explain select ${tickets.id} from ${tickets} where ${ticketCodeMatches('abc-12')}`);
    return JSON.stringify(z.object({ rows: z.array(z.unknown()) }).parse(result).rows);
  });
  expect(plan).toContain('tickets_code_upper_key');
});
