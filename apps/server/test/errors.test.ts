import { apiPaths, ApiErrorBody } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BODY_LIMIT_BYTES } from '../src/app.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await t.close();
});

function expectNoInternals(body: string) {
  expect(body).not.toMatch(/stack|at .*\.ts:\d+|node_modules|postgres|pglite|drizzle|SELECT /i);
}

test('malformed JSON is a 400 with { code, message }', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: '{"eventId": ',
  });
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json()).code).toBe('bad_request');
  expectNoInternals(response.body);
});

test('a body that is not JSON is a 415', async () => {
  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.login),
      headers: { 'content-type': contentType },
      payload: 'email=demo&password=demo-scanner',
    });
    expect(response.statusCode).toBe(415);
    expect(ApiErrorBody.parse(response.json()).code).toBe('bad_request');
  }
});

test('a body over the limit is a 413', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.login),
    payload: { email: 'demo', password: 'x'.repeat(BODY_LIMIT_BYTES + 1) },
  });
  expect(response.statusCode).toBe(413);
  expect(ApiErrorBody.parse(response.json()).code).toBe('payload_too_large');
});

test('an unknown API route is a 404 JSON error', async () => {
  for (const [method, url] of [
    ['GET', api('/nope')],
    ['POST', api('/tickets/verify/extra')],
    ['GET', '/api'],
    ['DELETE', api(apiPaths.usersMe)],
  ] as const) {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(ApiErrorBody.parse(response.json()).code).toBe('not_found');
  }
});

test('wrong JSON types are a 400 naming the field, never a 5xx', async () => {
  const bodies: unknown[] = [[], 'text', 42, null, { email: 1, password: 'x' }, { email: '<script>', password: ["'; DROP TABLE users; --"] }];
  for (const payload of bodies) {
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.login),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(400);
    const body = ApiErrorBody.parse(response.json());
    expect(body.code).toBe('validation_failed');
    expect(body.field).toMatch(/^body/);
  }
});

test('text with a NUL character is a 400 naming the field, not a database failure', async () => {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: 'demo\u0000', password: 'x' } });
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'validation_failed', field: 'body.email' });
});

test('without a web build, non-API paths are a 404 JSON error too', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/scanner' });
  expect(response.statusCode).toBe(404);
  expect(ApiErrorBody.parse(response.json()).code).toBe('not_found');
});

// Keep this test last: it closes the database under the running app.
test('a server failure is a 500 that hides the internals', async () => {
  await t.database.close();
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) });
  expect(response.statusCode).toBe(500);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'internal_error', message: 'Something went wrong on the server.' });
  expectNoInternals(response.body);
});
