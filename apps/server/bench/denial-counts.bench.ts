/**
 * What keeping the live door's denials by reason costs a scan-log write (docs/decisions/149): the
 * same writes with the variants swapped in the database, taking turns so that the shared machine's
 * load falls on each alike.
 *
 * - `index`: main before decision 149: no trigger on scan_log, the partial index
 *   `scan_log_denials_idx` (event, day, reason) WHERE verdict = 'denied' that the old GROUP BY read;
 * - `kept-1`: the triggers of `*_denial_counts_triggers.sql` with every addition on shard 0 (one
 *   counter row per event, day and reason), no partial index;
 * - `kept-16`: the same with 16 shards (backend pid % 16);
 * - `kept-64`: the triggers as migrated (the writing connection's shard, backend pid % 64);
 * - `kept-1024`: 1,024 shards (backend pid % 1024: nearly no two connections share one).
 *
 * Sequential (one connection): per variant and round, 1,000 single-row denials ('already_checked_in'
 * of one event and day, the hot row), 1,000 single-row approvals (the trigger runs and finds no
 * denial) and 100 statements of 20 denials of four reasons (a coalesced batch), each one
 * autocommitted statement as verify's scan-log write. With DATABASE_URL (PostgreSQL) also
 * concurrent: BENCH_DENIALS_CONNECTIONS (default 50) connections each sending
 * BENCH_DENIALS_PER_CONNECTION (default 40) single-row denials of that one reason at once.
 *
 * Then the read, once: the live door's old GROUP BY over the day's denied rows (partial index)
 * against the kept counts, at BENCH_DENIALS_READ (default 12,900) denied scans of the day.
 *
 * Run: `npx tsx bench/denial-counts.bench.ts` in apps/server (embedded PGlite, not durable), or
 * `npx tsx ../../scripts/with-postgres.ts --durable -- npx tsx bench/denial-counts.bench.ts` for a
 * PostgreSQL that flushes at commit, as production does (a counter row is held to the commit's
 * flush: what makes a hot row cost). BENCH_DENIALS_ROUNDS (default 2).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { createBenchEvent, createBenchOrganization } from '../test/helpers/bulk-load.ts';

const ROUNDS = Number(process.env.BENCH_DENIALS_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_DENIALS_CONNECTIONS ?? 50);
const PER_CONNECTION = Number(process.env.BENCH_DENIALS_PER_CONNECTION ?? 40);
const SINGLES = 1_000;
const READ_DENIALS = Number(process.env.BENCH_DENIALS_READ ?? 12_900);
const BATCHES = 100;
const BATCH_SIZE = 20;
/** The variants of BENCH_DENIALS_VARIANTS (comma-separated), default all. */
const ALL_VARIANTS = ['index', 'kept-1', 'kept-16', 'kept-64', 'kept-1024'] as const;
type Variant = (typeof ALL_VARIANTS)[number];
const VARIANTS = ALL_VARIANTS.filter((variant) => (process.env.BENCH_DENIALS_VARIANTS?.split(',') ?? ALL_VARIANTS).includes(variant));

