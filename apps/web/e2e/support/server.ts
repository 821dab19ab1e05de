/**
 * The real Gatecheck server for the end-to-end suite, started exactly as a person starts it
 * (`npm run start -w @gatecheck/server`) on a fresh data dir, a free port of 127.0.0.1 and the
 * embedded database. It serves the built web app (apps/web/dist: `npm run test:e2e` builds it first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const WEB_DIST_INDEX = join(REPO_ROOT, 'apps/web/dist/index.html');
/** Server logs are kept beside the screenshots (gitignored) so a failed run can be read afterwards. */
const LOG_DIR = join(REPO_ROOT, 'apps/web/e2e/artifacts');
/** How long the server may take to migrate, seed and answer, in ms (seeding hashes passwords and draws 200+ QR PNGs). */
const START_TIMEOUT_MS = 120_000;
/** How long it may take to finish after SIGTERM before it is killed, in ms. */
const STOP_TIMEOUT_MS = 10_000;
const POLL_INTERVAL_MS = 200;

/** A running server. */
export interface GatecheckServer {
  /** Origin of the app, e.g. `http://127.0.0.1:41234` (the API is under `/api`). */
  readonly url: string;
  /** The server's fresh `DATA_DIR` (holds `demo-tickets/tickets.csv`). */
  readonly dataDir: string;
  /** Everything the server printed so far (for failure messages). */
  readonly output: () => string;
  /**
   * SIGTERM to the whole process group, SIGKILL after 10 s; deletes the data dir unless
   * `keepData` (to start again on it with `startGatecheckServer(name, { dataDir, port })`).
   */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** Where and on what to start: by default a fresh temp data dir and a free port. */
export interface StartOptions {
  /** An existing data dir (a restart keeps its database, sessions and check-ins). */
  dataDir?: string;
  /** A fixed port (a restart keeps the origin, so the browser keeps its session cookie). */
  port?: number;
  /** The address to listen on and to open the app at (default 127.0.0.1), e.g. a LAN address. */
  host?: string;
  /** Extra environment, e.g. `{ HTTPS: 'true' }` (the URL then starts with https://). */
  env?: Record<string, string>;
}

/**
 * True when the server at `url` answers `/` with a 2xx. Over https the certificate is not checked:
 * a self-signed one is the point of `HTTPS=true` on a LAN, and the browser checks it in the specs.
 */
function isAnswering(url: string): Promise<boolean> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const probe = request(`${url}/`, { rejectUnauthorized: false, headers: { accept: 'text/html' } }, (response) => {
      response.resume();
      resolve((response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300);
    });
    probe.once('error', () => resolve(false));
    probe.end();
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('No free port on 127.0.0.1.'))));
    });
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Signals the child's whole process group (npm, sh, tsx and node); false when the group is gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits until no process of the child's group is left; false after `timeoutMs`. */
async function waitForGroupExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (signalGroup(child, 0)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Starts a server and waits until it answers HTTP and has written its demo tickets.
 * @param name a label for the data dir and log file (e.g. `worker-0`).
 * @param options an existing data dir and port to restart on (see StartOptions).
 * @throws Error with the server's output when it exits early or does not answer within 120 s, or
 *   when the web app has not been built.
 */
export async function startGatecheckServer(name: string, options: StartOptions = {}): Promise<GatecheckServer> {
  if (!existsSync(WEB_DIST_INDEX)) {
    throw new Error(`The web app is not built (${WEB_DIST_INDEX} is missing): run \`npm run build -w @gatecheck/web\` or use \`npm run test:e2e\`.`);
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `gatecheck-e2e-${name}-`));
  const port = options.port ?? (await findFreePort());
  const host = options.host ?? '127.0.0.1';
  const scheme = options.env?.HTTPS === 'true' ? 'https' : 'http';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(join(LOG_DIR, `server-${name}.log`), { flags: options.dataDir ? 'a' : 'w' });
  // The suite always runs on its own fresh embedded database, even under `with-postgres`.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn('npm', ['run', 'start', '-w', '@gatecheck/server'], {
    cwd: REPO_ROOT,
    // PUBLIC_URL: the mailed reset links point at this server, as people open it. ALLOW_SIGNUP: the
    // sign-up screen is part of the suite (the server's default is off).
    env: { ...env, PORT: String(port), HOST: host, DATA_DIR: dataDir, PUBLIC_URL: url, ALLOW_SIGNUP: 'true', ...options.env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    log.write(chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async ({ keepData = false }: { keepData?: boolean } = {}) => {
    // The whole group: npm does not always pass signals on, and a restart needs the port free.
    signalGroup(child, 'SIGTERM');
    if (!(await waitForGroupExit(child, STOP_TIMEOUT_MS))) {
      signalGroup(child, 'SIGKILL');
      await waitForGroupExit(child, STOP_TIMEOUT_MS);
    }
    await exited;
    log.end();
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };

  const ticketsCsv = join(dataDir, 'demo-tickets', 'tickets.csv');
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    for (;;) {
      if (hasExited(child)) throw new Error(`The server exited (code ${child.exitCode}, signal ${child.signalCode}) before answering.`);
      if (Date.now() > deadline) throw new Error(`The server did not answer at ${url} within ${START_TIMEOUT_MS} ms.`);
      if ((await isAnswering(url)) && existsSync(ticketsCsv) && readFileSync(ticketsCsv, 'utf8').trim().length > 0) break;
      await sleep(POLL_INTERVAL_MS);
    }
  } catch (error) {
    await stop({ keepData: options.dataDir !== undefined });
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n--- server output ---\n${output}`);
  }
  return { url, dataDir, output: () => output, stop };
}
