/**
 * Opens the database the configuration names: PostgreSQL at `DATABASE_URL` when set, otherwise the
 * embedded PGlite database in `$DATA_DIR/pgdata`. Used by the server and the admin CLI.
 */
import { pgliteDirOf, type Config } from '../config.ts';
import { openDatabase, type DatabaseHandle, type OpenOptions } from './client.ts';

/**
 * Opens the configured database and, unless `options.migrate` is false, migrates it under the
 * migration lock (client.ts `openDatabase`).
 * @throws when it cannot be reached or migrated.
 */
export function openConfiguredDatabase(config: Config, options: OpenOptions = {}): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openDatabase({ databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize }, options)
    : openDatabase({ pgliteDir: pgliteDirOf(config) }, options);
}

/** A description of where the data lives, for logs (the connection string without its password). */
export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PostgreSQL (PGlite) in ${pgliteDirOf(config)}`;
  try {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = '***';
    return `PostgreSQL at ${url.toString()}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}
