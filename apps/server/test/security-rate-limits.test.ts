import { ApiErrorBody, apiPaths, LoginResponse } from '@gatecheck/contract';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
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

let accountCount = 0;
/** A new account (through the API), so each test starts with fresh per-account counters. */
async function freshAccount() {
  accountCount += 1;
  const account = { name: `Door ${accountCount}`, username: `door${accountCount}`, email: `door${accountCount}@example.org`, password: `door-password-${accountCount}`, country: '' };
  expect((await post(apiPaths.register, account, freshIp())).statusCode).toBe(201);
  return account;
}

function signIn(email: string, password: string, remoteAddress: string = freshIp()) {
  return post(apiPaths.login, { email, password }, remoteAddress);
}

test('50 successful sign-ins in a row to one account from one address are never limited', async () => {
  const account = await freshAccount();
  const ip = freshIp();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const identifier = attempt % 2 === 0 ? account.username : account.email;
    expect((await signIn(identifier, account.password, ip)).statusCode).toBe(200);
  }
});

test('the username and the email of one account share one failure counter, whatever their case', async () => {
  const account = await freshAccount();
  const spellings = [account.username, account.email, ` ${account.email.toUpperCase()} `];
  for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
    expect((await signIn(spellings[attempt % spellings.length] ?? '', 'wrong-password')).statusCode).toBe(401);
  }
  expectRateLimited(await signIn(account.username, account.password));
  expectRateLimited(await signIn(account.email, account.password));
  // Another account is not affected.
  expect((await signIn(DEMO_USER.username, DEMO_USER.password)).statusCode).toBe(200);
});

test('after the failures in a row even the right password waits, from any address, until Retry-After has passed', async () => {
  const account = await freshAccount();
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
      expect((await signIn(account.email, 'wrong-password')).statusCode).toBe(401);
    }
    const blocked = await signIn(account.email, account.password);
    expectRateLimited(blocked);
    const retryAfterMs = Number(blocked.headers['retry-after']) * 1000;

    vi.setSystemTime(Date.now() + retryAfterMs - 2000);
    expectRateLimited(await signIn(account.username, account.password));
    vi.setSystemTime(Date.now() + 2000);
    expect((await signIn(account.username, account.password)).statusCode).toBe(200);
  } finally {
    vi.useRealTimers();
  }
});

test("a successful sign-in starts the account's failures again at zero", async () => {
  const account = await freshAccount();
  for (let round = 0; round < 3; round += 1) {
    for (let attempt = 0; attempt < ACCOUNT_MAX - 1; attempt += 1) {
      expect((await signIn(account.email, 'wrong-password')).statusCode).toBe(401);
    }
    expect((await signIn(account.username, account.password)).statusCode).toBe(200);
  }
});

test('a completed password reset lifts the lock on the account: the new password signs in at once', async () => {
  const account = await freshAccount();
  const phone = freshIp();
  for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
    expect((await signIn(account.username, 'wrong-password', phone)).statusCode).toBe(401);
  }
  expectRateLimited(await signIn(account.username, account.password, phone));

  expect((await post(apiPaths.forgotPassword, { email: account.email }, freshIp())).statusCode).toBe(200);
  const token = await resetTokenMailedTo(account.email);
  expect((await post(apiPaths.resetPassword, { token, newPassword: 'after-lockout-pw' }, freshIp())).statusCode).toBe(200);
  expect((await signIn(account.username, 'after-lockout-pw', phone)).statusCode).toBe(200);
});

/** The token of the reset mail to `email` in the file outbox (mail goes out in the background). */
async function resetTokenMailedTo(email: string): Promise<string> {
  const outbox = path.join(t.config.dataDir, 'outbox');
  return vi.waitFor(
    async () => {
      const names = await readdir(outbox).catch(() => []);
      const mails = (await Promise.all(names.map((name) => readFile(path.join(outbox, name), 'utf8')))).map((mail) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='));
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mails.find((mail) => mail.includes(`To: ${email}`)) ?? '')?.[1];
      if (!token) throw new Error(`no reset mail to ${email} yet`);
      return token;
    },
    { timeout: 15_000, interval: 20 },
  );
}

test('unknown identifiers are counted by their trimmed, lower-cased text', async () => {
  for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
    const spelling = attempt % 2 === 0 ? 'Nobody-Here@Example.org' : '  nobody-here@example.org ';
    expect((await signIn(spelling, 'whatever')).statusCode).toBe(401);
  }
  expectRateLimited(await signIn('NOBODY-HERE@example.org', 'whatever'));
});

test('failed sign-ins are limited per address across many usernames, and then even a right password from it waits', async () => {
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX; attempt += 1) {
    expect((await signIn(`guess${attempt}@example.org`, 'whatever', ip)).statusCode).toBe(401);
  }
  expectRateLimited(await signIn('guess-next@example.org', 'whatever', ip));
  expectRateLimited(await signIn(DEMO_USER.username, DEMO_USER.password, ip));
  // Another address is not affected, and the guessed names are not locked (one failure each).
  expect((await signIn('guess0@example.org', 'whatever')).statusCode).toBe(401);
  expect((await signIn(DEMO_USER.username, DEMO_USER.password)).statusCode).toBe(200);
});

test('malformed sign-in requests are refused as invalid and lock nobody out', async () => {
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX + 2; attempt += 1) {
    expect((await post(apiPaths.login, { nonsense: attempt }, ip)).statusCode).toBe(400);
  }
  expect((await signIn(DEMO_USER.email, DEMO_USER.password, ip)).statusCode).toBe(200);
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
