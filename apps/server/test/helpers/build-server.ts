/**
 * Vitest global setup of the server suite: builds dist/server.js (build.ts; skipped when it is up to
 * date) once before any test file runs, so the tests that start the server as a process
 * (helpers/server-process.ts) run the compiled server that `npm start` runs (issue 13 item 3), and
 * two test workers never build it at the same time.
 * @throws Error when the build fails (the suite then does not start).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export default function buildServer(): void {
  const build = spawnSync(process.execPath, ['build.ts'], { cwd: path.resolve(import.meta.dirname, '../..'), stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`building the server (apps/server/build.ts) failed with exit code ${build.status}`);
}
