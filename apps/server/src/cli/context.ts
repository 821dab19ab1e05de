/**
 * What every admin command gets: where to write, the environment the configuration is read from,
 * and the database, opened on first use and closed when the run ends.
 */
import path from 'node:path';
import { loadConfig, type Config } from '../config.ts';
import type { Db, DatabaseHandle } from '../db/client.ts';
import { openConfiguredDatabase } from '../db/open-configured.ts';
import { openSigningKeyVault, sealClearSigningKeys, type SigningKeyVault } from '../services/signing-key-vault.ts';

/** A stream the CLI writes to; a progress bar is drawn only when `isTTY` is true. */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean };

/** The outside world of one CLI run. */
export interface AdminIo {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Environment for the configuration (DATA_DIR, DATABASE_URL, ... as the server reads them). */
  env: NodeJS.ProcessEnv;
  /**
   * Opens the database. Default: the configured one (openConfiguredDatabase). Tests pass an already
   * open database here; the run calls `close()` on what this returns when it ends.
   */
  openDatabase?: (config: Config) => Promise<DatabaseHandle>;
}

/** A failure the operator can fix (bad argument, unknown file ...): printed as one line, exit code 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The context commands run in (see AdminIo). */
export interface AdminContext {
  io: AdminIo;
  /** Writes `text` and a newline to stdout. */
  print(text: string): void;
  /** The configuration (read on first use). @throws Error for invalid configuration. */
  config(): Config;
  /**
   * The database (opened and migrated on first use; signing keys still stored in clear are
   * encrypted then, as at the server's start, docs/decisions/089).
   */
  db(): Promise<Db>;
  /** What opens the events' signing private keys (docs/decisions/089). */
  signingKeyVault(): Promise<SigningKeyVault>;
  /** `file` as given on the command line, made absolute against the folder the command was typed in. */
  resolvePath(file: string): string;
  /** Closes the database if it was opened. */
  close(): Promise<void>;
}

/** Creates the context of one run. */
export function createContext(io: AdminIo): AdminContext {
  let config: Config | undefined;
  let opening: Promise<DatabaseHandle> | undefined;
  let vault: Promise<SigningKeyVault> | undefined;
  const getConfig = () => (config ??= loadConfig(io.env));
  const getVault = () => (vault ??= openSigningKeyVault(getConfig()));
  return {
    io,
    print: (text) => {
      io.stdout.write(`${text}\n`);
    },
    config: getConfig,
    db: async () => {
      opening ??= (io.openDatabase ?? openConfiguredDatabase)(getConfig()).then(async (handle) => {
        await sealClearSigningKeys(handle.db, await getVault());
        return handle;
      });
      return (await opening).db;
    },
    signingKeyVault: getVault,
    // npm runs `npm run admin` inside apps/server; INIT_CWD is where the user typed it, the same base
    // the configuration resolves DATA_DIR against (config.ts).
    resolvePath: (file) => path.resolve(io.env.INIT_CWD || process.cwd(), file),
    close: async () => {
      if (!opening) return;
      const handle = await opening.catch(() => undefined);
      await handle?.close();
    },
  };
}
