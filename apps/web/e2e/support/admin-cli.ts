/**
 * The admin CLI as an organizer runs it (`npm run admin -- <command>`, apps/server/src/cli), on the
 * data dir of a test's own server. The embedded database admits one process at a time, so the
 * server must be stopped (`stop({ keepData: true })`) while the CLI runs, as the CLI itself tells
 * an organizer who forgets.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** How long one CLI run may take, in ms (tsx starts in a few seconds; an export draws a PNG per ticket). */
const ADMIN_TIMEOUT_MS = 120_000;

/**
 * Runs `npm run admin -- ...args` on `dataDir` (the embedded database; never a `DATABASE_URL` of
 * the environment) and returns what it printed on stdout.
 * @throws Error with the CLI's output when it exits with another code than 0 or times out.
 */
export function runAdmin(dataDir: string, args: readonly string[]): string {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const run = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: REPO_ROOT,
    env: { ...env, DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: ADMIN_TIMEOUT_MS,
  });
  if (run.status !== 0) {
    throw new Error(`npm run admin -- ${args.join(' ')} exited ${run.status ?? run.signal}:\n${run.stdout}\n${run.stderr}`);
  }
  return run.stdout;
}