/** The migration's function and trigger statements, in its order. */
async function triggerStatements(): Promise<string[]> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const tag = journal.entries.find((entry) => entry.tag.endsWith('_denial_counts_triggers'))?.tag;
  if (!tag) throw new Error('no migration *_denial_counts_triggers.sql');
  const text = await readFile(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8');
  return text
    .split('--> statement-breakpoint')
    .filter((statement) => /CREATE (FUNCTION|TRIGGER)/.test(statement))
    .map((statement) => statement.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
}

async function useVariant(handle: DatabaseHandle, variant: Variant, statements: string[]): Promise<void> {
  for (const name of ['denial_counts_insert', 'denial_counts_update', 'denial_counts_delete', 'denial_counts_truncate']) {
    await handle.db.execute(sql.raw(`DROP TRIGGER IF EXISTS ${name} ON scan_log`));
  }
  await handle.db.execute(sql`DROP INDEX IF EXISTS scan_log_denials_idx`);
  if (variant === 'index') {
    await handle.db.execute(sql`CREATE INDEX scan_log_denials_idx ON scan_log USING btree (event_id, day, reason) WHERE verdict = 'denied'`);
    return;
  }
  for (const statement of statements) {
    const shard = { 'kept-1': '0::smallint', 'kept-16': '(pg_backend_pid() % 16)::smallint', 'kept-64': '(pg_backend_pid() % 64)::smallint', 'kept-1024': '(pg_backend_pid() % 1024)::smallint' }[variant];
    const text = statement.replaceAll('(pg_backend_pid() % 64)::smallint', shard);
    if (statement.includes('pg_backend_pid()') && !statement.includes('(pg_backend_pid() % 64)::smallint')) throw new Error('the trigger changed: cannot set its shards');
    await handle.db.execute(sql.raw(text));
  }
}

const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? 0;
const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / Math.max(1, values.length);
const load1 = () => loadavg()[0]?.toFixed(1) ?? '?';
const us = (ms: number) => (ms * 1000).toFixed(0);

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(tmpdir(), 'gatecheck-denial-counts-'));
  const handle = databaseUrl ? await openDatabase({ databaseUrl, poolSize: 1 }) : await openDatabase({ pgliteDir: path.join(dataDir ?? '', 'pgdata'), isDurable: false });
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS }) : undefined;
  try {
    const statements = await triggerStatements();
    const organization = await createBenchOrganization(handle);
    const eventId = await createBenchEvent(handle, organization.organizationId, 'Denial Bench');
    const userId = organization.adminUserId;
    const insert = (verdict: string, reason: string | null, rows = 1) =>
      sql`insert into scan_log (user_id, event_id, day, code, verdict, reason, source)
          select ${userId}::uuid, ${eventId}::uuid, 1, 'CODE-' || n, ${verdict}::scan_verdict, ${reason}, 'scan' from generate_series(1, ${rows}::int) as n`;
    const batch = sql`insert into scan_log (user_id, event_id, day, code, verdict, reason, source)
          select ${userId}::uuid, ${eventId}::uuid, 1, 'CODE-' || n, 'denied', (array['already_checked_in', 'not_found', 'revoked', 'not_on_list'])[1 + n % 4], 'scan'
          from generate_series(1, ${BATCH_SIZE}::int) as n`;
    console.log(`${databaseUrl ? 'PostgreSQL' : 'PGlite (not durable)'}, ${ROUNDS} rounds, load average ${load1()}`);
    console.log(`| round | variant | denial µs p50 / mean | approval µs p50 / mean | ${BATCH_SIZE} denials µs p50 / mean |${pool ? ` ${CONNECTIONS} × ${PER_CONNECTION} at once: denials/s, ms p50 / p99 |` : ''} load |`);
    console.log(`| --- | --- | --- | --- | --- |${pool ? ' --- |' : ''} --- |`);
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const variant of VARIANTS) {
        await handle.db.execute(sql`truncate scan_log`);
        await useVariant(handle, variant, statements);
        const time = async (count: number, statement: ReturnType<typeof sql>) => {
          const times: number[] = [];
          for (let index = 0; index < count; index += 1) {
            const start = performance.now();
            await handle.db.execute(statement);
            times.push(performance.now() - start);
          }
          return `${us(percentile(times, 0.5))} / ${us(mean(times))}`;
        };
        const denial = await time(SINGLES, insert('denied', 'already_checked_in'));
        const approval = await time(SINGLES, insert('approved', null));
        const batched = await time(BATCHES, batch);
        let concurrent = '';
        if (pool) {
          const text = `insert into scan_log (user_id, event_id, day, code, verdict, reason, source) values ($1, $2, 1, 'AT-ONCE', 'denied', 'already_checked_in', 'scan')`;
          const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => pool.connect()));
          const times: number[] = [];
          const start = performance.now();
          await Promise.all(
            clients.map(async (client) => {
              for (let index = 0; index < PER_CONNECTION; index += 1) {
                const sent = performance.now();
                await client.query(text, [userId, eventId]);
                times.push(performance.now() - sent);
              }
            }),
          );
          const seconds = (performance.now() - start) / 1000;
          for (const client of clients) client.release();
          concurrent = ` ${((CONNECTIONS * PER_CONNECTION) / seconds).toFixed(0)}, ${percentile(times, 0.5).toFixed(1)} / ${percentile(times, 0.99).toFixed(1)} |`;
        }
        // The kept variants must have counted every denial (the read sums the shards).
        if (variant !== 'index') {
          const [kept] = rowsOf<{ kept: number; logged: number }>(await handle.db.execute(sql`select coalesce(sum(denials), 0)::int as kept, (select count(*)::int from scan_log where verdict = 'denied') as logged from denial_counts`));
          if (kept?.kept !== kept?.logged) throw new Error(`${variant}: kept ${kept?.kept}, logged ${kept?.logged}`);
        }
        console.log(`| ${round} | ${variant} | ${denial} | ${approval} | ${batched} |${concurrent} ${load1()} |`);
      }
    }
    // The read the live door asks every 2 s per watching page: the old GROUP BY over the day's denied
    // rows (from the partial index) against the kept counts, at READ_DENIALS denied scans of the day.
    await handle.db.execute(sql`truncate scan_log`);
    await useVariant(handle, 'kept-64', statements);
    await handle.db.execute(sql`CREATE INDEX scan_log_denials_idx ON scan_log USING btree (event_id, day, reason) WHERE verdict = 'denied'`);
    for (let from = 0; from < READ_DENIALS; from += 1_000) {
      await handle.db.execute(sql`insert into scan_log (user_id, event_id, day, code, verdict, reason, source)
          select ${userId}::uuid, ${eventId}::uuid, 1, 'CODE-' || n, 'denied', (array['already_checked_in', 'already_checked_in', 'already_checked_in', 'not_found', 'revoked', 'not_on_list'])[1 + n % 6], 'scan'
          from generate_series(${from + 1}::int, ${Math.min(READ_DENIALS, from + 1_000)}::int) as n`);
    }
    await handle.db.execute(sql`analyze`);
    const old = sql`select coalesce(reason, 'unknown') as reason, count(*) from scan_log where event_id = ${eventId}::uuid and day = 1 and verdict = 'denied' group by 1 order by 2 desc, 1`;
    const kept = sql`select reason, sum(denials) from denial_counts where event_id = ${eventId}::uuid and day = 1 group by reason having sum(denials) > 0 order by 2 desc, reason`;
    const reads: Record<string, number[]> = { old: [], kept: [] };
    for (let index = 0; index < 200; index += 1) {
      for (const [name, statement] of [['old', old], ['kept', kept]] as const) {
        const start = performance.now();
        await handle.db.execute(statement);
        reads[name]?.push(performance.now() - start);
      }
    }
    const summary = (name: string) => `${percentile(reads[name] ?? [], 0.5).toFixed(2)} / ${percentile(reads[name] ?? [], 0.95).toFixed(2)}`;
    console.log(`\nThe live door's denials read at ${READ_DENIALS.toLocaleString('en')} denied scans of the day (ms p50 / p95, 200 each, load ${load1()}): GROUP BY over scan_log ${summary('old')}; denial_counts ${summary('kept')}`);
  } finally {
    await pool?.end();
    await handle.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
