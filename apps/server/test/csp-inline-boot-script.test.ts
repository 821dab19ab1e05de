/**
 * The Content-Security-Policy allows index.html's inline boot script by its hash (docs/decisions/099)
 * and nothing else inline: `script-src` names the SHA-256 of each inline script of the built page
 * (read when the app is built), never 'unsafe-inline'; scripts loaded by `src` and JSON data blocks
 * add no hash. The real browser's side (the boot script runs under this policy, nothing is
 * refused) is e2e/login-first-paint.spec.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { inlineScriptHashesOf } from '../src/plugins/web.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

const BOOT_SCRIPT = "(function(){document.documentElement.setAttribute('data-boot','sign-in')})();";
const INDEX = [
  '<!doctype html><html><head>',
  `<script>${BOOT_SCRIPT}</script>`,
  '<script src="/other.js"></script>',
  '<script type="application/json">{"not":"code"}</script>',
  '<template id="app-scripts"><script type="module" crossorigin src="/assets/index.js"></script></template>',
  '</head><body></body></html>',
].join('\n');
const PAGE_LOAD = { accept: 'text/html', 'sec-fetch-mode': 'navigate' };

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-csp-'));
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  t = await createTestApp({ seed: false, env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

function scriptSrcOf(header: unknown): string[] {
  const directive = String(header)
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === 'script-src');
  return directive?.slice(1) ?? [];
}

test("script-src names the boot script's hash, on the page and on every other answer, and never 'unsafe-inline'", async () => {
  const bootHash = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;
  for (const [url, headers] of [['/login', PAGE_LOAD], ['/', PAGE_LOAD], ['/api/health', {}]] as const) {
    const response = await t.app.inject({ method: 'GET', url, headers });
    expect(scriptSrcOf(response.headers['content-security-policy']), url).toEqual(["'self'", "'wasm-unsafe-eval'", bootHash]);
  }
});

test('only inline scripts that run are hashed: not a src script, a JSON data block or a script inside a template', () => {
  // The template's script has a src; one without would be hashed, which is harmless (it never runs).
  expect(inlineScriptHashesOf(webDir)).toHaveLength(1);
});

test('without a built web app there is nothing to hash', () => {
  expect(inlineScriptHashesOf(path.join(webDir, 'missing'))).toEqual([]);
});
