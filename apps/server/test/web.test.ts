import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let webDir: string;
const INDEX = '<!doctype html><title>Gatecheck test build</title>';
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-web-'));
  await mkdir(path.join(webDir, 'assets'));
  await writeFile(path.join(webDir, 'index.html'), INDEX);
  await writeFile(path.join(webDir, 'assets', 'app.js'), 'console.log("app");');
  t = await createTestApp({ seed: false, env: { WEB_DIST_DIR: webDir } });
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

test('the web app is served at /', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/' });
  expect(response.statusCode).toBe(200);
  expect(response.body).toBe(INDEX);
});

test('files of the web build are served as they are', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
  expect(response.statusCode).toBe(200);
  expect(response.body).toBe('console.log("app");');
  expect(response.headers['content-type']).toMatch(/javascript/);
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('index.html is revalidated on every load, so a new build shows at once', async () => {
  for (const url of ['/', '/scanner']) {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.headers['cache-control']).toBe('no-cache');
  }
});

test('deep links fall back to index.html (SPA)', async () => {
  for (const url of ['/scanner', '/day-select?x=1', '/some/unknown/page']) {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toBe(INDEX);
  }
});

test('API paths never fall back to the web app', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/api/unknown' });
  expect(response.statusCode).toBe(404);
  expect(response.json()).toMatchObject({ code: 'not_found' });
});
