/**
 * `npm run bench:search`: attendee search (issue 11, docs/decisions/038) at 1,000,000 tickets
 * against the same searches at 1,000 tickets, in the same database and the same run, printed as
 * ratios (the machine is shared: only ratios from one run compare). An indexed prefix search
 * stays near 1x; a scan of the event's tickets would be about 1,000x.
 *
 * The database: embedded PGlite in a temp folder (durability off: loading is not measured), or the
 * PostgreSQL server at DATABASE_URL (a database of its own, dropped at the end). Tickets and their
 * search terms are bulk-loaded set-wise by ./bulk-load.ts, not one by one; holder names are ASCII,
 * for which the terms SQL writes equal `searchTermsOf`'s (checked on a sample before measuring).
 *
 * Each search runs WARMUP times unrecorded, then RUNS times on the small and the large event
 * alternately; the median and p95 (ms) are printed per search and event, with large / small.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { events, organizations, tickets } from '../src/db/schema.ts';
import { searchAttendees } from '../src/services/attendee-search.ts';
import { type EventDetails, findEvent } from '../src/services/events.ts';
import { createPostgresTestDatabase } from '../test/helpers/test-app.ts';
import { benchNames, bulkLoadTickets, checkTermsMatchTheServer } from '../test/helpers/bulk-load.ts';

const LARGE = Number(process.env.BENCH_SEARCH_TICKETS ?? 1_000_000);
const SMALL = 1_000;
const WARMUP = 5;
const RUNS = 40;

/** The searches measured: what a supervisor types at the door. */
const SEARCHES = [
  { name: 'common 3-letter start ("mar")', query: 'mar' },
  { name: 'surname ("smith")', query: 'smith' },
  { name: 'full name', query: '' /* set from the data */ },
  { name: 'code prefix', query: '' /* set from the data */ },
  { name: 'no match ("zzq")', query: 'zzq' },
];

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-bench-search-'));
  const postgres = process.env.DATABASE_URL ? await createPostgresTestDatabase() : undefined;
  const handle: DatabaseHandle = postgres
    ? await openDatabase({ databaseUrl: postgres.url, poolSize: 2 })
    : await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata'), isDurable: false });
  try {
    console.log(`Database: ${postgres ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}; tickets: ${SMALL.toLocaleString('en')} vs ${LARGE.toLocaleString('en')}`);
    const [organization] = await handle.db.insert(organizations).values({ name: 'Bench' }).returning();
    if (!organization) throw new Error('no organization');
    const [small, large] = await handle.db
      .insert(events)
      .values([
        { organizationId: organization.id, title: 'Small', date: '2026-12-01', status: 'live' },
        { organizationId: organization.id, title: 'Large', date: '2026-12-01', status: 'live' },
      ])
      .returning();
    if (!small || !large) throw new Error('no events');
    const names = benchNames();
    const started = performance.now();
    for (const [event, prefix, count] of [[small, 'SM', SMALL], [large, 'LG', LARGE]] as const) {
      await bulkLoadTickets(handle, { eventId: event.id, prefix, count, names, onProgress: (loaded) => process.stdout.write(`\r  ${prefix}: ${loaded.toLocaleString('en')} tickets`) });
      process.stdout.write('\n');
    }
    await handle.db.execute(sql`analyze`);
    console.log(`Loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await checkTermsMatchTheServer(handle);

    const smallEvent = await findEvent(handle.db, small.id);
    const largeEvent = await findEvent(handle.db, large.id);
    const sample = async (event: EventDetails) => {
      const [row] = await handle.db.select().from(tickets).where(eq(tickets.eventId, event.id)).limit(1).offset(SMALL / 2);
      if (!row) throw new Error('no sample ticket');
      return row;
    };
    const perEvent = new Map<string, { small: string; large: string }>([
      ['full name', { small: (await sample(smallEvent)).holderName, large: (await sample(largeEvent)).holderName }],
      ['code prefix', { small: (await sample(smallEvent)).code.slice(0, 7), large: (await sample(largeEvent)).code.slice(0, 7) }],
    ]);

    const rows: string[][] = [['SEARCH', 'SMALL MEDIAN', 'SMALL P95', 'LARGE MEDIAN', 'LARGE P95', 'LARGE / SMALL (MEDIAN)', 'RESULTS (S/L)']];
    for (const search of SEARCHES) {
      const queries = perEvent.get(search.name) ?? { small: search.query, large: search.query };
      const times = { small: [] as number[], large: [] as number[] };
      const found = { small: 0, large: 0 };
      for (let run = 0; run < WARMUP + RUNS; run++) {
        for (const [key, event] of [['small', smallEvent], ['large', largeEvent]] as const) {
          const t0 = performance.now();
          const result = await searchAttendees(handle.db, event, queries[key], { day: 1 });
          const elapsed = performance.now() - t0;
          if (run >= WARMUP) times[key].push(elapsed);
          found[key] = result.attendees.length;
        }
      }
      const smallMedian = percentile(times.small, 0.5);
      const largeMedian = percentile(times.large, 0.5);
      rows.push([
        search.name,
        smallMedian.toFixed(2),
        percentile(times.small, 0.95).toFixed(2),
        largeMedian.toFixed(2),
        percentile(times.large, 0.95).toFixed(2),
        `${(largeMedian / smallMedian).toFixed(2)}x`,
        `${found.small}/${found.large}`,
      ]);
    }
    console.log(`\nAttendee search latency (ms, ${RUNS} runs each, in-process service call):`);
    console.log(formatTable(rows));
    const plan = await handle.db.execute(
      sql`explain select ticket_id from ticket_search_terms where event_id = ${large.id} and term ~>=~ 'mar' and term ~<~ ${`mar${String.fromCodePoint(0x10ffff)}`} order by term using ~<~ limit 204`,
    );
    console.log(`\nPlan on the large event:\n${planLines(plan).join('\n')}`);
    // The headline for `npm run bench` (scripts/bench.ts): the worst large / small ratio.
    const worst = rows.slice(1).reduce((top, row) => (Number.parseFloat(row[5] ?? '0') > Number.parseFloat(top[5] ?? '0') ? row : top));
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        name: 'bench:search',
        figure: `${SEARCHES.length} searches, 1,000 vs ${LARGE.toLocaleString('en')} tickets; slowest large median ${worst[3]} ms (${worst[0]})`,
        ratio: `worst large/small ${worst[5]}`,
      })}`,
    );
  } finally {
    await handle.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function planLines(result: unknown): string[] {
  const rows = Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
  return rows.map((row) => `  ${String(Object.values(row as Record<string, unknown>)[0])}`);
}

function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')).join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
