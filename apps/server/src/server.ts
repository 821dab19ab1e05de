/**
 * Starts Gatecheck: reads the configuration, opens (and migrates) the database, seeds the demo data
 * on an empty database, serves the web app and the API, and prints where to go. SIGTERM/SIGINT stop
 * it gracefully: no new connections, in-flight requests finish, then the database closes.
 */
import { buildApp } from './app.ts';
import { demoTicketsDirOf, loadConfig, type Config } from './config.ts';
import { describeDatabase, openConfiguredDatabase } from './db/open-configured.ts';
import { DEMO_USER, seedDemoIfEmpty } from './db/seed.ts';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const database = await openConfiguredDatabase(config);
const ticketsDir = demoTicketsDirOf(config);
const seeded = config.seedDemo ? await seedDemoIfEmpty(database.db, { ticketsDir }) : null;
const app = await buildApp({ config, db: database.db });

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info(`${signal} received: finishing in-flight requests`);
  try {
    await app.close();
  } finally {
    await database.close();
  }
  process.exit(0);
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
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const lines = [
  '',
  `Gatecheck is running at http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
  `Database: ${describeDatabase(config)}`,
  ...(config.seedDemo
    ? [
        `Demo login: ${DEMO_USER.email} (or username "${DEMO_USER.username}") / password "${DEMO_USER.password}"`,
        `Demo tickets (tickets.csv + one QR PNG each): ${ticketsDir}${seeded ? ` (${seeded.tickets.length} tickets)` : ''}`,
      ]
    : []),
  'Press Ctrl-C to stop.',
  '',
];
process.stdout.write(lines.join('\n'));
