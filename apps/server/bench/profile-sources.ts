/**
 * `npx tsx bench/profile-sources.ts <file.cpuprofile> <dist/server.js.map> [top]`: a V8 CPU profile
 * of the bundled server (bench:verify's `BENCH_VERIFY_CPU_PROF_DIR`), its self time per original
 * source (the bundle's lines mapped back through its source map: `node_modules/<package>` or our
 * `src/…`/`packages/…` file) and the inclusive time of the frames of each, the `top` (default 30)
 * of each, in ms and per cent of the non-idle time. With a fourth argument (a source, e.g.
 * `src/routes/tickets/index.ts`), samples before the first one with a frame of that source are left
 * out: the server's startup (module compiling, source-map parsing) is then not counted.
 * @throws when a file is not a V8 `.cpuprofile` or not a source map.
 */
import { readFileSync } from 'node:fs';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, mapFile, topArg, fromSource] = process.argv.slice(2);
if (!file || !mapFile) throw new Error('usage: bench/profile-sources.ts <file.cpuprofile> <server.js.map> [top] [first source]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples)) throw new Error(`${file} is not a V8 CPU profile`);
const map = new TraceMap(readFileSync(mapFile, 'utf8'));
const top = Number(topArg ?? 30);

/** The original source of a frame: a package, one of our files, a `node:` module or a V8 pseudo-frame. */
function sourceOf(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return `(${frame.functionName || 'native'})`;
  if (frame.url.startsWith('node:')) return 'node: internals';
  if (!frame.url.endsWith('server.js')) return frame.url;
  const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: Math.max(0, frame.columnNumber) });
  const source = position.source ?? '?';
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (nodeModule?.[1]) return nodeModule[1];
  return source.replace(/^(\.\.\/)+/, '');
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const sourceCache = new Map<number, string>();
const sourceOfNode = (id: number) => {
  let source = sourceCache.get(id);
  if (source === undefined) {
    const node = byId.get(id);
    source = node ? sourceOf(node.callFrame) : '?';
    sourceCache.set(id, source);
  }
  return source;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
let isCounting = fromSource === undefined;
profile.samples.forEach((id, index) => {
  const micros = profile.timeDeltas[index] ?? 0;
  const source = sourceOfNode(id);
  if (!isCounting) {
    for (let at: number | undefined = id; at !== undefined && !isCounting; at = parentOf.get(at)) isCounting = sourceOfNode(at) === fromSource;
    if (!isCounting) return;
  }
  if (source === '((idle))') return;
  busy += micros;
  self.set(source, (self.get(source) ?? 0) + micros);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) seen.add(sourceOfNode(at));
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
});

const rows = (totals: Map<string, number>) =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, ms: Math.round(micros / 1000), percent: ((100 * micros) / busy).toFixed(1) }));
console.log(`${file}: ${Math.round(busy / 1000)} ms busy (idle left out)`);
console.log('self time per source');
console.table(rows(self));
console.log('inclusive time per source (a frame of it anywhere on the stack)');
console.table(rows(inclusive));
