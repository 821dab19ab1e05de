/**
 * Starting the compiled server (and other bench processes) as a child process, as an operator
 * would: `node …` in apps/server, its output into a log file. Shared by bench:verify and bench:soak.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** apps/server: where `node dist/server.js` runs. */
export const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/**
 * Waits until `file` (a child's stdout) matches `pattern` and resolves to its first group; rejects
 * with the log's tail when the child exits first.
 */
export function waitForLine(file: string, pattern: RegExp, exited: Promise<unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    let isDone = false;
    void exited.then(() => {
      if (!isDone) reject(new Error(`exited before printing ${pattern}:\n${readFileSync(file, 'utf8').slice(-2000)}`));
      isDone = true;
    });
    const poll = () => {
      if (isDone) return;
      const match = pattern.exec(readFileSync(file, 'utf8'));
      if (match?.[1]) {
        isDone = true;
        resolve(match[1]);
      } else setTimeout(poll, 50);
    };
    poll();
  });
}

/**
 * Spawns `args` with node in apps/server (environment: ours plus `env`), its stdout and stderr into
 * a fresh log file (as a deployment logs to a file), with an IPC channel. `exited` settles when it exits.
 */
export async function spawnLogged(name: string, args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; log: string; exited: Promise<void> }> {
  const log = path.join(await mkdtemp(path.join(tmpdir(), `gatecheck-bench-${name}-log-`)), 'output.log');
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, args, { cwd: SERVER_DIR, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd, 'ipc'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, log, exited };
}

/** A function that stops `child` with SIGTERM (unless it has exited), waits for it, then runs `cleanup`. */
export function stopper(child: ChildProcess, exited: Promise<void>, cleanup: () => Promise<void>): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await cleanup();
  };
}
