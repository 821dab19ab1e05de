/**
 * A throwaway PostgreSQL cluster a fault test owns, so it can stop it for real (`pg_ctl stop -m
 * immediate`: every backend dies at once, as in a crash) and start it again on the same port and
 * data. Created with `initdb` in a temp dir (as the `postgres` user when we are root: PostgreSQL
 * refuses root), listening on 127.0.0.1 at a free port; `destroy()` stops it and deletes the dir.
 * Durability settings are PostgreSQL's defaults (fsync on): the tests count on committed rows
 * surviving the immediate stop.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SERVER_USER = 'postgres';
const isRoot = process.getuid?.() === 0;

/** A running (or stopped) cluster with one database `gatecheck` owned by the role `gatecheck`. */
export interface PostgresCluster {
  /** 127.0.0.1 port PostgreSQL listens on (the same after a restart). */
  port: number;
  /** `postgres://gatecheck:…@127.0.0.1:<port>/gatecheck`. */
  url: string;
  /** The URL with another host port, e.g. a proxy's in front of it. */
  urlThrough(port: number): string;
  /** `pg_ctl stop -m immediate` (no checkpoint, no goodbye to clients: a crash). */
  stopImmediately(): void;
  /** `pg_ctl start` on the same data and port; waits until it accepts connections. */
  start(): void;
  /** Stops it if running and deletes its files. Safe to call twice. */
  destroy(): void;
}

/** The directory with initdb and pg_ctl (Debian's newest version), or throws with the install hint. */
function binDirOf(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, 'bin')).find((dir) => existsSync(path.join(dir, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL server binaries are missing: apt-get install -y postgresql-15');
  return found;
}

/** A port of 127.0.0.1 free right now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * Creates and starts a cluster.
 * @throws when initdb or the start fails (with PostgreSQL's log).
 */
export async function createPostgresCluster(): Promise<PostgresCluster> {
  const binDir = binDirOf();
  const rootDir = mkdtempSync(path.join(tmpdir(), 'gatecheck-faults-pg-'));
  const dataDir = path.join(rootDir, 'data');
  const logFile = path.join(rootDir, 'server.log');
  const run = (tool: string, args: string[], input?: string) => {
    const binary = path.join(binDir, tool);
    const [command, commandArgs] = isRoot ? ['runuser', ['-u', SERVER_USER, '--', binary, ...args]] : [binary, args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', input });
    if (result.status !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      throw new Error(`${tool} ${args.join(' ')} failed (exit ${result.status}): ${result.stdout}${result.stderr}\n${log}`);
    }
  };
  if (isRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).stdout.trim());
    chownSync(rootDir, id('-u'), id('-g'));
  }
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  let isRunning = false;
  const start = () => {
    run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', `-p ${port} -k ${rootDir} -c listen_addresses=127.0.0.1 -c max_connections=100`, '-w', '-t', '60', 'start']);
    isRunning = true;
  };
  const stop = (mode: 'immediate' | 'fast') => {
    if (!isRunning) return;
    isRunning = false;
    run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
  };
  try {
    run('initdb', ['-D', dataDir, '-U', SERVER_USER, '--auth-local=trust', '--auth-host=scram-sha-256', '--encoding=UTF8', '--no-locale', '--no-sync']);
    start();
    run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', rootDir, '-p', String(port), '-U', SERVER_USER, '-d', 'postgres'],
      `CREATE ROLE gatecheck LOGIN PASSWORD '${password}';\nCREATE DATABASE gatecheck OWNER gatecheck;\n`);
  } catch (error) {
    try {
      stop('immediate');
    } finally {
      rmSync(rootDir, { recursive: true, force: true });
    }
    throw error;
  }
  const urlThrough = (throughPort: number) => `postgres://gatecheck:${password}@127.0.0.1:${throughPort}/gatecheck`;
  let isDestroyed = false;
  return {
    port,
    url: urlThrough(port),
    urlThrough,
    stopImmediately: () => stop('immediate'),
    start,
    destroy: () => {
      if (isDestroyed) return;
      isDestroyed = true;
      try {
        stop('fast');
      } finally {
        rmSync(rootDir, { recursive: true, force: true });
      }
    },
  };
}
