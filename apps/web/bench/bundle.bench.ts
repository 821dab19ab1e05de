/**
 * `npm run bench:bundle`: what the browser must download before the sign-in form is usable, from
 * the production build (issue 13 item 1). Reads `dist/index.html` (the `<script type="module">`, the
 * `<link rel="modulepreload">` and `<link rel="stylesheet">` it names) and Vite's build manifest
 * (`dist/.vite/manifest.json`): the entry chunk plus everything it imports statically, recursively,
 * with their CSS. Dynamic imports (the lazily loaded screens, the QR decoder) are listed apart: they
 * are not part of the first load. Sizes are gzip level 9 bytes (what the server's `.gz` siblings
 * hold; 1 kB = 1000 bytes), printed against the goal of 110 kB gzip of JavaScript as a ratio.
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

/** Issue 13: first-load JavaScript, gzip, in bytes. */
const GOAL_JS_GZIP_BYTES = 110_000;
const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
const DIST_DIR = join(WEB_DIR, 'dist');
const MANIFEST_FILE = join(DIST_DIR, '.vite', 'manifest.json');

/** One chunk of Vite's build manifest (https://vite.dev/guide/backend-integration). */
interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

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

/**
 * Files index.html makes the browser fetch up front: module scripts and module preloads (the
 * bundle's graph), classic scripts (from public/, outside the graph) and stylesheets.
 */
function filesNamedByIndexHtml(html: string): { scripts: Set<string>; classicScripts: Set<string>; styles: Set<string> } {
  const scripts = new Set<string>();
  const classicScripts = new Set<string>();
  const styles = new Set<string>();
  const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const isScript = tag.startsWith('<script');
    const isModuleScript = isScript && attribute(tag, 'type') === 'module';
    const rel = attribute(tag, 'rel');
    const url = isScript ? attribute(tag, 'src') : attribute(tag, 'href');
    if (!url?.startsWith('/') || url.startsWith('//')) continue;
    const file = url.slice(1);
    if (isModuleScript || rel === 'modulepreload') scripts.add(file);
    else if (isScript) classicScripts.add(file);
    else if (rel === 'stylesheet') styles.add(file);
  }
  return { scripts, classicScripts, styles };
}

/** The entry chunk and its static import graph: the JavaScript and CSS files loaded before the app runs. */
function firstLoadOf(manifest: Manifest): { scripts: Set<string>; styles: Set<string>; lazy: Set<string> } {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry && chunk.src === 'index.html');
  if (!entry) throw new Error('The build manifest has no entry chunk for index.html.');
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const lazyKeys = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const dynamic of chunk.dynamicImports ?? []) lazyKeys.add(dynamic);
  };
  visit(entry[0]);
  const lazy = new Set([...lazyKeys].map((key) => manifest[key]?.file).filter((file): file is string => file !== undefined && !scripts.has(file)));
  return { scripts, styles, lazy };
}

if (!existsSync(join(DIST_DIR, 'index.html'))) {
  console.log('apps/web/dist is not built: building it (vite build)…');
  execFileSync('npx', ['vite', 'build'], { cwd: WEB_DIR, stdio: 'inherit' });
}
if (!existsSync(MANIFEST_FILE)) {
  console.error(`${MANIFEST_FILE} is missing: the build must set build.manifest (apps/web/vite.config.ts). Rebuild with \`npm run build -w @gatecheck/web\`.`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as Manifest;
const fromHtml = filesNamedByIndexHtml(readFileSync(join(DIST_DIR, 'index.html'), 'utf8'));
const fromManifest = firstLoadOf(manifest);
const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((file) => b.has(file));
if (!sameSet(fromHtml.scripts, fromManifest.scripts) || !sameSet(fromHtml.styles, fromManifest.styles)) {
  console.error('index.html and the build manifest disagree about the first load:');
  console.error({ indexHtml: fromHtml, manifest: fromManifest });
  process.exit(1);
}

const scripts = [...fromManifest.scripts, ...fromHtml.classicScripts].map(measure).sort((a, b) => b.gzipBytes - a.gzipBytes);
const styles = [...fromManifest.styles].map(measure);
const lazy = [...fromManifest.lazy].map(measure).sort((a, b) => b.gzipBytes - a.gzipBytes);
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
    ratio: `${ratio.toFixed(2)} of the 110 kB goal`,
  })}`,
);
