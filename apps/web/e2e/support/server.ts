/**
 * The real Gatecheck server for the end-to-end suite, started exactly as a person starts it
 * (`npm run start -w @gatecheck/server`) on a fresh data dir, a free port of 127.0.0.1 and the
 * embedded database. It serves the built web app (apps/web/dist: `npm run test:e2e` builds it first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  /** SIGTERM to the whole process group, SIGKILL after 10 s; deletes the data dir. */
  stop(): Promise<void>;
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

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || hasExited(child)) return;
  try {
    // Negative pid: the whole group (npm, sh, tsx and node), since npm does not always pass signals on.
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts a server and waits until it answers HTTP and has written its demo tickets.
 * @param name a label for the data dir and log file (e.g. `worker-0`).
 * @throws Error with the server's output when it exits early or does not answer within 120 s, or
 *   when the web app has not been built.
 */
export async function startGatecheckServer(name: string): Promise<GatecheckServer> {
  if (!existsSync(WEB_DIST_INDEX)) {
    throw new Error(`The web app is not built (${WEB_DIST_INDEX} is missing): run \`npm run build -w @gatecheck/web\` or use \`npm run test:e2e\`.`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), `gatecheck-e2e-${name}-`));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(join(LOG_DIR, `server-${name}.log`));
  // The suite always runs on its own fresh embedded database, even under `with-postgres`.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn('npm', ['run', 'start', '-w', '@gatecheck/server'], {
    cwd: REPO_ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
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

  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const finished = await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
    if (!finished) {
      killGroup(child, 'SIGKILL');
      await exited;
    }
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const ticketsCsv = join(dataDir, 'demo-tickets', 'tickets.csv');
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    for (;;) {
      if (hasExited(child)) throw new Error(`The server exited (code ${child.exitCode}, signal ${child.signalCode}) before answering.`);
      if (Date.now() > deadline) throw new Error(`The server did not answer at ${url} within ${START_TIMEOUT_MS} ms.`);
      const isAnswering = await fetch(`${url}/`).then((response) => response.ok, () => false);
      if (isAnswering && existsSync(ticketsCsv) && readFileSync(ticketsCsv, 'utf8').trim().length > 0) break;
      await sleep(POLL_INTERVAL_MS);
    }
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n--- server output ---\n${output}`);
  }
  return { url, dataDir, output: () => output, stop };
}
