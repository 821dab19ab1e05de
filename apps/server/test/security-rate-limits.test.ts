import { ApiErrorBody, apiPaths, LoginResponse } from '@gatecheck/contract';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

const IP_MAX = 6;
const ACCOUNT_MAX = 3;
const WINDOW_MS = 600_000;
/** The first of the growing steps (docs/decisions/083): ⌈ACCOUNT_MAX / 2⌉ failures per window / 15. */
const FIRST_STEP = 2;
const FIRST_STEP_MS = 40_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_IP_MAX: String(IP_MAX), RATE_LIMIT_ACCOUNT_MAX: String(ACCOUNT_MAX), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_MS / 1000) },
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
  expect(retryAfter).toBeLessThanOrEqual((4 * WINDOW_MS) / 1000);
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

/**
 * The lock `refusal` announced lasts exactly its Retry-After (on a fake clock, `Date` faked by the
 * caller): the right password is still refused 2 s before it ends and signs in once it has.
 */
async function expectLockEndsAtRetryAfter(refusal: Awaited<ReturnType<typeof post>>, signInAgain: () => ReturnType<typeof post>): Promise<void> {
  vi.setSystemTime(Date.now() + Number(refusal.headers['retry-after']) * 1000 - 2000);
  expectRateLimited(await signInAgain());
  vi.setSystemTime(Date.now() + 2000);
  expect((await signInAgain()).statusCode).toBe(200);
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
  const phone = freshIp();
  const spellings = [account.username, account.email, ` ${account.email.toUpperCase()} `];
  for (let attempt = 0; attempt < FIRST_STEP; attempt += 1) {
    expect((await signIn(spellings[attempt % spellings.length] ?? '', 'wrong-password', phone)).statusCode).toBe(401);
  }
  expectRateLimited(await signIn(account.username, account.password, phone));
  expectRateLimited(await signIn(account.email, account.password, phone));
  // Another account is not affected.
  expect((await signIn(DEMO_USER.username, DEMO_USER.password, phone)).statusCode).toBe(200);
});

test('wrong passwords from one address wait in growing steps, the right one too, while a colleague elsewhere signs in', async () => {
  const account = await freshAccount();
  const phone = freshIp();
  const colleague = freshIp();
  const retryAfterMs = (response: Awaited<ReturnType<typeof post>>) => Number(response.headers['retry-after']) * 1000;
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    // Step 1: FIRST_STEP wrong passwords, then a short wait.
    for (let attempt = 0; attempt < FIRST_STEP; attempt += 1) expect((await signIn(account.email, 'wrong-password', phone)).statusCode).toBe(401);
    const first = await signIn(account.email, account.password, phone);
    expectRateLimited(first);
    expect(retryAfterMs(first)).toBeLessThanOrEqual(FIRST_STEP_MS);
    // Attempts refused while waiting were never checked: they do not make the wait grow.
    for (let refused = 0; refused < 5; refused += 1) expectRateLimited(await signIn(account.email, 'wrong-password', phone));
    expect((await signIn(account.username, account.password, colleague)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + retryAfterMs(first));

    // Step 2: ACCOUNT_MAX in the window, then a wait until the window ends.
    for (let attempt = FIRST_STEP; attempt < ACCOUNT_MAX; attempt += 1) expect((await signIn(account.email, 'wrong-password', phone)).statusCode).toBe(401);
    const second = await signIn(account.email, account.password, phone);
    expectRateLimited(second);
    expect(retryAfterMs(second)).toBeGreaterThan(FIRST_STEP_MS);
    expect((await signIn(account.username, account.password, colleague)).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + retryAfterMs(second));

    // Step 3: 2 × ACCOUNT_MAX in four windows, then a wait of up to four windows.
    for (let attempt = 0; attempt < FIRST_STEP; attempt += 1) expect((await signIn(account.email, 'wrong-password', phone)).statusCode).toBe(401);
    vi.setSystemTime(Date.now() + FIRST_STEP_MS);
    for (let attempt = FIRST_STEP; attempt < ACCOUNT_MAX; attempt += 1) expect((await signIn(account.email, 'wrong-password', phone)).statusCode).toBe(401);
    const third = await signIn(account.email, account.password, phone);
    expect(third.statusCode).toBe(429);
    expect(retryAfterMs(third)).toBeGreaterThan(WINDOW_MS);
    expect(retryAfterMs(third)).toBeLessThanOrEqual(4 * WINDOW_MS);
    await expectLockEndsAtRetryAfter(third, () => signIn(account.username, account.password, phone));
  } finally {
    vi.useRealTimers();
  }
});

test("a prankster's wrong passwords lock only the prankster's address out of the account: a colleague on another address signs in", async () => {
  const account = await freshAccount();
  const prankster = freshIp();
  // More than the account's ceiling across addresses: refused attempts are not counted there.
  const answers = await Promise.all(Array.from({ length: 5 * ACCOUNT_MAX * 10 }, (_, n) => signIn(account.email, `guess-${n}`, prankster)));
  expect(answers.filter((answer) => answer.statusCode === 401)).toHaveLength(FIRST_STEP);
  expectRateLimited(await signIn(account.email, account.password, prankster));
  expect((await signIn(account.email, account.password, freshIp())).statusCode).toBe(200);
  expect((await signIn(account.username, account.password, freshIp())).statusCode).toBe(200);
});

