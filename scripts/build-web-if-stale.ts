/**
 * The first step of `npm start`, `npm run native:sync` and `npm run test:e2e` (issue 13 item 3,
 * docs/decisions/049 and 064): builds the web app (vite build) only when apps/web/dist was not built
 * from the sources as they are now. The SHA-256 of every input (apps/web's src, public, index.html,
 * configs, .env files and package.json, packages/contract/src, the lockfile, and the VITE_*
 * environment variables vite bakes into the bundle, e.g. VITE_API_BASE_URL of docs/native.md) is
 * stored in apps/web/dist/.vite/source-hash after a build; a run whose hash matches and whose
 * dist/index.html exists skips the build. A plain `npm run build -w @gatecheck/web` writes no hash,
 * so the next run here builds again. `--force` builds anyway.
 *
 * Run with `node scripts/build-web-if-stale.ts` (Node 24 strips the types). Exits with vite's exit
 * code when the build fails.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB_DIR = join(REPO_ROOT, 'apps/web');
const HASH_FILE = join(WEB_DIR, 'dist/.vite/source-hash');
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/prerender-plugin.ts',
  'apps/web/boot-plugin.ts',
  'apps/web/tsconfig.json',
  'apps/web/package.json',
  'apps/web/.env',
  'apps/web/.env.local',
  'apps/web/.env.production',
  'apps/web/.env.production.local',
  'packages/contract/src',
  'packages/contract/package.json',
  'tsconfig.base.json',
  'package-lock.json',
];
/** Test files do not reach the bundle: editing one does not rebuild. */
const IS_TEST_FILE = /\.test\.tsx?$/;

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
}

/** SHA-256 (hex) over the path and content of every input file and the VITE_* environment variables. */
function sourceHash(): string {
  const hash = createHash('sha256');
  const files = INPUTS.flatMap((input) => filesUnder(join(REPO_ROOT, input)))
    .filter((file) => !IS_TEST_FILE.test(file))
    .map((file) => relative(REPO_ROOT, file))
    .sort();
  for (const file of files) {
    hash.update(file);
    hash.update('\0');
    hash.update(readFileSync(join(REPO_ROOT, file)));
    hash.update('\0');
  }
  const viteEnv = Object.entries(process.env)
    .filter(([name]) => name.startsWith('VITE_'))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [name, value] of viteEnv) hash.update(`env:${name}=${value ?? ''}\0`);
  return hash.digest('hex');
}

const hash = sourceHash();
const builtHash = existsSync(HASH_FILE) ? readFileSync(HASH_FILE, 'utf8').trim() : undefined;
if (!process.argv.includes('--force') && builtHash === hash && existsSync(join(WEB_DIR, 'dist/index.html'))) {
  console.log('Web app is up to date (apps/web/dist was built from these sources): not rebuilding.');
} else {
  const startedAt = performance.now();
  const build = spawnSync('npm', ['run', 'build', '-w', '@gatecheck/web'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // vite empties dist on each build: the hash is written after it, next to the build manifest.
  writeFileSync(HASH_FILE, `${hash}\n`);
  console.log(`Web app built in ${Math.round(performance.now() - startedAt)} ms.`);
}
