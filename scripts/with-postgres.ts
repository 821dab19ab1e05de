/**
 * Runs one command against a throwaway PostgreSQL cluster.
 *
 * Usage: `tsx scripts/with-postgres.ts [--durable] [--clusters <n>] [--] <command> [args...]`
 *
 * Creates a cluster with `initdb` in a fresh temp dir, starts it with `pg_ctl` on a free port of
 * 127.0.0.1 (Unix socket in the same temp dir), creates the role and database `gatecheck` with a
 * random password (the role may create databases: the server suite makes one per test file), then runs the command with `DATABASE_URL` set to that database. Whatever
 * happens (the command fails, a signal such as Ctrl-C arrives, setup breaks half-way) the cluster
 * is stopped and its temp dir deleted. The exit code is the command's own (128 + signal number if
 * it was killed by a signal, 1 if the cluster could not be set up).
 *
 * PostgreSQL refuses to run as root, so as root the server binaries run as the `postgres` user
 * through `runuser`. Binaries are looked up in `/usr/lib/postgresql/<version>/bin` (newest version
 * first), then on PATH. Durability is switched off (`fsync=off` and friends): the cluster lives
 * for one test run and concurrency semantics are unchanged. `--durable` keeps PostgreSQL's durable
 * defaults (fsync, synchronous_commit, full_page_writes on), as a production server runs: for
 * benchmarks (`npm run bench:verify`), whose commits must cost what they cost in production.
 *
 * `--clusters <n>` (default 1) starts n such clusters, each with its own role password, and also sets
 * `DATABASE_URLS` to their `DATABASE_URL`s separated by spaces (`DATABASE_URL` is the first one). The
 * root vitest config gives each of its two test workers a cluster of its own (docs/decisions/064):
 * transaction ids and snapshots are per cluster, so one file's transactions never show in another
 * file's snapshots (the door-list cursor, decision 044, is exact only without concurrent writers).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants as osConstants, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const INSTALL_HINT = 'PostgreSQL server binaries (initdb, pg_ctl, psql) are missing: run `apt-get install -y postgresql`.';
const DATABASE_NAME = 'gatecheck';
const ROLE_NAME = 'gatecheck';
const SERVER_USER = 'postgres';

interface Cluster {
  binDir: string;
  rootDir: string;
  dataDir: string;
  socketDir: string;
  port: number;
  isStarted: boolean;
}

/** Directory holding initdb, pg_ctl and psql; throws with the install hint when there is none. */
function findPostgresBinDir(): string {
  const debianRoot = '/usr/lib/postgresql';
  const versioned = existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter((version) => /^\d+(\.\d+)?$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => join(debianRoot, version, 'bin'))
    : [];
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const hasAll = (dir: string) => ['initdb', 'pg_ctl', 'psql'].every((tool) => existsSync(join(dir, tool)));
  const found = [...versioned, ...onPath].find(hasAll);
  if (!found) throw new Error(INSTALL_HINT);
  return found;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not find a free port on 127.0.0.1.'));
      });
    });
  });
}

const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool, as the `postgres` user when we are root; throws with its output on failure. */
function runTool(cluster: Pick<Cluster, 'binDir'>, tool: string, args: string[], input?: string): void {
  const binary = join(cluster.binDir, tool);
  const [command, commandArgs] = isRoot ? ['runuser', ['-u', SERVER_USER, '--', binary, ...args]] : [binary, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  }
}

/** The uid/gid of the `postgres` user (root only: the temp dir must belong to it). */
function serverUserIds(): { uid: number; gid: number } {
  const read = (flag: string) => Number(spawnSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).stdout.trim());
  const uid = read('-u');
  const gid = read('-g');
  if (!Number.isInteger(uid) || uid <= 0) {
    throw new Error(`The user '${SERVER_USER}' does not exist. ${INSTALL_HINT}`);
  }
  return { uid, gid };
}