test('200 wrong passwords at once from one address and the right one after them: only the allowed few are checked, the right one waits', async () => {
  const account = await freshAccount();
  const ip = freshIp();
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    const burst = await Promise.all([
      ...Array.from({ length: 200 }, (_, n) => signIn(account.email, `guess-${n}`, ip)),
      signIn(account.username, account.password, ip),
    ]);
    const right = burst.at(-1);
    if (!right) throw new Error('no answer to the right password');
    expectRateLimited(right);
    expect(burst.filter((answer) => answer.statusCode === 401)).toHaveLength(FIRST_STEP);
    expect(burst.filter((answer) => answer.statusCode === 429)).toHaveLength(201 - FIRST_STEP);
    const waiting = await signIn(account.username, account.password, ip);
    expectRateLimited(waiting);
    await expectLockEndsAtRetryAfter(waiting, () => signIn(account.username, account.password, ip));
  } finally {
    vi.useRealTimers();
  }
});

test('a guess spread over many addresses stops at the account ceiling, for every address, the right password too', async () => {
  const account = await freshAccount();
  const ceiling = 10 * ACCOUNT_MAX;
  const addresses = Array.from({ length: ceiling / FIRST_STEP }, () => freshIp());
  const answers = await Promise.all(
    addresses.flatMap((address) => Array.from({ length: FIRST_STEP }, (_, n) => signIn(account.email, `guess-${address}-${n}`, address))),
  );
  expect(answers.filter((answer) => answer.statusCode === 401)).toHaveLength(ceiling);
  expectRateLimited(await signIn(account.email, account.password, freshIp()));
  // Another account is not affected.
  expect((await signIn(DEMO_USER.email, DEMO_USER.password, freshIp())).statusCode).toBe(200);
});

test("a successful sign-in starts the failures of the account from that address again at zero", async () => {
  const account = await freshAccount();
  const phone = freshIp();
  for (let round = 0; round < 3; round += 1) {
    for (let attempt = 0; attempt < FIRST_STEP - 1; attempt += 1) {
      expect((await signIn(account.email, 'wrong-password', phone)).statusCode).toBe(401);
    }
    expect((await signIn(account.username, account.password, phone)).statusCode).toBe(200);
  }
});

test('a completed password reset lifts the lock on the account: the new password signs in at once', async () => {
  const account = await freshAccount();
  const phone = freshIp();
  for (let attempt = 0; attempt < ACCOUNT_MAX; attempt += 1) {
    const answer = await signIn(account.username, 'wrong-password', phone);
    expect(answer.statusCode).toBe(attempt < FIRST_STEP ? 401 : 429);
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
  const ip = freshIp();
  for (let attempt = 0; attempt < FIRST_STEP; attempt += 1) {
    const spelling = attempt % 2 === 0 ? 'Nobody-Here@Example.org' : '  nobody-here@example.org ';
    expect((await signIn(spelling, 'whatever', ip)).statusCode).toBe(401);
  }
  expectRateLimited(await signIn('NOBODY-HERE@example.org', 'whatever', ip));
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

/** The demo user's session token, signed in from a fresh address. */
async function demoToken(): Promise<string> {
  const { token } = LoginResponse.parse((await post(apiPaths.login, { email: DEMO_USER.username, password: DEMO_USER.password }, freshIp())).json());
  return token ?? '';
}

/** A change-password call with a wrong current password, under `token`, from `ip`. */
function wrongPasswordChange(token: string, ip: string) {
  return t.app.inject({
    method: 'POST',
    url: api(apiPaths.changePassword),
    headers: { authorization: `Bearer ${token}` },
    payload: { currentPassword: 'a-wrong-guess', newPassword: 'long-enough' },
    remoteAddress: ip,
  });
}

test('change-password is limited per IP', async () => {
  const ip = freshIp();
  const token = await demoToken();
  const attempt = () => wrongPasswordChange(token, ip);
  for (let guess = 0; guess < IP_MAX; guess += 1) expect((await attempt()).statusCode).toBe(400);
  expectRateLimited(await attempt());
});

test('bursts at register, forgot-password and change-password are counted before their work: exactly the limit gets through', async () => {
  const statusesOf = (answers: readonly { statusCode: number }[]) => answers.map((answer) => answer.statusCode).sort();
  const forgot = await Promise.all(Array.from({ length: 40 }, () => post(apiPaths.forgotPassword, { email: 'burst@example.org' }, freshIp())));
  expect(statusesOf(forgot)).toEqual([...Array<number>(ACCOUNT_MAX).fill(200), ...Array<number>(40 - ACCOUNT_MAX).fill(429)]);

  const account = { name: 'Burst', username: 'burst', email: 'burst-register@example.org', password: 'long-enough', country: '' };
  const register = await Promise.all(Array.from({ length: 40 }, (_, n) => post(apiPaths.register, { ...account, username: `burst${n}` }, freshIp())));
  expect(statusesOf(register)).toEqual([201, ...Array<number>(ACCOUNT_MAX - 1).fill(409), ...Array<number>(40 - ACCOUNT_MAX).fill(429)]);

  const ip = freshIp();
  const token = await demoToken();
  const changes = await Promise.all(Array.from({ length: 40 }, () => wrongPasswordChange(token, ip)));
  expect(statusesOf(changes)).toEqual([...Array<number>(IP_MAX).fill(400), ...Array<number>(40 - IP_MAX).fill(429)]);
});

test('routes without limits are not limited', async () => {
  const ip = freshIp();
  for (let attempt = 0; attempt < IP_MAX + 2; attempt += 1) {
    expect((await post(apiPaths.resetPassword, { token: `nope-${attempt}`, newPassword: 'long-enough' }, ip)).statusCode).toBe(400);
  }
});
