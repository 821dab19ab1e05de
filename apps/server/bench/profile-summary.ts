/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile's time went,
 * as self time (ms and % of the profile) per package (`node_modules/<name>`, `node:` internals, our
 * `src/…` files) and per function, the `top` (default 25) of each. Used with bench:verify's
 * `BENCH_VERIFY_CPU_PROF_DIR` (docs/performance.md).
 * @throws when the file is not a V8 `.cpuprofile` (JSON with `nodes`, `samples`, `timeDeltas`).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples)) throw new Error(`${file} is not a V8 CPU profile`);
const top = Number(topArg ?? 25);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

/** The package a script URL belongs to: `node_modules/<name>`, `node:<module>`, a source path, or the V8 pseudo-frame. */
function packageOf(url: string, functionName: string): string {
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModule?.[1]) return nodeModule[1];
  if (url.startsWith('node:')) return url;
  if (!url) return `(${functionName || 'native'})`;
  const source = /\/(src|dist|packages)\/(.*)$/.exec(url);
  return source ? `${source[1]}/${source[2]}` : url;
}

const byPackage = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  const pkg = packageOf(frame.url, frame.functionName);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  const fn = `${frame.functionName || '(anonymous)'} ${pkg}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
}

const rows = (map: Map<string, number>) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, ms: Math.round(micros / 1000), percent: ((100 * micros) / total).toFixed(1) }));
console.log(`${file}: ${Math.round(total / 1000)} ms sampled`);
console.table(rows(byPackage));
console.table(rows(byFunction));
