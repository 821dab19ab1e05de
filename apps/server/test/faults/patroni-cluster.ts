/**
 * A PostgreSQL high-availability cluster of the test's own on 127.0.0.1, as docs/deployment.md sets
 * one up (docs/decisions/123): one etcd member, two PostgreSQL 15 nodes each run by Patroni with
 * `synchronous_mode: true`, and HAProxy sending connections to whichever node Patroni's REST API
 * says is the primary. The Patroni and HAProxy configurations are rendered from the documented files
 * in deploy/ha/ (`renderTemplate`), so the test runs what the documentation says.
 * Every process runs on free ports with its data in one temp dir; `destroy()` kills them all (by the
 * process ids this module started or read from PostgreSQL's postmaster.pid, never by name) and
 * deletes the dir, also when the test failed half-way. Needs Debian's patroni, etcd-server and
 * haproxy packages, and root (Patroni and PostgreSQL run as the `postgres` user).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './postgres-cluster.ts';

/** The documented configurations (deploy/ha/), rendered by the test. */
export const HA_TEMPLATES_DIR = path.resolve(import.meta.dirname, '../../../../deploy/ha');
const SERVER_USER = 'postgres';
const BIN_DIR = '/usr/lib/postgresql/15/bin';

/**
 * `template` with every `{{NAME}}` replaced by `values[NAME]`.
 * @throws when a placeholder has no value or a value names no placeholder (the two would drift).
 */