/** initdb + pg_ctl start + role and database. Mutates `cluster.isStarted` so cleanup knows what to stop. */
async function startCluster(cluster: Cluster, password: string, isDurable: boolean): Promise<void> {
  if (isRoot) {
    const { uid, gid } = serverUserIds();
    chownSync(cluster.rootDir, uid, gid);
  }
  runTool(cluster, 'initdb', [
    '-D', cluster.dataDir,
    '-U', SERVER_USER,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const serverOptions = [
    `-p ${cluster.port}`,
    `-k ${cluster.socketDir}`,
    '-c listen_addresses=127.0.0.1',
    ...(isDurable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    '-c max_connections=200',
  ].join(' ');
  cluster.isStarted = true;
  try {
    runTool(cluster, 'pg_ctl', ['-D', cluster.dataDir, '-l', join(cluster.rootDir, 'server.log'), '-o', serverOptions, '-w', '-t', '60', 'start']);
  } catch (error) {
    const log = existsSync(join(cluster.rootDir, 'server.log')) ? readFileSync(join(cluster.rootDir, 'server.log'), 'utf8') : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver.log:\n${log}`);
  }
  // Over the Unix socket as the superuser (trust), so no password is needed to create the role.
  runTool(cluster, 'psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', cluster.socketDir, '-p', String(cluster.port), '-U', SERVER_USER, '-d', 'postgres'],
    `CREATE ROLE ${ROLE_NAME} LOGIN CREATEDB PASSWORD '${password}';\nCREATE DATABASE ${DATABASE_NAME} OWNER ${ROLE_NAME};\n`);
}

/** Stops the cluster (if started) and deletes its temp dir. Synchronous so it can run from any exit path. */
function destroyCluster(cluster: Cluster): void {
  if (cluster.isStarted) {
    cluster.isStarted = false;
    try {
      runTool(cluster, 'pg_ctl', ['-D', cluster.dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
    } catch (error) {
      console.error(`with-postgres: could not stop the cluster cleanly: ${error instanceof Error ? error.message : String(error)}`);
      try {
        runTool(cluster, 'pg_ctl', ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Nothing more to try: the temp dir is removed below either way.
      }
    }
  }
  rmSync(cluster.rootDir, { recursive: true, force: true });
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const signalNumber = signal ? osConstants.signals[signal] : undefined;
  return signalNumber ? 128 + signalNumber : 1;
}

const USAGE = 'Usage: tsx scripts/with-postgres.ts [--durable] [--clusters <n>] [--] <command> [args...]';

async function main(argv: string[]): Promise<number> {
  let options = argv;
  let isDurable = false;
  let clusterCount = 1;
  for (;;) {
    if (options[0] === '--durable') {
      isDurable = true;
      options = options.slice(1);
    } else if (options[0] === '--clusters') {
      clusterCount = Number(options[1]);
      if (!Number.isInteger(clusterCount) || clusterCount < 1) {
        console.error(`with-postgres: --clusters needs a whole number of at least 1. ${USAGE}`);
        return 2;
      }
      options = options.slice(2);
    } else break;
  }
  const commandLine = options[0] === '--' ? options.slice(1) : options;
  const [command, ...args] = commandLine;
  if (!command) {
    console.error(USAGE);
    return 2;
  }

  let binDir: string;
  try {
    binDir = findPostgresBinDir();
  } catch (error) {
    console.error(`with-postgres: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const clusters: Cluster[] = [];
  for (let i = 0; i < clusterCount; i++) {
    const rootDir = mkdtempSync(join(tmpdir(), 'gatecheck-pg-'));
    // The port is chosen just before each cluster starts (two looked up at once could be the same).
    clusters.push({ binDir, rootDir, dataDir: join(rootDir, 'data'), socketDir: rootDir, port: 0, isStarted: false });
  }
  const destroyClusters = () => {
    for (const cluster of clusters) destroyCluster(cluster);
  };
  let child: ChildProcess | undefined;
  let interruptedBy: NodeJS.Signals | undefined;

  // Ctrl-C and friends: let the command finish its own shutdown, then clean up on the normal path.
  // A signal during setup (no command yet) cleans up at once.
  const onSignal = (signal: NodeJS.Signals) => {
    interruptedBy = signal;
    if (child && child.exitCode === null) {
      child.kill(signal);
      return;
    }
    destroyClusters();
    process.exit(exitCodeOf(null, signal));
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, onSignal);
  process.on('exit', destroyClusters);

  try {
    const databaseUrls: string[] = [];
    for (const cluster of clusters) {
      const password = randomBytes(18).toString('hex');
      cluster.port = await findFreePort();
      await startCluster(cluster, password, isDurable);
      databaseUrls.push(`postgres://${ROLE_NAME}:${password}@127.0.0.1:${cluster.port}/${DATABASE_NAME}`);
    }
    const ports = clusters.map((cluster) => `127.0.0.1:${cluster.port}`).join(', ');
    console.log(
      `with-postgres: PostgreSQL (${binDir}) on ${ports}, database ${DATABASE_NAME}${isDurable ? ', durable (fsync on)' : ''}; running: ${commandLine.join(' ')}`,
    );

    const env = { ...process.env, DATABASE_URL: databaseUrls[0], ...(clusterCount > 1 ? { DATABASE_URLS: databaseUrls.join(' ') } : {}) };
    const running = spawn(command, args, { stdio: 'inherit', env });
    child = running;
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      running.once('error', reject);
      running.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    return interruptedBy && code === 0 ? exitCodeOf(null, interruptedBy) : exitCodeOf(code, signal);
  } catch (error) {
    console.error(`with-postgres: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    destroyClusters();
    for (const signal of signals) process.off(signal, onSignal);
  }
}

process.exitCode = await main(process.argv.slice(2));
