/**
 * How the server serves the installable app's files (issue 12 item 1, docs/decisions/055): the
 * service worker and its Workbox runtime are revalidated on every load (a year of `immutable` would
 * pin a device to an old app), the web app manifest has its media type, the worker may run under the
 * Content-Security-Policy, and the server's own routes are never the app.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let webDir: string;
const INDEX = '<!doctype html><title>Gatecheck test build</title><link rel="manifest" href="/manifest.webmanifest">';
/** As vite-plugin-pwa writes it: the worker imports its Workbox runtime from our origin. */
const SERVICE_WORKER = `if(!self.define){/* loader */}define(["./workbox-2fbc6a65"],function(e){"use strict";${'/* precache list */ '.repeat(80)}});`;
const WORKBOX_RUNTIME = `define(["exports"],function(t){"use strict";${'/* workbox */ '.repeat(200)}});`;
const MANIFEST = JSON.stringify({ name: 'Gatecheck Scanner', short_name: 'Gatecheck', start_url: '/', display: 'standalone', icons: [] });

/** What a browser sends when it fetches (or update-checks) a service worker script. */
const SERVICE_WORKER_FETCH = { accept: '*/*', 'service-worker': 'script', 'sec-fetch-dest': 'serviceworker', 'sec-fetch-mode': 'same-origin' };
const PAGE_LOAD = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'sec-fetch-mode': 'navigate' };

/** The CSP of an answer as a map of directive → value. */
function cspOf(header: unknown): Map<string, string> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
}

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-web-sw-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  await writeFile(path.join(webDir, 'manifest.webmanifest'), MANIFEST);
  // The worker and its runtime with the build's compressed siblings (vite-plugin-compression2).
  for (const [name, text] of [
    ['sw.js', SERVICE_WORKER],
    ['workbox-2fbc6a65.js', WORKBOX_RUNTIME],
  ] as const) {
    await writeFile(path.join(webDir, name), text);
    await writeFile(path.join(webDir, `${name}.br`), brotliCompressSync(text));
    await writeFile(path.join(webDir, `${name}.gz`), gzipSync(text));
  }
  t = await createTestApp({ seed: false, env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

test('sw.js is served as JavaScript and revalidated on every update check, compressed or not — never immutable', async () => {
  for (const encoding of [undefined, 'gzip, deflate, br']) {
    const headers = encoding ? { ...SERVICE_WORKER_FETCH, 'accept-encoding': encoding } : SERVICE_WORKER_FETCH;
    const response = await t.app.inject({ method: 'GET', url: '/sw.js', headers });
    expect(response.statusCode, encoding).toBe(200);
    expect(response.headers['content-type'], encoding).toMatch(/^(?:text|application)\/javascript/);
    expect(response.headers['cache-control'], encoding).toBe('no-cache');
    expect(String(response.headers['cache-control'])).not.toMatch(/immutable|max-age=[1-9]/);
  }
});

test('the Workbox runtime next to sw.js is revalidated too', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/workbox-2fbc6a65.js', headers: { accept: '*/*' } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.body).toBe(WORKBOX_RUNTIME);
});

test('the web app manifest is served as application/manifest+json and revalidated', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest', headers: { accept: '*/*', 'sec-fetch-dest': 'manifest' } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.json()).toMatchObject({ name: 'Gatecheck Scanner', display: 'standalone', start_url: '/' });
});

test('the CSP lets the page register a worker from our origin, and the worker load its runtime and the build', async () => {
  for (const url of ['/', '/sw.js']) {
    const response = await t.app.inject({ method: 'GET', url, headers: url === '/' ? PAGE_LOAD : SERVICE_WORKER_FETCH });
    const csp = cspOf(response.headers['content-security-policy']);
    // Registering /sw.js: worker-src. Its importScripts('/workbox-….js'): the worker's own script-src.
    // Its precache fetches: connect-src. The manifest: manifest-src, which falls back to default-src.
    expect(csp.get('worker-src')?.split(' '), url).toContain("'self'");
    expect(csp.get('script-src')?.split(' '), url).toContain("'self'");
    expect(csp.get('connect-src')?.split(' '), url).toContain("'self'");
    expect(csp.get('default-src'), url).toBe("'self'");
    expect(csp.has('manifest-src'), url).toBe(false);
  }
});

test('the server\'s own routes stay the server\'s: /metrics, /api/docs and the API are never the app\'s HTML', async () => {
  for (const url of ['/api/health', '/api/docs', '/metrics']) {
    const response = await t.app.inject({ method: 'GET', url, headers: PAGE_LOAD });
    expect(response.body, url).not.toBe(INDEX);
  }
  const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: PAGE_LOAD });
  expect(health.json()).toMatchObject({ status: 'ok' });
  expect(health.headers['cache-control']).toBe('no-store');
});
