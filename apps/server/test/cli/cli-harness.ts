/**
 * Running the admin CLI in-process (runAdmin) with captured stdout and stderr, on a real database:
 * the test database of helpers/test-app.ts (PGlite in memory, or a fresh database on the
 * PostgreSQL server at DATABASE_URL), kept open across runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { runAdmin } from '../../src/cli/program.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { createTestDatabase } from '../helpers/test-app.ts';

/** What one CLI run printed and its exit code. */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A collecting stream; `isTTY` is unset, like a pipe, so no progress bar is drawn. */
function captureStream(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** Runs the CLI with `argv` and `env`; `database` (when given) is used instead of the configured one. */
export async function runCli(argv: string[], options: { env: NodeJS.ProcessEnv; database?: DatabaseHandle }): Promise<CliResult> {
  const stdout = captureStream();
  const stderr = captureStream();
  const { database } = options;
  const exitCode = await runAdmin(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: options.env,
    // The test owns the database: the run's close() must not close it.
    openDatabase: database ? async () => ({ ...database, close: async () => undefined }) : undefined,
  });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

/** A CLI bound to a fresh test database and a temp working folder (DATA_DIR and INIT_CWD). */
export interface CliFixture {
  database: DatabaseHandle;
  /** Temp folder: DATA_DIR, and the folder relative paths are resolved against. */
  dir: string;
  env: NodeJS.ProcessEnv;
  run(...argv: string[]): Promise<CliResult>;
  /** Runs and throws unless the exit code is 0; returns stdout. */
  ok(...argv: string[]): Promise<string>;
  close(): Promise<void>;
}

/** Creates a CliFixture. */
export async function createCliFixture(): Promise<CliFixture> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-cli-'));
  const database = await createTestDatabase();
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  const run = (...argv: string[]) => runCli(argv, { env, database });
  return {
    database,
    dir,
    env,
    run,
    ok: async (...argv) => {
      const result = await run(...argv);
      if (result.exitCode !== 0) throw new Error(`admin ${argv.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
      return result.stdout;
    },
    close: async () => {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The first UUID in `text` (the CLI prints new ids as `(id <uuid>)`). */
export function idIn(text: string): string {
  const match = /\(id ([0-9a-f-]{36})\)/.exec(text);
  if (!match?.[1]) throw new Error(`no id in: ${text}`);
  return match[1];
}
