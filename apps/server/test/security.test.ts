import { ApiErrorBody, apiPaths } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

const APP_ORIGIN = 'https://gate.example.com';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_URL: APP_ORIGIN, CORS_ORIGINS: 'capacitor://localhost, https://localhost', CSP_CONNECT_SRC: 'https://ip.example.net' },
  });
});
afterAll(async () => {
  await t.close();
});

function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

async function isSignedIn(token: string): Promise<boolean> {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) });
  return response.statusCode === 200;
}

test('responses carry security headers with a CSP that fits the scanner app', async () => {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe) });
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  const csp = directives(String(response.headers['content-security-policy']));
  expect(csp.get('default-src')).toBe("'self'");
  expect(csp.get('script-src')).toBe("'self' 'wasm-unsafe-eval'");
  expect(csp.get('img-src')).toBe("'self' blob: data:");
  expect(csp.get('media-src')).toContain('blob:');
  expect(csp.get('connect-src')).toBe("'self' https://ip.example.net");
  expect(csp.get('object-src')).toBe("'none'");
  expect(csp.get('frame-ancestors')).toBe("'none'");
  expect(csp.has('upgrade-insecure-requests')).toBe(false);
});

test('a CORS preflight from a configured origin is allowed with credentials', async () => {
  for (const origin of ['capacitor://localhost', 'https://localhost']) {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: api(apiPaths.verifyTicket),
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
  }
});

test("the app on a phone (a configured origin) may read a 429's Retry-After", async () => {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: { origin: 'capacitor://localhost' } });
  expect(response.headers['access-control-allow-origin']).toBe('capacitor://localhost');
  expect(String(response.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/)).toContain('retry-after');
});

test('other origins get no CORS permission', async () => {
  const preflight = await t.app.inject({
    method: 'OPTIONS',
    url: api(apiPaths.login),
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
  });
  expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  const simple = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: { origin: 'https://evil.example' } });
  expect(simple.headers['access-control-allow-origin']).toBeUndefined();
});

test('a cookie-authenticated request from another site is refused as CSRF and changes nothing', async () => {
  const token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  for (const headers of [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/page' }, { origin: 'null' }]) {
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.logout),
      cookies: { gatecheck_session: token },
      headers,
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'csrf_failed', message: 'This request came from another site and was refused.' });
    expect(await isSignedIn(token)).toBe(true);
  }
});

test('a cookie-authenticated request from our own origin, PUBLIC_URL or a CORS origin is accepted', async () => {
  for (const headers of [
    { origin: 'http://localhost' },
    { host: 'scanner.local:8080', origin: 'http://scanner.local:8080' },
    { origin: APP_ORIGIN },
    { referer: `${APP_ORIGIN}/scanner` },
    { origin: 'capacitor://localhost' },
  ]) {
    const token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.logout),
      cookies: { gatecheck_session: token },
      headers,
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(await isSignedIn(token)).toBe(false);
  }
});

test('a bearer-authenticated request is exempt from the origin check', async () => {
  const token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.logout),
    headers: { ...bearer(token), origin: 'https://elsewhere.example' },
    payload: {},
  });
  expect(response.statusCode).toBe(200);
  expect(await isSignedIn(token)).toBe(false);
});

test('an Authorization header that carries no bearer token does not exempt a cookie-authenticated request from the origin check', async () => {
  const token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  for (const authorization of ['', ' ', 'Bearer', 'Basic ZGVtbzpkZW1v']) {
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.logout),
      cookies: { gatecheck_session: token },
      headers: { authorization, origin: 'https://evil.example' },
      payload: {},
    });
    expect(response.statusCode, `Authorization: '${authorization}'`).toBe(403);
    expect(ApiErrorBody.parse(response.json()).code).toBe('csrf_failed');
    expect(await isSignedIn(token)).toBe(true);
  }
});

test('a cross-site login attempt is refused before the password is checked', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.login),
    headers: { origin: 'https://evil.example' },
    payload: { email: DEMO_USER.username, password: DEMO_USER.password, useCookie: true },
  });
  expect(response.statusCode).toBe(403);
  expect(response.headers['set-cookie']).toBeUndefined();
});

test('form-encoded and text bodies, which a foreign page can send without CORS, are refused', async () => {
  const token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  for (const [contentType, payload] of [
    ['text/plain', ''],
    ['text/plain', '{}'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['multipart/form-data; boundary=x', '--x--'],
  ] as const) {
    const response = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.logout),
      cookies: { gatecheck_session: token },
      headers: { 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(415);
    expect(await isSignedIn(token)).toBe(true);
  }
});

test('CORS_ORIGINS defaults to the native app WebView origins; a set value replaces them', () => {
  expect(loadConfig({}).corsOrigins).toEqual(['capacitor://localhost', 'https://localhost', 'http://localhost']);
  expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com' }).corsOrigins).toEqual(['https://app.example.com']);
});

test('CORS_ORIGINS must be origins; the Capacitor schemes are accepted', () => {
  expect(loadConfig({ CORS_ORIGINS: 'capacitor://localhost,https://localhost/,http://localhost' }).corsOrigins).toEqual([
    'capacitor://localhost',
    'https://localhost',
    'http://localhost',
  ]);
  expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/CORS_ORIGINS/);
  expect(() => loadConfig({ CORS_ORIGINS: 'not a url' })).toThrow(/CORS_ORIGINS/);
  expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
});
