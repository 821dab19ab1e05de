/**
 * The compiled server (dist/server.js, built before the suite by helpers/build-server.ts) in a child
 * process, as `npm start` runs it (`node --enable-source-maps dist/server.js`, issue 13 item 3), for
 * tests of what only a process shows: the printed URL, exit codes, signals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** How the child ended: an exit code, or the signal that killed it. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A started server process. */
export interface ServerProcess {
  child: ChildProcess;
  /** Resolves to `http(s)://127.0.0.1:<port>` once it listens; rejects (with its output) if it exits first. */
  url: Promise<string>;
  /** Resolves when the process has ended. */
  exited: Promise<ServerExit>;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/**
 * Starts the compiled server (dist/server.js) with `env` over this process's environment, on a free port of 127.0.0.1,
 * with the embedded database unless `env.DATABASE_URL` is set. `options.wrapper` runs it under
 * another command (e.g. `['strace', '-f', '--']`); the child is then that command, leading its own
 * process group, so `process.kill(-child.pid, signal)` reaches the server too.
 */
export function startServer(env: Record<string, string>, options: { wrapper?: string[] } = {}): ServerProcess {
  const [command = process.execPath, ...wrapperArgs] = options.wrapper ?? [];
  const serverArgs = ['--enable-source-maps', 'dist/server.js'];
  const child = spawn(command, options.wrapper ? [...wrapperArgs, process.execPath, ...serverArgs] : serverArgs, {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: Boolean(options.wrapper),
  });
  let output = '';
  const exited = new Promise<ServerExit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (https?:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1].replace('localhost', '127.0.0.1'));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then(({ code, signal }) => reject(new Error(`server exited (${code ?? signal}) before listening:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
}
