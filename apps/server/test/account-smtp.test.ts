/**
 * With SMTP_URL set, the reset mail goes to that SMTP server (and not to the outbox). The SMTP server
 * here is a minimal stand-in on 127.0.0.1 that accepts one conversation at a time and records the
 * messages; it speaks just enough of RFC 5321 for nodemailer (no TLS, no auth).
 */
import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { apiPaths } from '@gatecheck/contract';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { DEMO_USER } from '../src/db/seed.ts';
import { api, createTestApp, type TestApp } from './helpers/test-app.ts';

interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** Starts the stand-in SMTP server on a free port of 127.0.0.1. */
async function startSmtpServer(): Promise<{ port: number; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    socket.write('220 stand-in ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(mail);
          mail = { from: '', to: [], data: '' };
          socket.write('250 queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') socket.write('250-stand-in\r\n250 8BITMIME\r\n');
        else if (command === 'MAIL') {
          mail.from = line;
          socket.write('250 ok\r\n');
        } else if (command === 'RCPT') {
          mail.to.push(line);
          socket.write('250 ok\r\n');
        } else if (command === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (command === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Gate Desk <desk@example.org>', PUBLIC_URL: 'https://gate.example.com' },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

test('with SMTP_URL the reset mail is delivered over SMTP from MAIL_FROM, and nothing is written to the outbox', async () => {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.forgotPassword), payload: { email: DEMO_USER.email } });
  expect(response.statusCode).toBe(200);

  const mail = await vi.waitFor(
    () => {
      expect(smtp.received).toHaveLength(1);
      return smtp.received[0];
    },
    { timeout: 15_000, interval: 20 },
  );
  expect(mail?.from).toMatch(/<desk@example\.org>/);
  expect(mail?.to.join()).toContain(`<${DEMO_USER.email}>`);
  const text = (mail?.data ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  expect(text).toMatch(/Subject: Reset your Gatecheck password/);
  expect(text).toMatch(/https:\/\/gate\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}/);
  expect(await readdir(path.join(t.config.dataDir, 'outbox')).catch(() => [])).toEqual([]);
});

test('when the SMTP server cannot be reached, forgot-password still answers the same 200', async () => {
  const closed = await startSmtpServer();
  await closed.close();
  const unreachable = await createTestApp({ seed: false, env: { SMTP_URL: `smtp://127.0.0.1:${closed.port}` } });
  try {
    const account = { name: 'Una Reachable', username: 'una', email: 'una@example.org', password: 'long-enough', country: '' };
    expect((await unreachable.app.inject({ method: 'POST', url: api(apiPaths.register), payload: account })).statusCode).toBe(201);
    const known = await unreachable.app.inject({ method: 'POST', url: api(apiPaths.forgotPassword), payload: { email: account.email } });
    const unknown = await unreachable.app.inject({ method: 'POST', url: api(apiPaths.forgotPassword), payload: { email: 'nobody@example.org' } });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
  } finally {
    // Closing waits for the failed delivery, which is logged, not thrown.
    await unreachable.close();
  }
});
