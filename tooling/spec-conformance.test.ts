/**
 * docs/spec-conformance.md maps every requirement of SPEC §2–§9 to the source that implements it and
 * the tests that prove it (issue 3). These tests keep that table honest: every cited file exists and
 * every cited test name is really a test in the cited file, so a renamed or deleted test breaks here.
 *
 * Table row shape: `| §N-NN | requirement | `path`<br>`path` | `test path` "test name"<br>… |`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const TABLE_PATH = 'docs/spec-conformance.md';
const MIN_ROWS = 80;

interface Citation {
  path: string;
  testName: string;
}

interface Row {
  /** 1-based line number in the markdown file. */
  line: number;
  id: string;
  requirement: string;
  implementedIn: string[];
  provenBy: Citation[];
}

/** The rows of the requirement table: `|` lines after the `| id |` header and its separator. */
function parseTable(markdown: string): Row[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*id\s*\|/.test(line));
  if (header === -1) return [];
  const rows: Row[] = [];
  for (let index = header + 2; index < lines.length && lines[index]?.startsWith('|'); index++) {
    const cells = (lines[index] ?? '').split('|').slice(1, -1).map((cell) => cell.trim());
    const [id = '', requirement = '', implementedIn = '', provenBy = ''] = cells;
    rows.push({
      line: index + 1,
      id,
      requirement,
      implementedIn: [...implementedIn.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ''),
      provenBy: [...provenBy.matchAll(/`([^`]+)`\s*"([^"]+)"/g)].map((match) => ({ path: match[1] ?? '', testName: match[2] ?? '' })),
    });
  }
  return rows;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * True when `source` declares a test called `name`: `test('name'`, `it("name"`, `test.describe…`
 * excluded, and the `test.each([...])('name'` form (the name may hold a `%s` placeholder).
 */
function declaresTest(source: string, name: string): boolean {
  const quoted = `(['"\`])${escapeRegExp(name)}\\1`;
  return new RegExp(`(?:\\b(?:test|it)(?:\\.(?:only|skip|concurrent))?|\\b(?:test|it)\\.each\\([\\s\\S]*?\\))\\(\\s*${quoted}`).test(source);
}

/** Every problem of the table, one line each; [] when it is sound. `readFile` is relative to the repo. */
function tableProblems(markdown: string, fileExists: (path: string) => boolean, readFile: (path: string) => string): string[] {
  const rows = parseTable(markdown);
  const problems: string[] = [];
  if (rows.length < MIN_ROWS) problems.push(`only ${rows.length} rows, expected at least ${MIN_ROWS}`);
  const seen = new Set<string>();
  for (const row of rows) {
    const at = `line ${row.line} (${row.id || 'no id'})`;
    if (!/^§[2-9]-\d{2}$/.test(row.id)) problems.push(`${at}: id must look like §N-NN with N in 2..9`);
    if (seen.has(row.id)) problems.push(`${at}: duplicate id`);
    seen.add(row.id);
    if (row.requirement === '') problems.push(`${at}: empty requirement`);
    if (row.implementedIn.length === 0) problems.push(`${at}: no implementing file`);
    for (const path of row.implementedIn) {
      if (!fileExists(path)) problems.push(`${at}: implementing file ${path} does not exist`);
    }
    if (row.provenBy.length === 0) problems.push(`${at}: no proving test`);
    if (!row.provenBy.some((citation) => citation.path.startsWith('apps/web/'))) problems.push(`${at}: no client-side (apps/web) test`);
    for (const { path, testName } of row.provenBy) {
      if (!/\.(?:test\.tsx?|spec\.ts)$/.test(path)) problems.push(`${at}: ${path} is not a *.test.ts(x) or *.spec.ts file`);
      else if (!fileExists(path)) problems.push(`${at}: test file ${path} does not exist`);
      else if (!declaresTest(readFile(path), testName)) problems.push(`${at}: ${path} has no test named "${testName}"`);
    }
  }
  for (const section of ['2', '3', '4', '5', '6', '7', '8', '9']) {
    if (!rows.some((row) => row.id.startsWith(`§${section}-`))) problems.push(`no row for SPEC §${section}`);
  }
  return problems;
}

const onDisk = {
  exists: (path: string) => existsSync(join(repoRoot, path)),
  read: (path: string) => readFileSync(join(repoRoot, path), 'utf8'),
};

describe('docs/spec-conformance.md', () => {
  test('every SPEC requirement row cites existing sources and a real test in an existing test file', () => {
    const markdown = onDisk.read(TABLE_PATH);
    expect(parseTable(markdown).length).toBeGreaterThanOrEqual(MIN_ROWS);
    expect(tableProblems(markdown, onDisk.exists, onDisk.read)).toEqual([]);
  });
});

describe('the table checker', () => {
  const file = "test('staff can scan', () => {});\ntest.each(['/a', '/b'])('%s is open', () => {});\n";
  const files: Record<string, string> = { 'apps/web/src/a.ts': '', 'apps/web/src/a.test.ts': file };
  const exists = (path: string) => path in files;
  const read = (path: string) => files[path] ?? '';
  const header = '| id | requirement | implemented in | proven by |\n|---|---|---|---|\n';
  const sections = ['2', '3', '4', '5', '6', '7', '8', '9'];
  const table = (row: (index: number) => string) => header + Array.from({ length: MIN_ROWS }, (_, index) => row(index)).join('\n') + '\n';
  const goodRow = (index: number) =>
    `| §${sections[index % 8]}-${String(10 + Math.floor(index / 8)).padStart(2, '0')} | a rule | \`apps/web/src/a.ts\` | \`apps/web/src/a.test.ts\` "${index % 2 ? 'staff can scan' : '%s is open'}" |`;

  test('a sound table has no problems', () => {
    expect(tableProblems(table(goodRow), exists, read)).toEqual([]);
  });

  test('too few rows are refused', () => {
    expect(tableProblems(header + goodRow(0), exists, read)).toContain(`only 1 rows, expected at least ${MIN_ROWS}`);
  });

  test('a duplicate id is refused', () => {
    const markdown = table((index) => (index === 9 ? goodRow(1) : goodRow(index)));
    expect(tableProblems(markdown, exists, read)).toContainEqual(expect.stringMatching(/duplicate id/));
  });

  test('an empty implemented-in or proven-by cell is refused', () => {
    const markdown = table((index) => (index === 0 ? '| §2-10 | a rule |  |  |' : goodRow(index)));
    const problems = tableProblems(markdown, exists, read);
    expect(problems).toContainEqual(expect.stringMatching(/no implementing file/));
    expect(problems).toContainEqual(expect.stringMatching(/no proving test/));
  });

  test('a missing source file, a missing test file and an unknown test name are refused', () => {
    const rows: Record<number, string> = {
      0: '| §2-10 | a rule | `apps/web/src/gone.ts` | `apps/web/src/a.test.ts` "staff can scan" |',
      1: '| §3-10 | a rule | `apps/web/src/a.ts` | `apps/web/src/gone.test.ts` "staff can scan" |',
      2: '| §4-10 | a rule | `apps/web/src/a.ts` | `apps/web/src/a.test.ts` "staff can fly" |',
    };
    const problems = tableProblems(table((index) => rows[index] ?? goodRow(index)), exists, read);
    expect(problems).toContainEqual(expect.stringMatching(/implementing file apps\/web\/src\/gone\.ts does not exist/));
    expect(problems).toContainEqual(expect.stringMatching(/test file apps\/web\/src\/gone\.test\.ts does not exist/));
    expect(problems).toContainEqual(expect.stringMatching(/has no test named "staff can fly"/));
  });

  test('a test name that only appears outside a test declaration does not count', () => {
    files['apps/web/src/b.test.ts'] = "// staff can scan\nconst name = 'staff can scan';\n";
    const markdown = table((index) => (index === 0 ? '| §2-10 | a rule | `apps/web/src/a.ts` | `apps/web/src/b.test.ts` "staff can scan" |' : goodRow(index)));
    expect(tableProblems(markdown, exists, read)).toContainEqual(expect.stringMatching(/has no test named "staff can scan"/));
  });
});
