/**
 * `npx tsx bench/forgot-password.bench.ts` (from apps/server): how long POST /auth/forgot-password
 * takes for an e-mail that has an account against one that has none (issue 28 item 6,
 * docs/decisions/084). The two must not be told apart by their timing.
 *
 * The real app through `app.inject` on the embedded database in a temp folder, durable as
 * `npm start` runs it (every commit fsynced), or on the PostgreSQL server at DATABASE_URL (a
 * database of its own, dropped at the end). Known and unknown e-mails alternate, RUNS each after
 * WARMUP unrecorded, each e-mail asked once; printed: median and p90 (ms) of each, of a GET
 * /api/health sent right after each answer (work left running after the answer would show there),
 * and the median of each run's known minus unknown (sent back to back, so the load drifts out).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiPaths } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import { createUser } from '../src/services/users.ts';
import { createPostgresTestDatabase } from '../test/helpers/test-app.ts';

const RUNS = Number(process.env.BENCH_FORGOT_RUNS ?? 200);
const WARMUP = 20;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-bench-forgot-'));
  const postgres = process.env.DATABASE_URL ? await createPostgresTestDatabase() : undefined;
  const handle: DatabaseHandle = postgres
    ? await openDatabase({ databaseUrl: postgres.url, poolSize: 4 })
    : await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_IP_MAX: '1000000',
    RATE_LIMIT_ACCOUNT_MAX: '1000000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
  });
  const app = await buildApp({ config, db: handle.db });
  try {
    // One account per known request, as each unknown request names a new e-mail: every request then
    // starts its own per-email rate-limit counter (a first count inserts a row, a later one updates it).
    const knownUserId = await createUser(handle.db, { displayName: 'Known', username: 'known-0', email: 'known-0@example.org', password: 'known-password' });
    const [template] = await handle.db.select().from(users).where(eq(users.id, knownUserId));
    if (!template) throw new Error('no user');
    await handle.db.insert(users).values(
      Array.from({ length: WARMUP + RUNS - 1 }, (_, n) => ({
        displayName: 'Known',
        username: `known-${n + 1}`,
        email: `known-${n + 1}@example.org`,
        passwordHash: template.passwordHash,
      })),
    );
    const forgot = async (email: string): Promise<number> => {
      const started = performance.now();
      const response = await app.inject({ method: 'POST', url: `/api${apiPaths.forgotPassword}`, payload: { email } });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`forgot-password answered ${response.statusCode}: ${response.body}`);
      return elapsed;
    };
    const health = async (): Promise<number> => {
      const started = performance.now();
      await app.inject({ method: 'GET', url: '/api/health' });
      return performance.now() - started;
    };
    const samples = { known: [] as number[], unknown: [] as number[], knownNext: [] as number[], unknownNext: [] as number[] };
    for (let run = 0; run < WARMUP + RUNS; run += 1) {
      for (const kind of run % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
        const email = kind === 'known' ? `known-${run}@example.org` : `nobody-${run}@example.org`;
        const answer = await forgot(email);
        const next = await health();
        if (run < WARMUP) continue;
        samples[kind].push(answer);
        samples[kind === 'known' ? 'knownNext' : 'unknownNext'].push(next);
      }
    }
    await app.mailer.drain();
    console.log(`Database: ${postgres ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite, durable'}; ${RUNS} requests each`);
    for (const [name, values] of Object.entries(samples)) {
      console.log(`${name.padEnd(12)} median ${quantile(values, 0.5).toFixed(2)} ms  p90 ${quantile(values, 0.9).toFixed(2)} ms`);
    }
    // Each run's known minus unknown, sent back to back: the machine's load drifts out.
    const differences = samples.known.map((known, run) => known - (samples.unknown[run] ?? Number.NaN));
    console.log(`known − unknown, paired: median ${quantile(differences, 0.5).toFixed(2)} ms  (p25 ${quantile(differences, 0.25).toFixed(2)}, p75 ${quantile(differences, 0.75).toFixed(2)})`);
  } finally {
    await app.close();
    await handle.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

await main();
