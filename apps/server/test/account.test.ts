import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiErrorBody, apiPaths, FlagMessageResponse, UserMe } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { passwordResetTokens, users } from '../src/db/schema.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { deleteExpiredResetTokens } from '../src/services/accounts.ts';
import { StatementRecorder } from './helpers/query-plans.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

const PUBLIC_URL = 'https://gate.example.com';

const recorder = new StatementRecorder();
let t: TestApp;
let outbox: string;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL }, databaseOptions: { logger: recorder } });
  outbox = path.join(t.config.dataDir, 'outbox');
});
afterAll(async () => {
  await t.close();
});

let accountCount = 0;
/** Registers a fresh account through the API and returns its credentials. */
async function registerFresh() {
  accountCount += 1;
  const account = {
    name: `Sam Staff ${accountCount}`,
    username: `sam${accountCount}`,
    email: `sam${accountCount}@example.org`,
    password: `first-password-${accountCount}`,
    country: 'nl',
  };
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.register), payload: account });
  expect(response.statusCode).toBe(201);
  return account;
}

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: api(url), payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } });
}

async function canSignIn(identifier: string, password: string): Promise<boolean> {
  const response = await post(apiPaths.login, { email: identifier, password });
  return response.statusCode === 200;
}

async function isSignedIn(token: string): Promise<boolean> {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) });
  return response.statusCode === 200;
}

/** The outbox's .eml files that mention `email`, decoded from quoted-printable soft line breaks. */
async function mailsTo(email: string): Promise<string[]> {
  const names = await readdir(outbox).catch(() => []);
  const mails = await Promise.all(names.map((name) => readFile(path.join(outbox, name), 'utf8')));
  return mails.map((mail) => mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).filter((mail) => mail.includes(`To: ${email}`));
}

/** Waits for the reset mail to `email` (mail is sent in the background) and returns its token. */
async function resetTokenMailedTo(email: string, count = 1): Promise<string> {
  const mails = await vi.waitFor(
    async () => {
      const found = await mailsTo(email);
      expect(found).toHaveLength(count);
      return found;
    },
    { timeout: 15_000, interval: 20 },
  );
  const link = /https:\/\/gate\.example\.com\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1) ?? '');
  if (!link?.[1]) throw new Error('no reset link in the mail');
  return link[1];
}

test('a visitor can register and then sign in with the new account', async () => {
  const account = {
    name: 'Rita Register',
    username: 'rita.r',
    email: 'Rita@Example.org',
    password: 'rita-password',
    country: 'de',
  };
  const response = await post(apiPaths.register, account);
  expect(response.statusCode).toBe(201);
  expect(FlagMessageResponse.parse(response.json())).toEqual({ success: true, message: 'Account created. You can now sign in.' });

  const token = await login(t.app, 'rita@example.org', account.password);
  const me = UserMe.parse((await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) })).json());
  expect(me).toMatchObject({ displayName: 'Rita Register', username: 'rita.r', email: 'Rita@Example.org', country: 'DE' });
  const [row] = await t.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.username, 'rita.r'));
  expect(row?.hash).toMatch(/^\$argon2id\$/);
});

test('registering a taken email or username, in any letter case, is a 409 with a message for the sign-up form, naming the field', async () => {
  const takenEmail = await post(apiPaths.register, {
    name: 'Copy Cat',
    username: 'copycat',
    email: DEMO_USER.email.toUpperCase(),
    password: 'long-enough',
    country: '',
  });
  expect(takenEmail.statusCode).toBe(409);
  expect(ApiErrorBody.parse(takenEmail.json())).toEqual({ code: 'conflict', message: 'An account with this email already exists.', field: 'body.email' });

  const takenUsername = await post(apiPaths.register, {
    name: 'Copy Cat',
    username: 'DEMO',
    email: 'copycat@example.org',
    password: 'long-enough',
    country: '',
  });
  expect(takenUsername.statusCode).toBe(409);
  expect(ApiErrorBody.parse(takenUsername.json())).toEqual({ code: 'conflict', message: 'This username is already taken.', field: 'body.username' });
  expect(await canSignIn('copycat@example.org', 'long-enough')).toBe(false);
});

test('registering with a short password or a malformed email is a 400 naming the field', async () => {
  const shortPassword = await post(apiPaths.register, { name: 'A', username: 'shorty', email: 'shorty@example.org', password: 'short', country: '' });
  expect(shortPassword.statusCode).toBe(400);
  expect(ApiErrorBody.parse(shortPassword.json())).toMatchObject({ code: 'validation_failed', field: 'body.password' });
  const badEmail = await post(apiPaths.register, { name: 'A', username: 'bademail', email: 'not-an-email', password: 'long-enough', country: '' });
  expect(ApiErrorBody.parse(badEmail.json())).toMatchObject({ code: 'validation_failed', field: 'body.email' });
});

