/**
 * Logs keep no secrets (issue 14 item 5): with every log line on (LOG_LEVEL=trace), signing up, in and
 * out, verifying tickets by bearer token and by cookie, changing and resetting a password write none
 * of the passwords, session tokens, cookies, reset tokens or request bodies into the log.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { apiPaths, LoginResponse } from '@gatecheck/contract';
import { expect, test, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER, seedDemoData } from '../src/db/seed.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, createTestDatabase } from './helpers/test-app.ts';

test('sign-up, sign-in, verify, password change and reset leave no password, token, cookie or body in the log', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-log-secrets-'));
  const database = await createTestDatabase();
  const seeded = await seedDemoData(database.db);
  const { liveEventId } = await demoIds(database.db);
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    LOG_LEVEL: 'trace',
    ALLOW_SIGNUP: 'true',
    PUBLIC_URL: 'https://gate.example.com',
  });
  const app = await buildApp({ config, db: database.db, logStream: stream });
  const secrets: string[] = [];
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: api(url), payload: payload as Record<string, unknown>, headers: { 'content-type': 'application/json', ...headers } });
  try {
    const account = { name: 'Lola Logless', username: 'lola', email: 'lola@example.org', password: 'lola-first-Passw0rd', country: '' };
    secrets.push(account.password, DEMO_USER.password);
    expect((await post(apiPaths.register, account)).statusCode).toBe(201);
    expect((await post(apiPaths.login, { email: account.email, password: 'lola-wrong-Passw0rd' })).statusCode).toBe(401);
    secrets.push('lola-wrong-Passw0rd');

    const cookieLogin = await post(apiPaths.login, { email: DEMO_USER.email, password: DEMO_USER.password, useCookie: true });
    expect(cookieLogin.statusCode).toBe(200);
    const cookieToken = LoginResponse.parse(cookieLogin.json()).token;
    const setCookie = String(cookieLogin.headers['set-cookie']);
    const cookie = setCookie.split(';')[0] ?? '';
    secrets.push(cookieToken, cookie.split('=')[1] ?? '');

    const bearerLogin = await post(apiPaths.login, { email: account.username, password: account.password });
    const bearerToken = LoginResponse.parse(bearerLogin.json()).token;
    secrets.push(bearerToken);

    const qrCode = seeded.tickets.find((ticket) => ticket.days === null && !ticket.isRevoked)?.code ?? '';
    secrets.push(qrCode);
    const byCookie = await post(apiPaths.verifyTicket, { eventId: liveEventId, qrCode, day: DEMO_TODAY_DAY_NUMBER }, { cookie, origin: 'https://gate.example.com' });
    expect(byCookie.statusCode).toBe(200);
    // Lola is no member: a 404 logged as an access refusal, with the bearer token sent.
    const byBearer = await post(apiPaths.verifyTicket, { eventId: liveEventId, qrCode, day: DEMO_TODAY_DAY_NUMBER }, { authorization: `Bearer ${bearerToken}` });
    expect(byBearer.statusCode).toBe(404);

    const changed = await post(apiPaths.changePassword, { currentPassword: account.password, newPassword: 'lola-second-Passw0rd' }, { authorization: `Bearer ${bearerToken}` });
    expect(changed.statusCode).toBe(200);
    secrets.push('lola-second-Passw0rd');

    expect((await post(apiPaths.forgotPassword, { email: account.email })).statusCode).toBe(200);
    const outbox = path.join(dataDir, 'outbox');
    const resetToken = await vi.waitFor(
      async () => {
        const mails = await Promise.all((await readdir(outbox)).map((name) => readFile(path.join(outbox, name), 'utf8')));
        const link = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mails.join('').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
        if (!link?.[1]) throw new Error('no reset mail yet');
        return link[1];
      },
      { timeout: 15_000, interval: 20 },
    );
    secrets.push(resetToken);
    expect((await post(apiPaths.resetPassword, { token: resetToken, newPassword: 'lola-third-Passw0rd' })).statusCode).toBe(200);
    secrets.push('lola-third-Passw0rd');
    expect((await post(apiPaths.logout, {}, { authorization: `Bearer ${bearerToken}` })).statusCode).toBe(200);
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  const log = lines.join('');
  // The log was captured: every request is there, by path.
  expect(log).toContain(`"url":"${api(apiPaths.login)}"`);
  expect(log).toContain(`"url":"${api(apiPaths.verifyTicket)}"`);
  expect(log).toContain(`"url":"${api(apiPaths.resetPassword)}"`);
  expect(secrets.filter((secret) => secret.length >= 8)).toHaveLength(secrets.length);
  for (const secret of secrets) expect(log, `a secret of ${secret.length} characters is in the log`).not.toContain(secret);
  // No header or body field that carries one is logged at all (paths such as /auth/change-password are).
  expect(log).not.toMatch(/"(authorization|cookie|set-cookie|headers|body|payload|password|currentPassword|newPassword|token|qrCode)":/i);
});
