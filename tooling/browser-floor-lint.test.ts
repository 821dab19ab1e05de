/**
 * The browser floor's lint (docs/decisions/090, eslint.config.js): in the web app's code, an API
 * newer than Android System WebView 99 / iOS 15.5 is an error unless src/boot/polyfills.js supplies it.
 * Snippets linted as if they stood in apps/web/src (without type information: they are not files on
 * disk, so each newer method is called on a value whose type is plain from the code). And the floor
 * is one number in every place that states it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, expect, test } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: repoRoot, overrideConfig: { languageOptions: { parserOptions: { projectService: false } } } });

// ESLint's first run loads every plugin and the browser-compat data (several seconds on a busy machine).
beforeAll(async () => {
  await eslint.lintText('export {};\n', { filePath: 'apps/web/src/lib/example.ts' });
}, 60_000);

async function floorErrors(code: string, filePath = 'apps/web/src/lib/example.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => /^(compat\/|es-x\/|no-restricted-properties)/.test(message.ruleId ?? '')).map((message) => `${message.line}: ${message.message}`);
}

test('APIs newer than the floor without a fallback are errors in the web app, and not in its tests', async () => {
  const code = [
    "export const sorted = [3, 1, 2].toSorted();",
    "export const both = new Set([1]).union(new Set([2]));",
    "export const parsed = URL.parse('https://gate.example.com');",
    'export const pending = Promise.withResolvers<void>();',
    'export const lock = navigator.wakeLock;',
    '',
  ].join('\n');
  const errors = await floorErrors(code);
  expect(errors.join('\n')).toMatch(/^1: .*Array\.prototype\.toSorted/m);
  expect(errors.join('\n')).toMatch(/^2: .*Set\.prototype\.union/m);
  expect(errors.join('\n')).toMatch(/^3: 'URL\.parse' is restricted from being used\. URL\.parse is newer than the browser floor .*docs\/decisions\/090/m);
  expect(errors.join('\n')).toMatch(/^4: .*Promise\.withResolvers/m);
  expect(errors.join('\n')).toMatch(/^5: navigator\.wakeLock\(\) is not supported in Safari 15\.5/m);
  expect(await floorErrors(code, 'apps/web/src/lib/example.test.ts')).toEqual([]);
  // The contract's code is in the app's bundle too.
  expect((await floorErrors(code, 'packages/contract/src/example.ts')).join('\n')).toMatch(/^1: .*Array\.prototype\.toSorted/m);
  expect((await floorErrors("export const fixed = 'GC-1'.toWellFormed();\n")).join('\n')).toMatch(/String\.prototype\.toWellFormed/);
});

test('the APIs src/boot/polyfills.js supplies, and those the floor has, pass', async () => {
  const code = [
    "export const valid = URL.canParse('https://gate.example.com');",
    'export const timeout = AbortSignal.timeout(8000);',
    'export const either = AbortSignal.any([timeout, new AbortController().signal]);',
    'export const last = [1, 2].at(-1);',
    "export const own = Object.hasOwn({ a: 1 }, 'a');",
    'export const id = crypto.randomUUID();',
    'export const copy = structuredClone({ a: 1 });',
    'export const found = [1, 2].findLast((n) => n > 0);',
    "export const storable = 'GC-1'.isWellFormed();",
    '',
  ].join('\n');
  expect(await floorErrors(code)).toEqual([]);
});

test('the floor is the same in the build target, the browserslist and the Android shell, which shows a page of its own below it', () => {
  const web = (path: string) => readFileSync(join(repoRoot, 'apps/web', path), 'utf8');
  const target = /\btarget: \[([^\]]*)\]/.exec(web('vite.config.ts'))?.[1]?.match(/'[^']+'/g);
  expect(target).toEqual(["'chrome99'", "'edge99'", "'safari15.5'", "'ios15.5'"]);
  expect((JSON.parse(web('package.json')) as { browserslist: string[] }).browserslist).toEqual(['chrome >= 99', 'edge >= 99', 'safari >= 15.5', 'ios_saf >= 15.5']);
  const capacitor = JSON.parse(web('capacitor.config.json')) as { android?: { minWebViewVersion?: number }; server?: { errorPath?: string } };
  expect(capacitor.android?.minWebViewVersion).toBe(99);
  expect(capacitor.server?.errorPath).toBe('webview-too-old.html');
  const page = web(`public/${capacitor.server?.errorPath ?? ''}`);
  expect(page).toContain('Android System WebView 99');
  expect(page).not.toMatch(/<script|<link/);
});
