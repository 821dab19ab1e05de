/**
 * Starts Gatecheck: reads the configuration, opens the database, migrates it (unless
 * `MIGRATE_ON_START=false`) and seeds the demo data on an empty database — both while holding the
 * migration lock, so N instances started together on one PostgreSQL migrate and seed once
 * (docs/decisions/041) — serves the web app and the API (over https with `HTTPS=true`, src/tls.ts),
 * and prints where to go and how long starting took (ms since the process started). `npm start`
 * runs it compiled (dist/server.js, see build.ts; issue 13 item 3). SIGTERM/SIGINT stop it gracefully: GET /api/ready answers 503 at once (for
 * `SHUTDOWN_DELAY_SECONDS` while requests are still served), then no new connections, in-flight
 * requests finish, then the database closes.
 */
import { existsSync } from 'node:fs';
import { buildApp } from './app.ts';
import { assertServable, demoTicketsDirOf, loadConfig, type Config } from './config.ts';
import { checkDatabaseReadiness } from './db/client.ts';
import { describeDatabase, openConfiguredDatabase } from './db/open-configured.ts';
import { DEMO_USER, seedDemoIfEmpty, type DemoSeedSummary } from './db/seed.ts';
import { openSigningKeyVault, sealClearSigningKeys } from './services/signing-key-vault.ts';
import { lanAddresses, loadTlsMaterial, type TlsMaterial } from './tls.ts';

