import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { apiPaths } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { passwordResetTokens, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from '../src/db/seed.ts';
import { ACCOUNT_MESSAGES } from '../src/services/accounts.ts';
import { hashToken } from '../src/services/sessions.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

const PUBLIC_URL = 'https://gate.example.com';
/** The origin a browser sends for a form on the page app.inject serves (Host: localhost:80). */
const OWN_ORIGIN = 'http://localhost';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
});
afterAll(async () => {
  await t.close();
});

/** A live reset token for the user with `email`, stored as the service stores it (hashed). */
async function issueToken(email: string, expiresInMs = 60_000): Promise<string> {
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error(`no user ${email}`);
  const token = randomBytes(32).toString('base64url');
  await t.database.db.insert(passwordResetTokens).values({ userId: user.id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + expiresInMs) });
  return token;
}

async function openLink(url: string) {
  return t.app.inject({ method: 'GET', url });
}

/** Submits the form as a browser does: urlencoded fields, our own Origin. */
async function submit(fields: Record<string, string>, origin = OWN_ORIGIN) {
  return t.app.inject({
    method: 'POST',
    url: '/reset-password',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The value of the form's hidden token field. */
function hiddenToken(html: string): string | undefined {
  return /<input type="hidden" name="token" value="([^"]*)">/.exec(html)?.[1];
}

async function canSignIn(identifier: string, password: string): Promise<boolean> {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: identifier, password } });
  return response.statusCode === 200;
}

test('the mailed reset link opens a form, and submitting it sets the new password', async () => {
  const forgot = await t.app.inject({ method: 'POST', url: api(apiPaths.forgotPassword), payload: { email: DEMO_USER.email } });
  expect(forgot.statusCode).toBe(200);
  const outbox = path.join(t.config.dataDir, 'outbox');
  const mail = await vi.waitFor(
    async () => {
      const names = await readdir(outbox).catch(() => []);
      const [first] = await Promise.all(names.map((name) => readFile(path.join(outbox, name), 'utf8')));
      expect(first).toBeDefined();
      return (first ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    },
    { timeout: 15_000, interval: 20 },
  );
  const link = /https:\/\/gate\.example\.com(\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail)?.[1];
  expect(link).toBeDefined();

  const page = await openLink(link ?? '');
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.body).toMatch(/<h1>Choose a new password<\/h1>/);
  expect(page.body).toMatch(/<form method="post" action="\/reset-password">/);
  expect(page.body).toMatch(/<label for="new-password">New password<\/label>/);
  expect(page.body).toMatch(/<label for="confirm-password">Confirm new password<\/label>/);
  expect(page.body).not.toMatch(/<script/i);
  const token = hiddenToken(page.body);
  expect(token).toBe(new URL(link ?? '', PUBLIC_URL).searchParams.get('token'));

  const done = await submit({ token: token ?? '', newPassword: 'brand-new-pass', confirmPassword: 'brand-new-pass' });
  expect(done.statusCode).toBe(200);
  expect(done.body).toContain(`<h1>${ACCOUNT_MESSAGES.passwordReset}</h1>`);
  expect(done.body).toContain('<a href="/login">Go to sign in</a>');
  expect(await canSignIn(DEMO_USER.email, 'brand-new-pass')).toBe(true);
  expect(await canSignIn(DEMO_USER.email, DEMO_USER.password)).toBe(false);

  // The token is used up: the link and the form now say so in plain words.
  const again = await submit({ token: token ?? '', newPassword: 'third-password', confirmPassword: 'third-password' });
  expect(again.statusCode).toBe(400);
  expect(again.body).toContain(ACCOUNT_MESSAGES.invalidResetToken);
  expect(again.body).toContain('<a href="/login">Go to sign in</a>');
  const reopened = await openLink(link ?? '');
  expect(reopened.statusCode).toBe(400);
  expect(reopened.body).toContain(ACCOUNT_MESSAGES.invalidResetToken);
  expect(hiddenToken(reopened.body)).toBeUndefined();
  expect(await canSignIn(DEMO_USER.email, 'third-password')).toBe(false);
});

test('a wrong, expired or missing token gets a page saying so, not the form', async () => {
  const expired = await issueToken(DEMO_COLLEAGUE.email, -1000);
  for (const url of [`/reset-password?token=${'x'.repeat(43)}`, `/reset-password?token=${expired}`]) {
    const page = await openLink(url);
    expect(page.statusCode, url).toBe(400);
    expect(page.body).toContain('<h1>Password not changed</h1>');
    expect(page.body).toContain(ACCOUNT_MESSAGES.invalidResetToken);
  }
  const missing = await openLink('/reset-password');
  expect(missing.statusCode).toBe(400);
  expect(missing.body).toContain(ACCOUNT_MESSAGES.resetLinkIncomplete);
  const wrong = await submit({ token: 'not-a-real-token', newPassword: 'whatever-123', confirmPassword: 'whatever-123' });
  expect(wrong.statusCode).toBe(400);
  expect(wrong.body).toContain(ACCOUNT_MESSAGES.invalidResetToken);
  expect(await canSignIn(DEMO_COLLEAGUE.email, 'whatever-123')).toBe(false);
});

test('passwords that differ or are too short show the form again with the reason, keeping the token', async () => {
  const token = await issueToken(DEMO_COLLEAGUE.email);
  const differ = await submit({ token, newPassword: 'first-choice-1', confirmPassword: 'first-choice-2' });
  expect(differ.statusCode).toBe(400);
  expect(differ.body).toContain(`<p class="error" role="alert">${ACCOUNT_MESSAGES.passwordsDiffer}</p>`);
  expect(hiddenToken(differ.body)).toBe(token);
  const short = await submit({ token, newPassword: 'short', confirmPassword: 'short' });
  expect(short.statusCode).toBe(400);
  expect(short.body).toMatch(/role="alert">Password must be at least 8 characters\.<\/p>/);
  // Neither attempt used the token up.
  const done = await submit({ token, newPassword: 'finally-good', confirmPassword: 'finally-good' });
  expect(done.statusCode).toBe(200);
  expect(await canSignIn(DEMO_COLLEAGUE.email, 'finally-good')).toBe(true);
});

test('everything rendered is escaped: a token with markup comes back as text', async () => {
  const hostile = '"><script>alert(1)</script>';
  const page = await submit({ token: hostile, newPassword: 'a-password-1', confirmPassword: 'a-password-2' });
  expect(page.body).not.toContain('<script>');
  expect(hiddenToken(page.body)).toBe('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
});

test('the form post from another site is refused by the origin check; the JSON API still refuses form bodies', async () => {
  const token = await issueToken(DEMO_USER.email);
  const foreign = await submit({ token, newPassword: 'evil-password', confirmPassword: 'evil-password' }, 'https://evil.example');
  expect(foreign.statusCode).toBe(403);
  const apiForm = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.resetPassword),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, newPassword: 'evil-password' }).toString(),
  });
  expect(apiForm.statusCode).toBe(415);
  expect(await canSignIn(DEMO_USER.email, 'evil-password')).toBe(false);
});
