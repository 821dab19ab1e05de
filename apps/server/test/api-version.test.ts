/**
 * Every answer under /api says which contract the server speaks (docs/decisions/094), so an app
 * installed before or after a server upgrade can tell "too old / too new" from a broken server: on
 * the real app and a real database (PGlite, or PostgreSQL in project server-pg).
 */
import { API_VERSION, API_VERSION_HEADER, apiPaths, OLDEST_APP_API_VERSION, OLDEST_APP_API_VERSION_HEADER } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

/** The phone's origin (the Android app), configured explicitly as an operator would. */
const PHONE_ORIGIN = 'https://localhost';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: PHONE_ORIGIN } });
});
afterAll(async () => {
  await t.close();
});

function versionsOf(response: { headers: Record<string, unknown> }) {
  return { apiVersion: response.headers[API_VERSION_HEADER.toLowerCase()], oldestAppApiVersion: response.headers[OLDEST_APP_API_VERSION_HEADER.toLowerCase()] };
}

const EXPECTED = { apiVersion: String(API_VERSION), oldestAppApiVersion: String(OLDEST_APP_API_VERSION) };

test(`answers, errors included, carry the server's API version and the oldest app it serves (${TEST_DATABASE_KIND})`, async () => {
  const answers = await Promise.all([
    t.app.inject({ method: 'GET', url: api(apiPaths.health) }),
    t.app.inject({ method: 'GET', url: api(apiPaths.authOptions) }),
    // 401: no session.
    t.app.inject({ method: 'GET', url: api(apiPaths.usersMe) }),
    // 400: a body the schema refuses.
    t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: '' } }),
    // 404: no such route.
    t.app.inject({ method: 'GET', url: api('/no-such-route') }),
  ]);
  expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401, 400, 404]);
  for (const answer of answers) expect(versionsOf(answer)).toEqual(EXPECTED);
});

test('the app on a phone (another origin) may read both version headers', async () => {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.authOptions), headers: { origin: PHONE_ORIGIN } });
  expect(response.headers['access-control-allow-origin']).toBe(PHONE_ORIGIN);
  const exposed = String(response.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
  expect(exposed).toEqual(expect.arrayContaining([API_VERSION_HEADER.toLowerCase(), OLDEST_APP_API_VERSION_HEADER.toLowerCase()]));
});

test("the web app's own files carry no API version (only the API speaks the contract)", async () => {
  const page = await t.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
  expect(versionsOf(page)).toEqual({ apiVersion: undefined, oldestAppApiVersion: undefined });
});
