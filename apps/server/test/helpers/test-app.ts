/**
 * Test fixtures: the real app on a real database, no mocks (STYLE "Tests").
 *
 * - Without DATABASE_URL: PGlite in memory, one per call.
 * - With DATABASE_URL (a PostgreSQL server): each call creates its own database `gc_test_<random>` on
 *   that server and drops it on close, so test files never share state.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { apiPaths, API_PREFIX, LoginResponse } from '@gatecheck/contract';
import type { FastifyInstance } from 'fastify';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle, type OpenOptions } from '../../src/db/client.ts';
import { seedDemoData, type DemoSeedSummary } from '../../src/db/seed.ts';
import { checkAnswersAgainstDocument } from './api-document.ts';

/** Pool size for PostgreSQL test databases: enough for the race test's concurrency. */
const TEST_POOL_SIZE = 12;

/** Which database the suite runs on, for test names. */
export const TEST_DATABASE_KIND = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A fresh, migrated, empty database (see the module comment). `close()` closes it and, on
 * PostgreSQL, drops it. `options` go to `openDatabase` (e.g. a query logger).
 */
export async function createTestDatabase(options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (!process.env.DATABASE_URL) return openDatabase({ inMemory: true, loadDataDir: await migratedPgliteTemplate() }, options);
  const created = await createPostgresTestDatabase();
  const handle = await openDatabase({ databaseUrl: created.url, poolSize: TEST_POOL_SIZE }, options);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await created.drop();
    },
  };
}

/** An empty database of its own on the PostgreSQL server at DATABASE_URL. */
export interface PostgresTestDatabase {
  /** Its connection string (DATABASE_URL with the database name replaced). */
  url: string;
  /**
   * Drops it. Everyone connected must have disconnected first: without FORCE, a leaked connection
   * makes this fail loudly (after PostgreSQL's 5 s wait) instead of being killed behind its back.
   */
  drop(): Promise<void>;
}

/**
 * Creates `gc_test_<random>` (not migrated) on the server at DATABASE_URL.
 * @throws when DATABASE_URL is unset or the server refuses.
 */
export async function createPostgresTestDatabase(): Promise<PostgresTestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('createPostgresTestDatabase needs DATABASE_URL');
  const name = `gc_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name}`)),
  };
}

/**
 * A dump of a freshly migrated PGlite database, cached in the temp folder under a hash of the
 * migrations: a new PGlite runs initdb in WebAssembly (several seconds on a busy 2-core machine),
 * loading this snapshot takes about one. Written to a temp name and renamed, so parallel test
 * workers never read half a file.
 */
async function migratedPgliteTemplate(): Promise<Blob> {
  const hash = createHash('sha256');
  for (const file of (await readdir(MIGRATIONS_FOLDER, { recursive: true })).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(await readFile(path.join(MIGRATIONS_FOLDER, file)));
  }
  hash.update(PGLITE_TEMPLATE_FORMAT);
  const templateFile = path.join(tmpdir(), `gatecheck-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
  try {
    return new Blob([await readFile(templateFile)]);
  } catch {
    const client = await PGlite.create();
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    const dump = await client.dumpDataDir('none');
    await client.close();
    const partial = `${templateFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, templateFile);
    return dump;
  }
}

/** Bump when the way the template is made changes (its file name then changes too). */
const PGLITE_TEMPLATE_FORMAT = 'pglite-0.5-dump-none-v1';

/** Runs `work` on a single connection to `url`, closed afterwards. */
export async function withAdminClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A running test app and everything a test needs around it. */
export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** The demo data, when seeded. */
  demo: DemoSeedSummary | undefined;
  /** Closes the app, the database (dropping it on PostgreSQL) and removes the temp data folder. */
  close(): Promise<void>;
}

/** Options of createTestApp. */
export interface TestAppOptions {
  /** Seed the demo data (default true). */
  seed?: boolean;
  /** Also write the demo tickets.csv and PNGs into `<dataDir>/demo-tickets` (default false). */
  writeTicketFiles?: boolean;
  /** Extra environment variables for loadConfig (e.g. WEB_DIST_DIR, TRUST_PROXY). */
  env?: Record<string, string>;
  /** The app's clock for check-in decisions (default: the system clock). */
  clock?: () => Date;
  /** Options of the test database (`openDatabase`), e.g. a query logger. */
  databaseOptions?: OpenOptions;
  /** Where the app logs (pino's JSON lines), at the LOG_LEVEL of `env` (default silent). */
  logStream?: Writable;
}

/**
 * Builds the real app on a fresh test database with a temp DATA_DIR. WEB_DIST_DIR points at a
 * folder that does not exist unless `env` says otherwise, so no web build is served; the rate limits
 * are raised out of reach and sign-up is allowed unless `env` says otherwise. Every answer of the app
 * is checked against its OpenAPI document (helpers/api-document.ts): a mismatch fails the test that
 * produced it.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    // Suites sign in many times from one address; the rate limits have their own tests.
    RATE_LIMIT_IP_MAX: '100000',
    RATE_LIMIT_ACCOUNT_MAX: '100000',
    // Suites create accounts through the API; sign-up being off by default has its own test.
    ALLOW_SIGNUP: 'true',
    ...options.env,
  });
  const database = await createTestDatabase(options.databaseOptions);
  const demo =
    options.seed === false
      ? undefined
      : await seedDemoData(database.db, {
          ticketsDir: options.writeTicketFiles ? path.join(dataDir, 'demo-tickets') : undefined,
        });
  const app = await buildApp({ config, db: database.db, clock: options.clock, ...(options.logStream ? { logStream: options.logStream } : {}) });
  const documentCheck = checkAnswersAgainstDocument(app);
  return {
    app,
    database,
    config,
    demo,
    close: async () => {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
      documentCheck.assertNoLateProblems();
    },
  };
}

/** `/api` + path. */
export function api(pathname: string): string {
  return `${API_PREFIX}${pathname}`;
}

/**
 * Signs in through POST /auth/login and returns the bearer token.
 * @throws when the login does not answer 200 with a token.
 */
export async function login(app: FastifyInstance, identifier: string, password: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: identifier, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  const { token } = LoginResponse.parse(response.json());
  if (!token) throw new Error('login answered without a token');
  return token;
}

/** The Authorization header for `token`. */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}
