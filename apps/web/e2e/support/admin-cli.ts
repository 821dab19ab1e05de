/**
 * The admin CLI as an organizer runs it (`npm run admin -- <command>`, apps/server/src/cli), on the
 * data dir of a test's own server. The embedded database admits one process at a time, so the
 * server must be stopped (`stop({ keepData: true })`) while the CLI runs, as the CLI itself tells
 * an organizer who forgets.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** How long one CLI run may take, in ms (tsx starts in a few seconds; an export draws a PNG per ticket). */
const ADMIN_TIMEOUT_MS = 120_000;

/**
 * Runs `npm run admin -- ...args` on `dataDir` (the embedded database; never a `DATABASE_URL` of
 * the environment) and resolves with what it printed on stdout. On timeout the CLI's whole process
 * group (npm, sh, tsx, node) is killed, so none of it keeps holding the database folder.
 * @throws Error with the CLI's output when it cannot start, exits with another code than 0, or
 *   runs longer than 120 s.
 */
export function runAdmin(dataDir: string, args: readonly string[]): Promise<string> {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: REPO_ROOT,
    env: { ...env, DATA_DIR: dataDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const command = `npm run admin -- ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone: 'close' follows.
      }
    }, ADMIN_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not start: ${error.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} exited ${code ?? signal}${signal === 'SIGKILL' ? ` (killed after ${ADMIN_TIMEOUT_MS} ms)` : ''}:\n${stdout}\n${stderr}`));
    });
  });
}
