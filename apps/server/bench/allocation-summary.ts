/**
 * `npx tsx bench/allocation-summary.ts <file.heapprofile> <dist/server.js.map> [top] [per]`: a
 * sampling heap profile of the bundled server (bench/allocation-profile.ts, garbage included) summed
 * per allocating function (its original source and line through the bundle's source map) and per
 * source (`node_modules/<package>` or our file), the `top` (default 30) of each, in KB and per
 * cent of all sampled bytes; with `per` (e.g. the approvals of the run), also bytes per one of them.
 * @throws when a file is not a V8 heap profile or not a source map.
 */
import { readFileSync } from 'node:fs';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

interface HeapNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
  samples?: { size: number; nodeId: number }[];
}

const [file, mapFile, topArg, perArg] = process.argv.slice(2);
if (!file || !mapFile) throw new Error('usage: bench/allocation-summary.ts <file.heapprofile> <server.js.map> [top] [per]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as HeapProfile;
if (!profile.head?.callFrame) throw new Error(`${file} is not a V8 heap profile`);
const map = new TraceMap(readFileSync(mapFile, 'utf8'));
const top = Number(topArg ?? 30);
const per = perArg === undefined ? undefined : Number(perArg);

/** A frame as `function@source:line` (ours and packages through the source map) and its source alone. */
function placeOf(frame: HeapNode['callFrame']): { where: string; source: string } {
  if (!frame.url) return { where: `(${frame.functionName || 'native'})`, source: `(${frame.functionName || 'native'})` };
  if (frame.url.startsWith('node:')) return { where: `${frame.functionName || '(anonymous)'}@${frame.url}`, source: 'node: internals' };
  if (!frame.url.endsWith('server.js')) return { where: `${frame.functionName || '(anonymous)'}@${frame.url}:${frame.lineNumber + 1}`, source: frame.url };
  const position = originalPositionFor(map, { line: frame.lineNumber + 1, column: Math.max(0, frame.columnNumber) });
  const original = (position.source ?? '?').replace(/^(\.\.\/)+/, '');
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(original);
  const source = nodeModule?.[1] ?? original;
  return { where: `${position.name ?? (frame.functionName || '(anonymous)')}@${original.replace(/.*node_modules\//, '')}:${position.line ?? '?'}`, source };
}

const byFunction = new Map<string, number>();
const bySource = new Map<string, number>();
let total = 0;
const visit = (node: HeapNode) => {
  if (node.selfSize > 0) {
    const { where, source } = placeOf(node.callFrame);
    byFunction.set(where, (byFunction.get(where) ?? 0) + node.selfSize);
    bySource.set(source, (bySource.get(source) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const child of node.children) visit(child);
};
visit(profile.head);

const rows = (totals: Map<string, number>) =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, bytes]) => ({ name, KB: Math.round(bytes / 1024), percent: ((100 * bytes) / total).toFixed(1), ...(per ? { 'bytes each': Math.round(bytes / per) } : {}) }));
console.log(`${file}: ${Math.round(total / 1024)} KB sampled${per ? `, ${Math.round(total / per)} bytes per each of ${per}` : ''}`);
console.log('allocated per function (self)');
console.table(rows(byFunction));
console.log('allocated per source (self)');
console.table(rows(bySource));