export function renderTemplate(template: string, values: Record<string, string | number>): string {
  const used = new Set<string>();
  const rendered = template.replace(/\{\{([A-Z0-9_]+)\}\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {{${name}}}`);
    used.add(name);
    return String(value);
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length > 0) throw new Error(`values for no placeholder: ${unused.join(', ')}`);
  return rendered;
}

/** One Patroni-managed PostgreSQL node. */
export interface HaNode {
  name: string;
  pgPort: number;
  restPort: number;
  dataDir: string;
  /** The Patroni process while it runs (undefined after `killNode`). */
  patroni: ChildProcess | undefined;
}

/** What Patroni's REST API says of a member (GET /cluster). */
export interface HaMember {
  name: string;
  role: string;
  state: string;
  timeline?: number;
}

/** A running cluster. */
export interface HaCluster {
  nodes: [HaNode, HaNode];
  /** HAProxy's port: Gatecheck's DATABASE_URL points here. */
  proxyPort: number;
  /** `postgres://gatecheck:…@127.0.0.1:<port>/gatecheck` for `port` (HAProxy's or a node's). */
  urlThrough(port: number): string;
  /** The members as the REST API of a node still answering sees them; [] when none answers. */
  members(): Promise<HaMember[]>;
  /** The node holding the leader lock with PostgreSQL running, or undefined. */
  leader(): Promise<HaNode | undefined>;
  /** Waits (up to `timeoutMs`) for a running leader and a streaming synchronous standby. */
  waitForLeaderAndSyncStandby(timeoutMs: number): Promise<{ leader: HaNode; standby: HaNode }>;
  /** SIGKILL to `node`'s postmaster only: Patroni restarts PostgreSQL in place (a crash-restart). */
  crashPostmaster(node: HaNode): void;
  /** SIGKILL to `node`'s Patroni and its postmaster together: the machine gone, the standby takes over. */
  killNode(node: HaNode): void;
  /**
   * SIGSTOP to the WAL receiver of standby `node` (its pid from `pg_stat_wal_receiver`): it takes no
   * WAL until the returned function sends SIGCONT (safe to call twice).
   * @throws when `node` has no WAL receiver (not a streaming standby).
   */
  holdWalReceiver(node: HaNode): () => void;
  /** Everything the processes printed, for a failing test's message. */
  logs(): string;
  /** Kills every process and deletes the temp dir. Safe to call twice. */
  destroy(): Promise<void>;
}

function userIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** The pid in the first line of `dataDir`/postmaster.pid, if PostgreSQL runs there. */
function postmasterPid(dataDir: string): number | undefined {
  const file = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function kill(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
  return response.json();
}

/**
 * Starts etcd, two Patroni nodes and HAProxy, waits for a leader with a synchronous standby, and
 * creates the role and database `gatecheck`.
 * @throws when a tool is missing, not root, or the cluster does not form within `timeoutMs`.
 */
export async function startHaCluster(timeoutMs = 120_000): Promise<HaCluster> {
  if (process.getuid?.() !== 0) throw new Error('the failover test runs Patroni as the postgres user: run it as root');
  for (const tool of ['etcd', 'patroni', 'haproxy', path.join(BIN_DIR, 'postgres')]) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      throw new Error(`${tool} is missing: apt-get install -y --no-install-recommends patroni etcd-server etcd-client haproxy postgresql-15`);
    }
  }
  const rootDir = mkdtempSync(path.join(tmpdir(), 'gatecheck-faults-ha-'));
  const { uid, gid } = userIds();
  chmodSync(rootDir, 0o755);
  const children: ChildProcess[] = [];
  let output = '';
  const run = (name: string, command: string, args: string[], options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv } = {}) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, env: { ...process.env, ...options.env } });
    let isAtLineStart = true;
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      output += (isAtLineStart ? `[${name}] ` : '') + text.replace(/\n(?=.)/g, `\n[${name}] `);
      isAtLineStart = text.endsWith('\n');
      if (output.length > 400_000) output = output.slice(-200_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', (error) => keep(Buffer.from(`${error.message}\n`)));
    children.push(child);
    return child;
  };
  const nodes: HaNode[] = [];
  let isDestroyed = false;
  const killEverything = () => {
    for (const child of children) kill(child.pid, 'SIGKILL');
    for (const node of nodes) kill(postmasterPid(node.dataDir), 'SIGKILL');
  };
  // A worker that dies without running afterAll must not leave PostgreSQL and etcd behind.
  process.once('exit', killEverything);
  const destroy = async () => {
    if (isDestroyed) return;
    isDestroyed = true;
    process.removeListener('exit', killEverything);
    const pids = nodes.map((node) => postmasterPid(node.dataDir));
    killEverything();
    // PostgreSQL's backends end by themselves once their postmaster is gone; wait for their files.
    const exited = children.filter((child) => child.exitCode === null && child.signalCode === null).map((child) => new Promise((resolve) => child.once('exit', resolve)));
    await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    for (const pid of pids) {
      for (let waited = 0; pid !== undefined && waited < 50 && isAlive(pid); waited++) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    rmSync(rootDir, { recursive: true, force: true });
  };
  try {
    const [etcdClient, etcdPeer, proxyPort, ...nodePorts] = await Promise.all(Array.from({ length: 7 }, () => freePort()));
    if (etcdClient === undefined || etcdPeer === undefined || proxyPort === undefined) throw new Error('no free ports');
    const etcdDir = path.join(rootDir, 'etcd');
    run('etcd', 'etcd', [
      '--name', 'e1', '--data-dir', etcdDir,
      '--listen-client-urls', `http://127.0.0.1:${etcdClient}`, '--advertise-client-urls', `http://127.0.0.1:${etcdClient}`,
      '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
      '--initial-cluster', `e1=http://127.0.0.1:${etcdPeer}`, '--log-level', 'warn',
    ]);
    await waitFor(timeoutMs, async () => (await fetch(`http://127.0.0.1:${etcdClient}/health`, { signal: AbortSignal.timeout(1_000) })).ok, () => output);

    const passwords = { SUPERUSER_PASSWORD: randomBytes(12).toString('hex'), REPLICATION_PASSWORD: randomBytes(12).toString('hex'), REWIND_PASSWORD: randomBytes(12).toString('hex') };
    const patroniTemplate = readFileSync(path.join(HA_TEMPLATES_DIR, 'patroni.yml'), 'utf8');
    for (const [index, name] of ['node1', 'node2'].entries()) {
      const pgPort = nodePorts[index * 2];
      const restPort = nodePorts[index * 2 + 1];
      if (pgPort === undefined || restPort === undefined) throw new Error('no free ports');
      const nodeDir = path.join(rootDir, name);
      mkdirSync(nodeDir, { mode: 0o700 });
      chownSync(nodeDir, uid, gid);
      const node: HaNode = { name, pgPort, restPort, dataDir: path.join(nodeDir, 'data'), patroni: undefined };
      const configFile = path.join(nodeDir, 'patroni.yml');
      writeFileSync(
        configFile,
        renderTemplate(patroniTemplate, {
          NODE_NAME: name, NODE_HOST: '127.0.0.1', REST_PORT: restPort, PG_PORT: pgPort, ETCD_HOSTS: `127.0.0.1:${etcdClient}`,
          DATA_DIR: node.dataDir, PGPASS_FILE: path.join(nodeDir, 'pgpass'), SOCKET_DIR: nodeDir, CLIENT_NETWORK: '127.0.0.1/32', ...passwords,
        }),
      );
      chownSync(configFile, uid, gid);
      nodes.push(node);
      node.patroni = run(name, 'patroni', [configFile], { uid, gid, env: { HOME: nodeDir, PATH: `${BIN_DIR}:${process.env.PATH ?? ''}` } });
      // The first node bootstraps alone, so which one leads at the start is known and the second clones it.
      if (index === 0) {
        await waitFor(timeoutMs, async () => {
          const health = (await getJson(`http://127.0.0.1:${restPort}/patroni`)) as { role?: string; state?: string };
          return health.state === 'running' && (health.role === 'master' || health.role === 'primary');
        }, () => output);
      }
    }
    const [first, second] = nodes as [HaNode, HaNode];
    const haproxyFile = path.join(rootDir, 'haproxy.cfg');
    writeFileSync(
      haproxyFile,
      renderTemplate(readFileSync(path.join(HA_TEMPLATES_DIR, 'haproxy.cfg'), 'utf8'), {
        PROXY_HOST: '127.0.0.1', PROXY_PORT: proxyPort,
        NODE1_NAME: first.name, NODE1_HOST: '127.0.0.1', NODE1_PG_PORT: first.pgPort, NODE1_REST_PORT: first.restPort,
        NODE2_NAME: second.name, NODE2_HOST: '127.0.0.1', NODE2_PG_PORT: second.pgPort, NODE2_REST_PORT: second.restPort,
      }),
    );
    run('haproxy', 'haproxy', ['-db', '-f', haproxyFile]);

    const gatecheckPassword = randomBytes(12).toString('hex');
    const psql = (node: HaNode, sqlText: string): string => {
      const result = spawnSync('runuser', ['-u', SERVER_USER, '--', path.join(BIN_DIR, 'psql'), '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', path.dirname(node.dataDir), '-p', String(node.pgPort), '-U', 'postgres', '-d', 'postgres'], { encoding: 'utf8', input: sqlText });
      if (result.status !== 0) throw new Error(`psql failed: ${result.stdout}${result.stderr}`);
      return result.stdout;
    };
    psql(first, `CREATE ROLE gatecheck LOGIN PASSWORD '${gatecheckPassword}';\nCREATE DATABASE gatecheck OWNER gatecheck;\n`);
    const urlThrough = (port: number) => `postgres://gatecheck:${gatecheckPassword}@127.0.0.1:${port}/gatecheck`;

    const members = async (): Promise<HaMember[]> => {
      for (const node of nodes) {
        try {
          const cluster = (await getJson(`http://127.0.0.1:${node.restPort}/cluster`)) as { members?: HaMember[] };
          if (cluster.members) return cluster.members;
        } catch {
          // That node's Patroni is down: ask the other.
        }
      }
      return [];
    };
    const leader = async () => {
      const found = (await members()).find((member) => member.role === 'leader' && member.state === 'running');
      return nodes.find((node) => node.name === found?.name);
    };
    const cluster: HaCluster = {
      nodes: [first, second],
      proxyPort,
      urlThrough,
      members,
      leader,
      waitForLeaderAndSyncStandby: async (waitMs) => {
        let pair: { leader: HaNode; standby: HaNode } | undefined;
        await waitFor(waitMs, async () => {
          const list = await members();
          const lead = list.find((member) => member.role === 'leader' && member.state === 'running');
          const sync = list.find((member) => member.role === 'sync_standby' && (member.state === 'streaming' || member.state === 'running'));
          const leadNode = nodes.find((node) => node.name === lead?.name);
          const syncNode = nodes.find((node) => node.name === sync?.name);
          pair = leadNode && syncNode ? { leader: leadNode, standby: syncNode } : undefined;
          return pair !== undefined;
        }, () => `${JSON.stringify(pair)}\n${output}`);
        if (!pair) throw new Error('no leader with a sync standby');
        return pair;
      },
      crashPostmaster: (node) => {
        const pid = postmasterPid(node.dataDir);
        if (pid === undefined) throw new Error(`${node.name}: no postmaster.pid`);
        process.kill(pid, 'SIGKILL');
      },
      killNode: (node) => {
        const pid = postmasterPid(node.dataDir);
        if (pid === undefined || node.patroni?.pid === undefined) throw new Error(`${node.name}: not running`);
        process.kill(node.patroni.pid, 'SIGKILL');
        process.kill(pid, 'SIGKILL');
        node.patroni = undefined;
      },
      holdWalReceiver: (node) => {
        const pid = Number.parseInt(psql(node, 'SELECT pid FROM pg_stat_wal_receiver;\n').trim(), 10);
        if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${node.name} has no WAL receiver`);
        process.kill(pid, 'SIGSTOP');
        let isHeld = true;
        return () => {
          if (isHeld) kill(pid, 'SIGCONT');
          isHeld = false;
        };
      },
      logs: () => output,
      destroy,
    };
    await cluster.waitForLeaderAndSyncStandby(timeoutMs);
    return cluster;
  } catch (error) {
    await destroy();
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 250 ms until it returns true; errors count as false. */
async function waitFor(timeoutMs: number, check: () => Promise<boolean>, context: () => string): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms:\n${context().slice(-20_000)}`);
}
