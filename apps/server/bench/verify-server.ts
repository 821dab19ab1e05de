/**
 * A benchmark target: the real Gatecheck app (`buildApp` on the configured embedded database, as
 * `src/server.ts` builds it) in its own process, with the database durable or not. Started by
 * `verify.bench.ts`; not for real data.
 *
 * Usage: `tsx bench/verify-server.ts durable|non-durable` with the server's usual environment
 * (DATA_DIR holding a prepared `pgdata/`, PORT, HOST, LOG_LEVEL). Prints `listening at <url>` once
 * it listens; SIGTERM closes the app and the database and exits 0.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig, pgliteDirOf } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

const mode = process.argv[2];
if (mode !== 'durable' && mode !== 'non-durable') {
  process.stderr.write('usage: verify-server.ts durable|non-durable\n');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ pgliteDir: pgliteDirOf(config), isDurable: mode === 'durable' });
const app = await buildApp({ config, db: database.db });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
const url = await app.listen({ port: config.port, host: config.host });
process.stdout.write(`listening at ${url}\n`);
