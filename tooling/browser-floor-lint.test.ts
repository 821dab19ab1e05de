/**
 * The browser floor's lint (docs/decisions/090, eslint.config.js): in the web app's code, an API
 * newer than Android System WebView 99 / iOS 15.5 is an error unless public/polyfills.js supplies it.
 * Snippets linted as if they stood in apps/web/src (without type information: they are not files on
 * disk, so each newer method is called on a value whose type is plain from the code).
 */
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
});

test('the APIs public/polyfills.js supplies, and those the floor has, pass', async () => {
  const code = [
    "export const valid = URL.canParse('https://gate.example.com');",
    'export const timeout = AbortSignal.timeout(8000);',
    'export const either = AbortSignal.any([timeout, new AbortController().signal]);',
    'export const last = [1, 2].at(-1);',
    "export const own = Object.hasOwn({ a: 1 }, 'a');",
    'export const id = crypto.randomUUID();',
    'export const copy = structuredClone({ a: 1 });',
    'export const found = [1, 2].findLast((n) => n > 0);',
    '',
  ].join('\n');
  expect(await floorErrors(code)).toEqual([]);
});
