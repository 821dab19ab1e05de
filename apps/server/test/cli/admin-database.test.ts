/**
 * `db vacuum` on a real database (PGlite, and PostgreSQL in the server-pg project): the space of
 * deleted rows goes back with --full, and the command says what it did.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, like, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { tickets } from '../../src/db/schema.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { createCliFixture, idIn, type CliFixture } from './cli-harness.ts';

let cli: CliFixture;
let eventId: string;

beforeAll(async () => {
  cli = await createCliFixture();
  await cli.ok('org', 'create', '--name', 'Upkeep Events');
  eventId = idIn(await cli.ok('event', 'create', '--org', 'Upkeep Events', '--title', 'Vacuum Fair', '--date', '2026-12-01', '--status', 'live'));
}, 60_000);
afterAll(async () => {
  await cli.close();
});

/** What `db vacuum` printed as the database's size, in MB: before and after. */
function sizesIn(output: string): { before: number; after: number } {
  const match = /Database size: ([\d.,]+) MB before, ([\d.,]+) MB after\./.exec(output);
  if (!match?.[1] || !match[2]) throw new Error(`no sizes in: ${output}`);
  return { before: Number(match[1].replaceAll(',', '')), after: Number(match[2].replaceAll(',', '')) };
}

/** How many times `tickets` has been vacuumed by hand (`pg_stat_user_tables`). */
async function ticketVacuums(): Promise<number> {
  const [row] = rowsOf<{ count: number }>(await cli.database.db.execute(sql`select vacuum_count::int as count from pg_stat_user_tables where relname = 'tickets'`));
  return Number(row?.count ?? Number.NaN);
}

test('db vacuum (without --full) vacuums and analyzes the tables, and the data stays', async () => {
  await writeFile(path.join(cli.dir, 'few.csv'), 'code,holder_name,ticket_type,days\nKEEP-1,Kept Holder,VIP,all\n');
  await cli.ok('tickets', 'import', '--event', eventId, 'few.csv');
  const vacuumsBefore = await ticketVacuums();
  const output = await cli.ok('db', 'vacuum');
  expect(output).toMatch(/^Vacuumed and analyzed the tables in [\d.]+ sec\.?/m);
  expect(sizesIn(output).after).toBeGreaterThan(0);
  expect(await ticketVacuums()).toBe(vacuumsBefore + 1);
  const kept = await cli.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(kept.map((ticket) => ticket.code)).toEqual(['KEEP-1']);
});

test('db vacuum --full gives the space of deleted tickets back to the disk, where a plain VACUUM cannot, and says so', { timeout: 60_000 }, async () => {
  // 20,000 tickets imported, then all deleted but the last: its row, at the end of the table, keeps a
  // plain VACUUM from cutting the table short; only VACUUM FULL gives the dead rows' space back.
  const rows = Array.from({ length: 20_000 }, (_, index) => `VAC-${String(index).padStart(6, '0')},Holder number ${index} with a longish name,General Admission,all`);
  await writeFile(path.join(cli.dir, 'many.csv'), `code,holder_name,ticket_type,days\n${rows.join('\n')}\n`);
  await cli.ok('tickets', 'import', '--event', eventId, 'many.csv');
  await cli.database.db.delete(tickets).where(and(eq(tickets.eventId, eventId), like(tickets.code, 'VAC-%'), ne(tickets.code, 'VAC-019999')));

  const plain = sizesIn(await cli.ok('db', 'vacuum'));
  const output = await cli.ok('db', 'vacuum', '--full');
  expect(output).toMatch(/^Rewrote and analyzed the tables \(VACUUM FULL\) in [\d.]+ sec\.?/m);
  const full = sizesIn(output);
  // The deleted tickets, their search terms and their indexes were several MB of the database.
  expect(plain.before - plain.after).toBeLessThan(1);
  expect(full.before - full.after).toBeGreaterThan(2);
  const left = await cli.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, eventId)).orderBy(tickets.code);
  expect(left.map((ticket) => ticket.code)).toEqual(['KEEP-1', 'VAC-019999']);
});

test('db vacuum --help tells an operator when to run it', async () => {
  const { stdout, exitCode } = await cli.run('db', 'vacuum', '--help');
  expect(exitCode).toBe(0);
  expect(stdout).toContain('The embedded database has no autovacuum');
  expect(stdout).toContain('--full');
});
