/**
 * `npm run db:migrate`: applies the pending migrations of this build to the configured database
 * (DATABASE_URL, else the embedded one in DATA_DIR) while holding the migration lock, and exits —
 * the release step of a deployment that runs its servers with `MIGRATE_ON_START=false`
 * (docs/decisions/041). Safe to run while servers serve and while another copy runs (the second
 * waits for the lock, then finds nothing to do). Exits 0 on success, 1 with one line on stderr.
 */
import { loadConfig } from '../config.ts';
import { describeDatabase, openConfiguredDatabase } from './open-configured.ts';

try {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config, { migrate: false });
  try {
    const applied = await database.exclusively(() => database.migrate());
    process.stdout.write(`${describeDatabase(config)}: ${applied === 0 ? 'up to date' : `applied ${applied} migration${applied === 1 ? '' : 's'}`}\n`);
  } finally {
    await database.close();
  }
} catch (error) {
  process.stderr.write(`Migrating failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
