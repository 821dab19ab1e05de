import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from './cli-harness.ts';

const ALL_COMMANDS = [
  'user create',
  'org create',
  'org list',
  'org add-member',
  'event create',
  'event set',
  'event list',
  'tickets import',
  'tickets revoke',
  'tickets export-qr',
  'checkins count',
];

const ADMIN_ENTRY = fileURLToPath(new URL('../../src/cli/admin.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

let dir: string;
let dropDatabase: (() => Promise<void>) | undefined;
let env: NodeJS.ProcessEnv;

/**
 * The configuration the server reads: a temp DATA_DIR (embedded database in DATA_DIR/pgdata), or
 * with DATABASE_URL set, a fresh database of its own on that PostgreSQL server.
 */
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-cli-config-'));
  env = { DATA_DIR: dir, INIT_CWD: dir };
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `gc_cli_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    dropDatabase = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
});
afterAll(async () => {
  await dropDatabase?.();
  await rm(dir, { recursive: true, force: true });
});

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

test('npm run admin -- --help lists every command with examples, and exits 0', async () => {
  // The real entry point, as `npm run admin` starts it (tsx), in its own process.
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', ADMIN_ENTRY, '--help'], { cwd: SERVER_DIR });
  for (const command of ALL_COMMANDS) expect(stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
  expect(stdout).toMatch(/Examples/);
  expect(stdout).toMatch(/npm run admin -- tickets import --event/);
});

test('each command has its own --help with its options', async () => {
  for (const command of ALL_COMMANDS) {
    const result = await runCli([...command.split(' '), '--help'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: admin ${command}`, 'm'));
  }
  const importHelp = await runCli(['tickets', 'import', '--help'], { env });
  expect(importHelp.stdout).toMatch(/code,holder_name,ticket_type,days/);
});

test('an unknown command or option is one line on stderr and exit code 1', async () => {
  const command = await runCli(['tickets', 'delete'], { env });
  expect(command).toMatchObject({ exitCode: 1, stdout: '' });
  expect(command.stderr).toMatch(/^error: unknown command 'delete'/);
  const option = await runCli(['event', 'list', '--colour'], { env });
  expect(option).toMatchObject({ exitCode: 1 });
  expect(option.stderr).toBe("error: unknown option '--colour'\n");
});

test('the CLI uses the configured database (DATA_DIR or DATABASE_URL) and its changes persist between runs', { timeout: 120_000 }, async () => {
  const created = await runCli(['org', 'create', '--name', 'Persisted Org'], { env });
  expect(created).toMatchObject({ exitCode: 0, stderr: '' });
  const listed = await runCli(['org', 'list'], { env });
  expect(listed.stdout).toMatch(/Persisted Org/);
  if (!env.DATABASE_URL) expect((await stat(path.join(dir, 'pgdata'))).isDirectory()).toBe(true);
});

test('an invalid configuration is one line on stderr and exit code 1', async () => {
  const result = await runCli(['org', 'list'], { env: { ...env, DATABASE_POOL_SIZE: 'many' } });
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toMatch(/^error: Invalid configuration: DATABASE_POOL_SIZE/);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
});

test('an unreachable PostgreSQL server is one line on stderr and exit code 1', async () => {
  const result = await runCli(['org', 'list'], { env: { ...env, DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none' } });
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toMatch(/^error: .*ECONNREFUSED/);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/secret/);
});
