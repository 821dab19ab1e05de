/**
 * `npm run bench:bundle`: what the browser must download before the sign-in form is usable, from
 * the production build (issue 13 item 1; reading the first load: ./first-load.ts). Reads `dist/index.html` (the `<script type="module">`, the
 * `<link rel="modulepreload">` and `<link rel="stylesheet">` it names) and Vite's build manifest
 * (`dist/.vite/manifest.json`): the entry chunk plus everything it imports statically, recursively,
 * with their CSS. Dynamic imports (the lazily loaded screens, the QR decoder) are listed apart: they
 * are not part of the first load. Sizes are gzip level 9 bytes (what the server's `.gz` siblings
 * hold; 1 kB = 1000 bytes), printed against the goal of 140 kB gzip of JavaScript as a ratio (React
 * on react-dom, docs/decisions/081; it was 110 kB on Preact, decision 063).
 *
 * Builds the app first when `dist/index.html` is missing; exits 1 when the manifest is missing (a
 * build without `build.manifest`) or when index.html and the manifest disagree about the first load.
 * Prints one `BENCH_RESULT {json}` line for `npm run bench` (scripts/bench.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DIST_DIR, MANIFEST_FILE, inlineScriptsOf, readFirstLoad } from './first-load.ts';

/** First-load JavaScript, gzip, in bytes: React on react-dom with the sign-in screen prerendered (docs/decisions/081). */
const GOAL_JS_GZIP_BYTES = 140_000;
const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));

interface Asset {
  file: string;
  rawBytes: number;
  gzipBytes: number;
}

function measure(file: string): Asset {
  const content = readFileSync(join(DIST_DIR, file));
  return { file, rawBytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
}

function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

if (!existsSync(join(DIST_DIR, 'index.html'))) {
  console.log('apps/web/dist is not built: building it (vite build)…');
  execFileSync('npx', ['vite', 'build'], { cwd: WEB_DIR, stdio: 'inherit' });
}
if (!existsSync(MANIFEST_FILE)) {
  console.error(`${MANIFEST_FILE} is missing: the build must set build.manifest (apps/web/vite.config.ts). Rebuild with \`npm run build -w @gatecheck/web\`.`);
  process.exit(1);
}
let firstLoad: ReturnType<typeof readFirstLoad>;
try {
  firstLoad = readFirstLoad();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
// The boot script is inside index.html (docs/decisions/099): counted as first-load JavaScript on its own.
const inlineScripts = inlineScriptsOf(readFileSync(join(DIST_DIR, 'index.html'), 'utf8')).map((code, index) => {
  const content = Buffer.from(code);
  return { file: `index.html inline script ${index + 1}`, rawBytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
});
const scripts = [...[...firstLoad.scripts, ...firstLoad.classicScripts].map(measure), ...inlineScripts].sort((a, b) => b.gzipBytes - a.gzipBytes);
const styles = [...firstLoad.styles].map(measure);
const lazy = [...firstLoad.lazy].map(measure).sort((a, b) => b.gzipBytes - a.gzipBytes);
const sum = (assets: Asset[], key: 'rawBytes' | 'gzipBytes') => assets.reduce((total, asset) => total + asset[key], 0);
const jsGzip = sum(scripts, 'gzipBytes');
const cssGzip = sum(styles, 'gzipBytes');

console.log('First load of the sign-in screen (index.html + the static import graph of its entry chunk):\n');
printTable(
  ['file', 'raw', 'gzip'],
  [...scripts, ...styles].map((asset) => [asset.file, kB(asset.rawBytes), kB(asset.gzipBytes)]),
);
console.log(`\nLoaded later (dynamic imports of the first load; the largest ${Math.min(lazy.length, 8)} of ${lazy.length}):\n`);
printTable(
  ['file', 'raw', 'gzip'],
  lazy.slice(0, 8).map((asset) => [asset.file, kB(asset.rawBytes), kB(asset.gzipBytes)]),
);
const ratio = jsGzip / GOAL_JS_GZIP_BYTES;
console.log('');
printTable(
  ['first load', 'files', 'raw', 'gzip', 'goal', 'gzip / goal'],
  [
    ['JavaScript', String(scripts.length), kB(sum(scripts, 'rawBytes')), kB(jsGzip), kB(GOAL_JS_GZIP_BYTES), ratio.toFixed(2)],
    ['CSS', String(styles.length), kB(sum(styles, 'rawBytes')), kB(cssGzip), '-', '-'],
  ],
);
console.log(`\nFirst-load JavaScript: ${kB(jsGzip)} gzip = ${ratio.toFixed(2)} × the goal of ${kB(GOAL_JS_GZIP_BYTES)} (${ratio <= 1 ? 'within' : 'over'} the goal).`);
console.log(
  `BENCH_RESULT ${JSON.stringify({
    name: 'bench:bundle',
    figure: `first-load JS ${kB(jsGzip)} gzip (CSS ${kB(cssGzip)})`,
    ratio: `${ratio.toFixed(2)} of the ${kB(GOAL_JS_GZIP_BYTES)} goal`,
  })}`,
);
