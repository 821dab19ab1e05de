import { ApiErrorBody, apiPaths, LoginResponse } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

const IP_MAX = 6;
const ACCOUNT_MAX = 3;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_IP_MAX: String(IP_MAX), RATE_LIMIT_ACCOUNT_MAX: String(ACCOUNT_MAX), RATE_LIMIT_WINDOW_SECONDS: '600' },
  });
});
afterAll(async () => {
  await t.close();
});

let ipCount = 0;
/** A client IP no other test uses, so each test starts with fresh per-IP counters. */
function freshIp(): string {
  ipCount += 1;
  return `10.0.0.${ipCount}`;
}

function post(url: string, payload: unknown, remoteAddress: string) {
  return t.app.inject({ method: 'POST', url: api(url), payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' }, remoteAddress });
}

function expectRateLimited(response: Awaited<ReturnType<typeof post>>) {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
  const body = ApiErrorBody.parse(response.json());
  expect(body.code).toBe('rate_limited');
  expect(body.message).toMatch(/^Too many attempts\. Try again in \d+ (seconds?|minutes)\.$/);
}

test('login is limited per account: after the limit even the right password waits, from any IP', async () => {
  for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
    const response = await post(apiPaths.login, { email: DEMO_USER.email, password: 'wrong-password' }, freshIp());
    expect(response.statusCode).toBe(401);
  }
  expectRateLimited(await post(apiPaths.login, { email: DEMO_USER.email.toUpperCase(), password: DEMO_USER.password }, freshIp()));
  // Another account is not affected.
  const other = await post(apiPaths.login, { email: DEMO_USER.username, password: DEMO_USER.password }, freshIp());
  expect(other.statusCode).toBe(200);
});

test('login is limited per IP across accounts', async () => {
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX; attempt += 1) {
    const response = await post(apiPaths.login, { email: `guess${attempt}@example.org`, password: 'whatever' }, ip);
    expect(response.statusCode).toBe(401);
  }
  expectRateLimited(await post(apiPaths.login, { email: 'guess-next@example.org', password: 'whatever' }, ip));
  const elsewhere = await post(apiPaths.login, { email: 'guess-next@example.org', password: 'whatever' }, freshIp());
  expect(elsewhere.statusCode).toBe(401);
});

test('malformed login attempts count toward the per-IP limit', async () => {
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX; attempt += 1) {
    expect((await post(apiPaths.login, { nonsense: attempt }, ip)).statusCode).toBe(400);
  }
  expectRateLimited(await post(apiPaths.login, { email: 'x@example.org', password: 'y' }, ip));
});

test('forgot-password is limited per account and per IP, the same for known and unknown emails', async () => {
  for (const email of [DEMO_USER.email, 'unknown-person@example.org']) {
    for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
      expect((await post(apiPaths.forgotPassword, { email }, freshIp())).statusCode).toBe(200);
    }
    expectRateLimited(await post(apiPaths.forgotPassword, { email }, freshIp()));
  }
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX; attempt += 1) {
    expect((await post(apiPaths.forgotPassword, { email: `someone${attempt}@example.org` }, ip)).statusCode).toBe(200);
  }
  expectRateLimited(await post(apiPaths.forgotPassword, { email: 'someone-else@example.org' }, ip));
});

test('register is limited per email and per IP', async () => {
  const account = { name: 'Rate Limited', username: 'ratelimited', email: 'rl@example.org', password: 'long-enough', country: '' };
  expect((await post(apiPaths.register, account, freshIp())).statusCode).toBe(201);
  for (let attempt = 1; attempt < ACCOUNT_MAX; attempt += 1) {
    expect((await post(apiPaths.register, { ...account, username: `rl${attempt}` }, freshIp())).statusCode).toBe(409);
  }
  expectRateLimited(await post(apiPaths.register, { ...account, username: 'rl-final' }, freshIp()));

  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX; attempt += 1) {
    const body = { ...account, username: `bulk${attempt}`, email: `bulk${attempt}@example.org` };
    expect((await post(apiPaths.register, body, ip)).statusCode).toBe(201);
  }
  expectRateLimited(await post(apiPaths.register, { ...account, username: 'bulk-last', email: 'bulk-last@example.org' }, ip));
});

test('change-password is limited per IP', async () => {
  const ip = freshIp();
  const { token } = LoginResponse.parse((await post(apiPaths.login, { email: DEMO_USER.username, password: DEMO_USER.password }, freshIp())).json());
  const attempt = () =>
    t.app.inject({
      method: 'POST',
      url: api(apiPaths.changePassword),
      headers: { authorization: `Bearer ${token ?? ''}` },
      payload: { currentPassword: 'a-wrong-guess', newPassword: 'long-enough' },
      remoteAddress: ip,
    });
  for (let guess = 0; guess < IP_MAX; guess += 1) expect((await attempt()).statusCode).toBe(400);
  expectRateLimited(await attempt());
});

test('routes without limits are not limited', async () => {
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX + 2; attempt += 1) {
    expect((await post(apiPaths.resetPassword, { token: `nope-${attempt}`, newPassword: 'long-enough' }, ip)).statusCode).toBe(400);
  }
});