let config: Config;
try {
  config = loadConfig();
  assertServable(config);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
// Before the database: a certificate problem is the operator's to fix, and is said in one line.
let tls: TlsMaterial | undefined;
try {
  tls = config.tls ? await loadTlsMaterial(config.tls) : undefined;
} catch (error) {
  process.stderr.write(`HTTPS: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const database = await openConfiguredDatabase(config, { migrate: false });
const ticketsDir = demoTicketsDirOf(config);
/** Migrates (unless MIGRATE_ON_START=false) and seeds an empty database, under the migration lock. */
function prepareDatabase(): Promise<{ applied: number; seeded: DemoSeedSummary | null }> {
  return database.exclusively(async () => {
    const applied = config.migrateOnStart ? await database.migrate() : 0;
    // Seeding needs the tables: with MIGRATE_ON_START=false, only once the release step has migrated.
    const canSeed = config.migrateOnStart || (await checkDatabaseReadiness(database.db)) === 'ready';
    const seeded = config.seedDemo && canSeed ? await seedDemoIfEmpty(database.db, { ticketsDir }) : null;
    // Signing keys an older server stored in clear are encrypted now (docs/decisions/089).
    if (canSeed) await sealClearSigningKeys(database.db, await openSigningKeyVault(config));
    return { applied, seeded };
  });
}
let prepared: Awaited<ReturnType<typeof prepareDatabase>>;
try {
  prepared = await prepareDatabase();
} catch (error) {
  process.stderr.write(`Preparing the database failed: ${error instanceof Error ? error.message : String(error)}\n`);
  await database.close();
  process.exit(1);
}
const { applied, seeded } = prepared;
const app = await buildApp({
  config,
  db: database.db,
  poolStats: database.poolStats,
  ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
});

// The embedded database opened again after a PANIC (a full disk, a failed sync: decision 104). It
// retries every 2 s while it cannot: the first failure is logged, not each one.
let isReopenFailing = false;
database.onReopened?.(({ error }) => {
  if (error && !isReopenFailing) app.log.warn({ err: error }, 'opening the embedded database again after a PANIC failed; retrying every 2 s');
  if (!error) app.log.warn('the embedded database was opened again after a PANIC (crash recovery from its WAL)');
  isReopenFailing = Boolean(error);
});

// The embedded database has no autovacuum: its planner statistics are kept here (decision 072).
database.keepStatistics?.({
  onError: (error) => app.log.warn({ err: error }, 'updating the embedded database statistics failed'),
  onAnalyzed: (tables) => app.log.info({ tables }, 'embedded database statistics updated'),
});

let stopping = false;
/** How often idle connections are closed while draining (ms). */
const IDLE_SWEEP_MS = 50;
// While draining, every answer asks its client to close the connection, so no new request races the
// sweep below on a connection about to be closed.
app.addHook('onSend', async (_request, reply) => {
  if (stopping) reply.header('connection', 'close');
});
/**
 * Graceful stop: `app.close()` stops accepting connections, closes idle keep-alive ones, answers
 * requests that arrive on busy connections meanwhile with 503 (Fastify's `return503OnClosing`) and
 * resolves once every in-flight request has been answered; only then does the database close.
 * Exits 0, or 1 when closing failed. (A kill mid-request leaves nothing half-written either: each
 * check-in is one transaction.)
 */
async function stop(signal: string): Promise<void> {
  // Under `npm start` one Ctrl-C arrives several times (the terminal and each npm forward it): a
  // repeat must not cut the drain short.
  if (stopping) return;
  stopping = true;
  // Readiness first: a load balancer polling GET /api/ready takes this instance out of rotation.
  app.lifecycle.isStopping = true;
  if (config.shutdownDelayMs > 0) {
    app.log.info(`${signal} received: not ready; serving for ${config.shutdownDelayMs} ms more before draining`);
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
  }
  app.log.info(`${signal} received: finishing in-flight requests`);
  // app.close() waits for every connection to end, and Node closes idle keep-alive connections only
  // once, when it starts. A request in flight at that moment leaves its connection idle afterwards;
  // without this it would hold the shutdown for Fastify's 72 s keep-alive timeout.
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  let exitCode = 0;
  try {
    await app.close();
  } catch (error) {
    app.log.error(error, 'closing the HTTP server failed');
    exitCode = 1;
  } finally {
    clearInterval(closeIdle);
  }
  try {
    await database.close();
  } catch (error) {
    app.log.error(error, 'closing the database failed');
    exitCode = 1;
  }
  process.exit(exitCode);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.error(error);
  await database.close();
  process.exit(1);
}

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const isEveryInterface = config.host === '0.0.0.0' || config.host === '::';
const shownHost = isEveryInterface ? 'localhost' : config.host;
const scheme = tls ? 'https' : 'http';
const urlOf = (host: string) => `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
// Listening on every interface: the addresses a phone on the LAN can open.
const lanUrls = isEveryInterface ? lanAddresses().filter((address) => config.host === '::' || !address.includes(':')).map(urlOf) : [];
const lines = [
  '',
  `Gatecheck is running at ${urlOf(shownHost)}`,
  ...(lanUrls.length > 0 ? [`On this network: ${lanUrls.join('  ')}`] : []),
  ...(tls
    ? [
        `TLS certificate: ${tls.certFile}${tls.isSelfSigned ? ' (self-signed: each phone asks once to accept it)' : ''}`,
        `  SHA-256 fingerprint: ${tls.fingerprint256}`,
        `  covers: ${tls.subjectAltName}`,
      ]
    : []),
  `Database: ${describeDatabase(config)}${applied > 0 ? ` (applied ${applied} migration${applied === 1 ? '' : 's'})` : ''}${config.migrateOnStart ? '' : ' (MIGRATE_ON_START=false: run npm run db:migrate)'}`,
  ...(config.seedDemo
    ? [
        `Demo login: ${DEMO_USER.email} (or username "${DEMO_USER.username}") / password "${DEMO_USER.password}"`,
        // Written by the instance that seeded the database: another instance on it has none of its own.
        existsSync(ticketsDir)
          ? `Demo tickets (tickets.csv + one QR PNG each): ${ticketsDir}${seeded ? ` (seeded now: ${seeded.tickets.length} tickets)` : ''}`
          : 'Demo tickets: written by the instance that seeded this database, in its DATA_DIR (none here).',
      ]
    : []),
  // Since the process started (Node's performance.timeOrigin), in ms: module loading, migration, seeding, listen.
  `Started in ${Math.round(performance.now())} ms.`,
  'Press Ctrl-C to stop.',
  '',
];
process.stdout.write(lines.join('\n'));
