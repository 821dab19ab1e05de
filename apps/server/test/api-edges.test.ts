/**
 * The API's edges (issue 15 item 16): every answer under /api is `{ code, message }` with the
 * security headers, whatever Fastify's router or a plugin would have said, and the routes that need
 * a session authenticate before they look at the body.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiErrorBody, apiPaths, deviceApiPaths, organizationEventsPath, teamPaths } from '@gatecheck/contract';
import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

const CAPACITOR_ORIGIN = 'capacitor://localhost';

let t: TestApp;
let webDir: string;
let token: string;
beforeAll(async () => {
  // With a web build, as in production: its static files and SPA fallback must never answer /api.
  webDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-web-'));
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Gatecheck</title>');
  t = await createTestApp({ env: { WEB_DIST_DIR: webDir, CORS_ORIGINS: CAPACITOR_ORIGIN } });
  token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await t.close();
  await rm(webDir, { recursive: true, force: true });
});

/** The answer is our error shape with `status` and `code`, as JSON, with the security headers. */
function expectOurError(response: LightMyRequestResponse, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(ApiErrorBody.parse(response.json()).code).toBe(code);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  expect(response.headers['x-frame-options']).toBe('DENY');
}

test('a path with a malformed %-escape is a 400 { code, message } with the security headers, not Fastify\'s body', async () => {
  for (const url of [api('/users/%ZZ'), api(`${apiPaths.organizations}/%E0%A4%A`)]) {
    const response = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expectOurError(response, 400, 'bad_request');
    expect(response.body).not.toContain('FST_ERR');
  }
});

test('an OPTIONS request that is not a CORS preflight is a 400 { code, message }; a real preflight still passes', async () => {
  expectOurError(await t.app.inject({ method: 'OPTIONS', url: api(apiPaths.usersMe) }), 400, 'bad_request');
  const preflight = await t.app.inject({
    method: 'OPTIONS',
    url: api(apiPaths.verifyTicket),
    headers: { origin: CAPACITOR_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
  });
  expect(preflight.statusCode).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe(CAPACITOR_ORIGIN);
});

test('an /api path no route has is a 404 { code, message }, never the web app or its static files', async () => {
  for (const url of [api('//users/me'), api('/users//me'), api('/nope'), api('/'), api('/index.html')]) {
    expectOurError(await t.app.inject({ method: 'GET', url, headers: bearer(token) }), 404, 'not_found');
  }
  expectOurError(await t.app.inject({ method: 'DELETE', url: api(apiPaths.usersMe), headers: bearer(token) }), 404, 'not_found');
});

test('without a session, every signed-in route answers 401 before looking at the body or the params', async () => {
  const anonymous = [
    { method: 'POST' as const, url: api(apiPaths.verifyTicket), payload: {} },
    { method: 'POST' as const, url: api(apiPaths.verifyTicket), payload: { eventId: 1, qrCode: ['x'], day: 'one' } },
    { method: 'POST' as const, url: api(apiPaths.changePassword), payload: {} },
    { method: 'GET' as const, url: api(organizationEventsPath('x'.repeat(90))) },
    { method: 'GET' as const, url: api(apiPaths.usersMe) },
  ];
  for (const request of anonymous) expectOurError(await t.app.inject(request), 401, 'unauthenticated');
  // Signed in, the same bad body is a 400 naming the field.
  const signedIn = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: {} });
  expect(signedIn.statusCode).toBe(400);
  expect(ApiErrorBody.parse(signedIn.json())).toMatchObject({ code: 'validation_failed', field: 'body.eventId' });
});

const Document = z.object({ paths: z.record(z.string(), z.record(z.string(), z.looseObject({ security: z.array(z.unknown()).optional() }))) });

test('sign-in is the default: every route except signing in, signing up, account recovery, joining from an invitation, a device\'s enrollment and the health probes needs a session', async () => {
  const document = Document.parse((await t.app.inject({ method: 'GET', url: api('/docs/json') })).json());
  const open: string[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.security === undefined) {
        open.push(`${method} ${route}`);
        continue;
      }
      const url = route.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const response = await t.app.inject({ method: method.toUpperCase() as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url, payload: method === 'get' ? undefined : {} });
      expectOurError(response, 401, 'unauthenticated');
    }
  }
  expect(open.sort()).toEqual(
    [
      `get ${api(apiPaths.authOptions)}`,
      `get ${api(apiPaths.health)}`,
      `get ${api(apiPaths.ready)}`,
      // The enrollment token is the credential of a device's first call (docs/decisions/107).
      ...[apiPaths.forgotPassword, apiPaths.login, apiPaths.logout, apiPaths.register, apiPaths.resetPassword, deviceApiPaths.redeemEnrollment].map((pathname) => `post ${api(pathname)}`),
      // Joining the door team from an invitation's link without an account: the link is the permission.
      `post ${api(teamPaths.joinWithNewAccount)}`,
    ].sort(),
  );
});