test('staff can change their password with a bearer token; other sessions end, this one stays', async () => {
  const account = await registerFresh();
  const current = await login(t.app, account.username, account.password);
  const other = await login(t.app, account.email, account.password);

  const response = await post(apiPaths.changePassword, { currentPassword: account.password, newPassword: 'second-password' }, bearer(current));
  expect(response.statusCode).toBe(200);
  expect(FlagMessageResponse.parse(response.json())).toEqual({ success: true, message: 'Password changed successfully' });

  expect(await isSignedIn(current)).toBe(true);
  expect(await isSignedIn(other)).toBe(false);
  expect(await canSignIn(account.username, account.password)).toBe(false);
  expect(await canSignIn(account.username, 'second-password')).toBe(true);
});

test('staff can change their password with the session cookie', async () => {
  const account = await registerFresh();
  const token = await login(t.app, account.username, account.password);
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.changePassword),
    cookies: { gatecheck_session: token },
    headers: { origin: 'http://localhost' },
    payload: { currentPassword: account.password, newPassword: 'cookie-password' },
  });
  expect(response.statusCode).toBe(200);
  expect(await canSignIn(account.username, 'cookie-password')).toBe(true);
});

test('a wrong current password is a 400 with the server message, and the password stays', async () => {
  const account = await registerFresh();
  const token = await login(t.app, account.username, account.password);
  const response = await post(apiPaths.changePassword, { currentPassword: 'not-my-password', newPassword: 'whatever-123' }, bearer(token));
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'bad_request', message: 'Current password is incorrect.' });
  expect(await canSignIn(account.username, account.password)).toBe(true);
  expect(await isSignedIn(token)).toBe(true);
});

test('changing a password without a session is a 401', async () => {
  const response = await post(apiPaths.changePassword, { currentPassword: 'x', newPassword: 'long-enough' });
  expect(response.statusCode).toBe(401);
  expect(ApiErrorBody.parse(response.json()).code).toBe('unauthenticated');
});

test('forgot-password answers identically for a known and an unknown email, and mails only the known one', async () => {
  const account = await registerFresh();
  const known = await post(apiPaths.forgotPassword, { email: account.email.toUpperCase() });
  const unknown = await post(apiPaths.forgotPassword, { email: 'nobody-here@example.org' });

  for (const response of [known, unknown]) {
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(known.headers['content-type']);
    expect(response.body).toBe(known.body);
  }
  expect(FlagMessageResponse.parse(known.json())).toEqual({
    success: true,
    message: 'If an account exists for that email, a reset link has been sent.',
  });

  await resetTokenMailedTo(account.email);
  expect(await mailsTo('nobody-here@example.org')).toEqual([]);
});

test('forgot-password does the same database work for a known and an unknown email: the same statements, one row written either way', async () => {
  const account = await registerFresh();
  const rowsBefore = (await t.database.db.select({ id: passwordResetTokens.id }).from(passwordResetTokens)).length;
  /** The SQL (not the values) of every statement a forgot-password request for `email` causes, the mail's included. */
  const statementsFor = async (email: string): Promise<string[]> => {
    await recorder.during(email, async () => {
      expect((await post(apiPaths.forgotPassword, { email })).statusCode).toBe(200);
      await t.app.mailer.drain();
    });
    return recorder.statements.filter((statement) => statement.label === email).map((statement) => statement.sql);
  };
  const known = await statementsFor(account.email);
  const unknown = await statementsFor('nobody-at-all@example.org');
  expect(known.length).toBeGreaterThan(0);
  expect(unknown).toEqual(known);
  // Both wrote one row (a commit that writes costs more than one that does not: a WAL flush).
  expect((await t.database.db.select({ id: passwordResetTokens.id }).from(passwordResetTokens)).length).toBe(rowsBefore + 2);
  await resetTokenMailedTo(account.email);
});

test('reset-token rows a day past their expiry are deleted, with or without a user; the rest stay', async () => {
  const now = new Date();
  const [user] = await t.database.db.select({ id: users.id }).from(users).limit(1);
  const day = 24 * 60 * 60 * 1000;
  const rows = [
    { tokenHash: 'cleanup-old-user', userId: user?.id ?? null, expiresAt: new Date(now.getTime() - day - 1000) },
    { tokenHash: 'cleanup-old-none', userId: null, expiresAt: new Date(now.getTime() - day - 1000) },
    { tokenHash: 'cleanup-recent', userId: null, expiresAt: new Date(now.getTime() - 1000) },
    { tokenHash: 'cleanup-live', userId: user?.id ?? null, expiresAt: new Date(now.getTime() + 1000) },
  ];
  await t.database.db.insert(passwordResetTokens).values(rows);
  expect(await deleteExpiredResetTokens(t.database.db, now)).toBe(2);
  const left = (await t.database.db.select({ tokenHash: passwordResetTokens.tokenHash }).from(passwordResetTokens)).map((row) => row.tokenHash);
  expect(left).toEqual(expect.arrayContaining(['cleanup-recent', 'cleanup-live']));
  expect(left).not.toContain('cleanup-old-user');
  expect(left).not.toContain('cleanup-old-none');
});

