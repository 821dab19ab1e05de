import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let webDir: string;
const INDEX = '<!doctype html><title>Gatecheck test build</title>';
/** A script big enough to be worth compressing, as the web build's would be. */
const APP_JS = `console.log(${JSON.stringify('gate '.repeat(2000))});`;
/** Stands in for the zxing decoder's .wasm (only its name and bytes matter here). */
const DECODER_WASM = Buffer.concat([Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]), Buffer.alloc(8192, 7)]);

/** What a browser sends when it loads a page (Chromium's headers for a typed URL or a link). */
const PAGE_LOAD = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'sec-fetch-mode': 'navigate' };

beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  await writeFile(path.join(webDir, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
  // As the web build writes them (vite-plugin-compression2): the file plus its .br and .gz siblings.
  for (const [name, bytes] of [
    ['app.js', Buffer.from(APP_JS)],
    ['zxing_reader.wasm', DECODER_WASM],
  ] as const) {
    await writeFile(path.join(webDir, 'assets', name), bytes);
    await writeFile(path.join(webDir, 'assets', `${name}.br`), brotliCompressSync(bytes));
    await writeFile(path.join(webDir, 'assets', `${name}.gz`), gzipSync(bytes));
  }
  t = await createTestApp({ seed: false, env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

test('the web app is served at /, also to clients that accept compressed answers', async () => {
  for (const headers of [PAGE_LOAD, { 'accept-encoding': 'gzip, deflate, br' }, {}]) {
    const response = await t.app.inject({ method: 'GET', url: '/', headers });
    expect(response.statusCode, JSON.stringify(headers)).toBe(200);
    expect(response.body).toBe(INDEX);
  }
});

test('files of the web build are served as they are', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
  expect(response.statusCode).toBe(200);
  expect(response.body).toBe(APP_JS);
  expect(response.headers['content-type']).toMatch(/javascript/);
  expect(response.headers['content-encoding']).toBeUndefined();
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('a browser that accepts brotli gets the build\'s brotli copy of a script, cached for a year', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/assets/app.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-encoding']).toBe('br');
  expect(response.headers['content-type']).toMatch(/javascript/);
  expect(response.headers.vary).toMatch(/accept-encoding/i);
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(response.rawPayload.length).toBeLessThan(APP_JS.length / 10);
  expect(brotliDecompressSync(response.rawPayload).toString()).toBe(APP_JS);
});

test('the QR decoder\'s .wasm is sent compressed as application/wasm (brotli, else gzip)', async () => {
  const brotli = await t.app.inject({ method: 'GET', url: '/assets/zxing_reader.wasm', headers: { 'accept-encoding': 'gzip, br' } });
  expect(brotli.headers['content-encoding']).toBe('br');
  expect(brotli.headers['content-type']).toBe('application/wasm');
  expect(brotliDecompressSync(brotli.rawPayload).equals(DECODER_WASM)).toBe(true);

  const gzip = await t.app.inject({ method: 'GET', url: '/assets/zxing_reader.wasm', headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gzip.headers['content-type']).toBe('application/wasm');
  expect(gunzipSync(gzip.rawPayload).equals(DECODER_WASM)).toBe(true);
});

test('index.html is revalidated on every load, so a new build shows at once', async () => {
  for (const url of ['/', '/scanner']) {
    const response = await t.app.inject({ method: 'GET', url, headers: PAGE_LOAD });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  }
});

test('page loads of deep links fall back to index.html (SPA)', async () => {
  const loads = [
    { url: '/scanner', headers: PAGE_LOAD },
    { url: '/day-select?x=1', headers: { 'sec-fetch-mode': 'navigate' } },
    { url: '/some/unknown/page', headers: { accept: 'text/html' } },
  ];
  for (const { url, headers } of loads) {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await t.app.inject({ method, url, headers });
      expect(response.statusCode, `${method} ${url}`).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      if (method === 'GET') expect(response.body).toBe(INDEX);
    }
  }
});

test('a missing file is a 404, never the app\'s HTML (favicon, manifest, scripts, fetches)', async () => {
  const misses = [
    // What a browser sends for an icon it looks for on its own.
    { url: '/favicon.ico', headers: { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'sec-fetch-mode': 'no-cors' } },
    { url: '/manifest.json', headers: { accept: '*/*', 'sec-fetch-mode': 'cors' } },
    // A file name, even when a person types it into the address bar.
    { url: '/manifest.json', headers: PAGE_LOAD },
    { url: '/assets/gone-1234.js', headers: { accept: '*/*', 'sec-fetch-mode': 'no-cors' } },
    // A page path fetched by script or by a tool that does not ask for HTML.
    { url: '/scanner', headers: { accept: 'application/json', 'sec-fetch-mode': 'cors' } },
    { url: '/scanner', headers: {} },
  ];
  for (const { url, headers } of misses) {
    const response = await t.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({ code: 'not_found', message: expect.any(String) });
  }
});

test('robots.txt is the build\'s own file: staff pages are not for search engines', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/robots.txt', headers: { accept: 'text/plain,*/*' } });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/text\/plain/);
  expect(response.body).toContain('Disallow: /');
});

test('a non-GET request to a page path is a 404, not the app', async () => {
  const response = await t.app.inject({ method: 'DELETE', url: '/scanner', headers: PAGE_LOAD });
  expect(response.statusCode).toBe(404);
  expect(response.json()).toMatchObject({ code: 'not_found' });
});

test('API paths never fall back to the web app, even for a page load', async () => {
  for (const url of ['/api/unknown', '/api']) {
    const response = await t.app.inject({ method: 'GET', url, headers: PAGE_LOAD });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  }
});

test('the mailed reset link opens the web app (its reset screen), never a page of its own, and keeps the token out of Referer headers', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/reset-password?token=abcDEF_123-xyz', headers: PAGE_LOAD });
  expect(response.statusCode).toBe(200);
  expect(response.body).toBe(INDEX);
  expect(response.headers['referrer-policy']).toBe('no-referrer');
});
