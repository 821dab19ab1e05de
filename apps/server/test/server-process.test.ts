import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPaths, LoginResponse, VerifyTicketResponse } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { checkIns, tickets } from '../src/db/schema.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER, seedDemoData } from '../src/db/seed.ts';
import { demoIds } from './helpers/fixtures.ts';
import { startServer as startCompiledServer } from './helpers/server-process.ts';

// The real entry point (src/server.ts) in a child process, on an embedded database in a temp DATA_DIR.
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-server-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1].replace('localhost', '127.0.0.1'));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
}

test('the server prints its URL and the demo login, and SIGTERM stops it cleanly with the check-ins saved', async () => {
  // Seed without ticket files first (the PNGs take a while); the server then finds a non-empty database.
  const seeded = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const demo = await seedDemoData(seeded.db);
  const { liveEventId } = await demoIds(seeded.db);
  await seeded.close();
  const ticket = demo.tickets.find((candidate) => candidate.eventTitle === DEMO_LIVE_EVENT_TITLE && candidate.days === null && !candidate.isRevoked);

  const server = startServer({ DATA_DIR: dataDir });
  const base = await server.url;
  expect(server.output()).toContain(`Demo login: ${DEMO_USER.email}`);
  // Seeded elsewhere (above, as by another instance on one database): no folder of tickets here to point at.
  expect(server.output()).toContain('Demo tickets: written by the instance that seeded this database, in its DATA_DIR (none here).');
  expect(server.output()).not.toContain(path.join(dataDir, 'demo-tickets'));

  const signIn = await fetch(`${base}/api${apiPaths.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_USER.username, password: DEMO_USER.password }),
  });
  const { token } = LoginResponse.parse(await signIn.json());
  const verify = await fetch(`${base}/api${apiPaths.verifyTicket}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ eventId: liveEventId, qrCode: ticket?.code, day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID() }),
  });
  expect(VerifyTicketResponse.parse(await verify.json()).isValid).toBe(true);

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);

  const reopened = await openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') });
  const rows = await reopened.db
    .select({ day: checkIns.day })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(eq(tickets.code, ticket?.code ?? ''));
  await reopened.close();
  expect(rows).toEqual([{ day: DEMO_TODAY_DAY_NUMBER }]);
}, 120_000);

test('the server refuses to start with an invalid configuration', async () => {
  const server = startServer({ DATA_DIR: dataDir, PORT: 'not-a-port' });
  await expect(server.url).rejects.toThrow(/PORT/);
  expect(await server.exited).not.toBe(0);
}, 60_000);

test('started as the Docker image starts it (NODE_ENV=production), the server needs CORS_ORIGINS and seeds no demo account', async () => {
  const freshDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-production-'));
  // The compiled server (what the image runs, without tsx's start-up cost).
  const refused = startCompiledServer({ DATA_DIR: freshDir, NODE_ENV: 'production' });
  try {
    await expect(refused.url).rejects.toThrow(/CORS_ORIGINS: set it outside development/);
    expect((await refused.exited).code).toBe(1);
  } finally {
    refused.child.kill('SIGTERM');
  }

  const server = startCompiledServer({ DATA_DIR: freshDir, NODE_ENV: 'production', CORS_ORIGINS: 'none' });
  try {
    const base = await server.url;
    expect(server.output()).not.toContain('Demo login');
    const signIn = await fetch(`${base}/api${apiPaths.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
    });
    expect(signIn.status).toBe(401);
    expect(existsSync(path.join(freshDir, 'demo-tickets'))).toBe(false);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await rm(freshDir, { recursive: true, force: true });
  }
}, 120_000);