test('the reset mail carries a link to PUBLIC_URL with a 32-byte token; the database keeps only its hash, for one hour', async () => {
  const account = await registerFresh();
  await post(apiPaths.forgotPassword, { email: account.email });
  const token = await resetTokenMailedTo(account.email);
  expect(Buffer.from(token, 'base64url')).toHaveLength(32);

  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, account.email));
  const rows = await t.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user?.id ?? ''));
  expect(rows).toHaveLength(1);
  expect(rows[0]?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
  expect(JSON.stringify(rows)).not.toContain(token);
  const lifetimeMs = (rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0);
  expect(Math.abs(lifetimeMs - 60 * 60 * 1000)).toBeLessThan(60_000);
});

test('a reset token sets a new password once and signs the user out everywhere', async () => {
  const account = await registerFresh();
  const session = await login(t.app, account.username, account.password);
  await post(apiPaths.forgotPassword, { email: account.email });
  const token = await resetTokenMailedTo(account.email);

  const reset = await post(apiPaths.resetPassword, { token, newPassword: 'after-reset-pw' });
  expect(reset.statusCode).toBe(200);
  expect(FlagMessageResponse.parse(reset.json())).toEqual({ success: true, message: 'Password updated successfully' });
  expect(await isSignedIn(session)).toBe(false);
  expect(await canSignIn(account.username, account.password)).toBe(false);
  expect(await canSignIn(account.username, 'after-reset-pw')).toBe(true);

  const again = await post(apiPaths.resetPassword, { token, newPassword: 'another-password' });
  expect(again.statusCode).toBe(400);
  expect(ApiErrorBody.parse(again.json())).toEqual({ code: 'bad_request', message: 'This reset link is invalid or has expired.' });
  expect(await canSignIn(account.username, 'after-reset-pw')).toBe(true);
});

test('an expired reset token is refused', async () => {
  const account = await registerFresh();
  await post(apiPaths.forgotPassword, { email: account.email });
  const token = await resetTokenMailedTo(account.email);
  const tokenHash = createHash('sha256').update(token).digest('hex');
  await t.database.db
    .update(passwordResetTokens)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(passwordResetTokens.tokenHash, tokenHash));

  const response = await post(apiPaths.resetPassword, { token, newPassword: 'too-late-password' });
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json()).code).toBe('bad_request');
  expect(await canSignIn(account.username, account.password)).toBe(true);
});

test('an unknown reset token is refused', async () => {
  const response = await post(apiPaths.resetPassword, { token: 'made-up-token', newPassword: 'long-enough' });
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'bad_request', message: 'This reset link is invalid or has expired.' });
});

test("the token of a row written for an e-mail without an account resets nothing, even if it were known", async () => {
  const token = 'token-of-a-row-without-a-user';
  await t.database.db.insert(passwordResetTokens).values({ userId: null, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Date.now() + 60_000) });
  const response = await post(apiPaths.resetPassword, { token, newPassword: 'long-enough' });
  expect(response.statusCode).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'bad_request', message: 'This reset link is invalid or has expired.' });
});

test('a password change voids reset links sent before it', async () => {
  const account = await registerFresh();
  await post(apiPaths.forgotPassword, { email: account.email });
  const token = await resetTokenMailedTo(account.email);
  const session = await login(t.app, account.username, account.password);
  await post(apiPaths.changePassword, { currentPassword: account.password, newPassword: 'changed-meanwhile' }, bearer(session));

  const response = await post(apiPaths.resetPassword, { token, newPassword: 'from-old-link' });
  expect(response.statusCode).toBe(400);
  expect(await canSignIn(account.username, 'changed-meanwhile')).toBe(true);
});

test('a second reset request sends a second link; using one voids the other', async () => {
  const account = await registerFresh();
  await post(apiPaths.forgotPassword, { email: account.email });
  const first = await resetTokenMailedTo(account.email, 1);
  await post(apiPaths.forgotPassword, { email: account.email });
  const second = await resetTokenMailedTo(account.email, 2);
  expect(second).not.toBe(first);

  expect((await post(apiPaths.resetPassword, { token: second, newPassword: 'second-link-pw' })).statusCode).toBe(200);
  expect((await post(apiPaths.resetPassword, { token: first, newPassword: 'first-link-pw' })).statusCode).toBe(400);
});
