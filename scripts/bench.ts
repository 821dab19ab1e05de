/**
 * `npm run bench` (issue 13 item 1): runs every `bench:*` script of the root package.json, one
 * after another (they share two cores: in parallel they would measure each other), shows each
 * one's own output as it runs, then prints one summary table: benchmark, headline figure, ratio,
 * exit status and wall time (s).
 *
 * A benchmark states its headline in one line `BENCH_RESULT {"name", "figure", "ratio"}` (JSON);
 * for one that prints none, the table shows its last lines that mention a ratio (`ratio`, `×`).
 * Benchmarks never fail on a timing; a benchmark that exits non-zero (e.g. bench:decode below its
 * required pass count, or a missing browser) is marked `exit N` and the run goes on. Exits 1 when
 * any benchmark failed. `node scripts/bench.ts bench:bundle bench:decode` runs only those; bench:soak
 * (30 minutes) runs only so.
 * Not part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Table from 'cli-table3';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULT_PREFIX = 'BENCH_RESULT ';
/** The summary's widest cell, in characters: a long fallback line is cut. */
const MAX_CELL = 70;

interface Summary {
  name: string;
  figure: string;
  ratio: string;
  status: string;
  seconds: number;
}

/** Benchmarks that run only when named: bench:soak takes 30 minutes (docs/decisions/124). */
const ONLY_WHEN_NAMED: readonly string[] = ['bench:soak'];

/** `bench:*` scripts of the root package.json, in their order there, but those of ONLY_WHEN_NAMED. */
function benchScripts(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  return Object.keys(manifest.scripts).filter((name) => name.startsWith('bench:') && !ONLY_WHEN_NAMED.includes(name));
}

/** Runs `npm run <name>`, echoing its output; resolves to its output and exit code. */
function run(name: string): Promise<{ output: string; code: number }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('close', (code, signal) => resolve({ output, code: code ?? (signal ? 128 : 1) }));
  });
}

function cut(text: string): string {
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** The benchmark's BENCH_RESULT line, or its last two lines that mention a ratio. */
function headline(output: string): { figure: string; ratio: string } {
  const lines = output.split('\n').map((line) => line.trim());
  const result = lines.findLast((line) => line.startsWith(RESULT_PREFIX));
  if (result) {
    try {
      const parsed = JSON.parse(result.slice(RESULT_PREFIX.length)) as { figure?: string; ratio?: string };
      return { figure: parsed.figure ?? '', ratio: parsed.ratio ?? '' };
    } catch {
      // Not JSON: fall through to the ratio lines.
    }
  }
  // Table borders and headers (console.table, cli-table) say nothing on their own.
  const ratioLines = lines.filter((line) => /ratio|×/i.test(line) && !line.startsWith(RESULT_PREFIX) && !/^[│┌├└|+-]/.test(line));
  return { figure: ratioLines.slice(-2).map(cut).join('\n') || '(no headline: see its output above)', ratio: '' };
}

const requested = process.argv.slice(2);
const names = requested.length > 0 ? requested : benchScripts();
const summaries: Summary[] = [];
for (const name of names) {
  console.log(`\n=== npm run ${name} ===\n`);
  const startedAt = performance.now();
  const { output, code } = await run(name);
  summaries.push({ name, ...headline(output), status: code === 0 ? 'ok' : `exit ${code}`, seconds: (performance.now() - startedAt) / 1000 });
}

const table = new Table({ head: ['benchmark', 'result', 'ratio', 'status', 'time'], style: { head: [], border: [] } });
for (const summary of summaries) table.push([summary.name, summary.figure, summary.ratio, summary.status, `${summary.seconds.toFixed(0)} s`]);
console.log(`\nSummary (${new Date().toISOString()}):`);
console.log(table.toString());
if (summaries.some((summary) => summary.status !== 'ok')) process.exitCode = 1;
